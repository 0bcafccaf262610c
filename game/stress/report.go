package stress

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// WriteJSON writes r as one JSON object, {"runs": [...]} plus the settings;
// see [Report] and [Result] for the keys.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// column is one column of the CSV output: its header, the same as the JSON
// key (pool figures prefixed with the pool's name), and its value.
type column struct {
	key string
	get func(*Result) string
}

func f64(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func u64(v uint64) string  { return strconv.FormatUint(v, 10) }
func itoa(v int) string    { return strconv.Itoa(v) }

// f64s writes a list as one CSV field, its values separated by spaces.
func f64s(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = f64(x)
	}
	return strings.Join(s, " ")
}

var columns = func() []column {
	c := []column{
		{"strategy", func(r *Result) string { return string(r.Strategy) }},
		{"checksum", func(r *Result) string { return r.Checksum.String() }},
		{"steps", func(r *Result) string { return itoa(r.Steps) }},
		{"warmup", func(r *Result) string { return itoa(r.Warmup) }},
		{"step_ns_median", func(r *Result) string { return f64(r.StepNsMedian) }},
		{"step_ns_p99", func(r *Result) string { return f64(r.StepNsP99) }},
		{"step_ns_mean", func(r *Result) string { return f64(r.StepNsMean) }},
		{"ratio", func(r *Result) string { return f64(r.Ratio) }},
		{"rank", func(r *Result) string { return itoa(r.Rank) }},
		{"pool_ns", func(r *Result) string { return f64(r.PoolNs) }},
		{"pool_ns_low", func(r *Result) string { return f64(r.PoolNsLow) }},
		{"pool_ns_high", func(r *Result) string { return f64(r.PoolNsHigh) }},
		{"pool_ratio", func(r *Result) string { return f64(r.PoolRatio) }},
		{"pool_ns_runs", func(r *Result) string { return f64s(r.PoolNsRuns) }},
		{"step_ns_best", func(r *Result) string { return f64(r.StepNsBest) }},
		{"step_ns_runs", func(r *Result) string { return f64s(r.StepNsRuns) }},
		{"acquire_ns", func(r *Result) string { return f64(r.AcquireNs) }},
		{"release_ns", func(r *Result) string { return f64(r.ReleaseNs) }},
		{"iterate_ns", func(r *Result) string { return f64(r.IterateNs) }},
		{"probes_per_acquire", func(r *Result) string { return f64(r.ProbesPerAcquire) }},
		{"acquire_probes", func(r *Result) string { return f64(r.AcquireProbes) }},
		{"release_probes", func(r *Result) string { return f64(r.ReleaseProbes) }},
		{"acquires", func(r *Result) string { return u64(r.Acquires) }},
		{"releases", func(r *Result) string { return u64(r.Releases) }},
		{"misses", func(r *Result) string { return u64(r.Misses) }},
		{"rejects", func(r *Result) string { return u64(r.Rejects) }},
		{"high_water", func(r *Result) string { return itoa(r.HighWater) }},
		{"live_end", func(r *Result) string { return itoa(r.LiveEnd) }},
		{"heap_items", func(r *Result) string { return u64(r.HeapItems) }},
		{"overhead_bytes", func(r *Result) string { return itoa(r.Overhead) }},
		{"allocs_per_step", func(r *Result) string { return f64(r.AllocsPerStep) }},
		{"bytes_per_step", func(r *Result) string { return f64(r.BytesPerStep) }},
		{"gc_cycles", func(r *Result) string { return u64(r.GCCycles) }},
		{"gc_pause_ns", func(r *Result) string { return u64(r.GCPauseNs) }},
	}
	for _, p := range []struct {
		name string
		get  func(*Result) *PoolResult
	}{
		{"bullets", func(r *Result) *PoolResult { return &r.Bullets }},
		{"debris", func(r *Result) *PoolResult { return &r.Debris }},
	} {
		c = append(c,
			column{p.name + "_capacity", func(r *Result) string { return itoa(p.get(r).Capacity) }},
			column{p.name + "_acquires", func(r *Result) string { return u64(p.get(r).Acquires) }},
			column{p.name + "_releases", func(r *Result) string { return u64(p.get(r).Releases) }},
			column{p.name + "_misses", func(r *Result) string { return u64(p.get(r).Misses) }},
			column{p.name + "_rejects", func(r *Result) string { return u64(p.get(r).Rejects) }},
			column{p.name + "_probes", func(r *Result) string { return u64(p.get(r).Probes) }},
			column{p.name + "_high_water", func(r *Result) string { return itoa(p.get(r).HighWater) }},
			column{p.name + "_live_end", func(r *Result) string { return itoa(p.get(r).LiveEnd) }},
			column{p.name + "_heap_items", func(r *Result) string { return u64(p.get(r).HeapItems) }},
			column{p.name + "_overhead_bytes", func(r *Result) string { return itoa(p.get(r).Overhead) }},
			column{p.name + "_acquire_ns", func(r *Result) string { return f64(p.get(r).AcquireNs) }},
			column{p.name + "_release_ns", func(r *Result) string { return f64(p.get(r).ReleaseNs) }},
			column{p.name + "_iterate_ns", func(r *Result) string { return f64(p.get(r).IterateNs) }},
			column{p.name + "_acquire_probes", func(r *Result) string { return f64(p.get(r).AcquireProbes) }},
			column{p.name + "_release_probes", func(r *Result) string { return f64(p.get(r).ReleaseProbes) }},
		)
	}
	return c
}()

// WriteCSV writes a header line of the JSON keys (each pool's own figures
// prefixed bullets_ and debris_) and one line per strategy, in the order
// of the ranking. The verdict is in the JSON and the table only.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	row := make([]string, len(columns))
	for i, c := range columns {
		row[i] = c.key
	}
	cw.Write(row)
	for k := range r.Runs {
		for i, c := range columns {
			row[i] = c.get(&r.Runs[k])
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable writes the report for a terminal, in at most 100 columns:
// the settings, one line per strategy ranked by pool time per step (ties
// share a rank), a bar chart of that time, how ties were decided, the
// check of the checksums and the verdict. [Report.WriteWide] shows every
// figure.
func (r *Report) WriteTable(w io.Writer) error { return r.write(w, false) }

// WriteWide writes the report as WriteTable does, with every figure of
// [Result]: the step times, the garbage collector and the pool counters.
func (r *Report) WriteWide(w io.Writer) error { return r.write(w, true) }

func (r *Report) write(w io.Writer, wide bool) error {
	ew := &errWriter{w: w}
	head := fmt.Sprintf("poolroids stress: %d %s, %d steps each (+%d warm-up), seed %d", len(r.Runs), plural(len(r.Runs), "strategy", "strategies"), r.Steps, r.Warmup, r.Seed)
	if r.Repeat > 1 {
		head += fmt.Sprintf(", %d runs interleaved", r.Repeat)
	}
	wrap(ew, head, 100)
	wrap(ew, fmt.Sprintf("level set %q: bullets %d (%.0f%% full on average), debris %d (%.0f%% full on average)",
		r.LevelSet, r.BulletCap, r.BulletOccupancy, r.DebrisCap, r.DebrisOccupancy), 100)
	fmt.Fprintln(ew)

	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	if wide {
		fmt.Fprintln(tw, "#\tstrategy\tpool/step\tnoise\t× best\tacquire\trelease\titerate/step\tstep median\tspread\tstep p99\tstep mean\t× fastest step\tallocs/step\tbytes/step\tGCs\tGC pause\t")
		for i := range r.Runs {
			x := &r.Runs[i]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%d\t%s\t\n",
				r.rankOf(i), x.Strategy, ns(x.PoolNs), nsRange(x.PoolNsLow, x.PoolNsHigh), x.PoolRatio,
				ns(x.AcquireNs), ns(x.ReleaseNs), ns(x.IterateNs),
				ns(x.StepNsMedian), spread(x), ns(x.StepNsP99), ns(x.StepNsMean), x.Ratio,
				num(x.AllocsPerStep), num(x.BytesPerStep), x.GCCycles, ns(float64(x.GCPauseNs)))
		}
		tw.Flush()
		fmt.Fprintln(ew)
		fmt.Fprintln(tw, "#\tstrategy\tacquires\treleases\tmisses\trejects\thigh-water\tlive end\tprobes/acquire\tacquire probes\trelease probes\theap items\tbookkeeping\t")
		for i := range r.Runs {
			x := &r.Runs[i]
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%d\t%s\t\n",
				r.rankOf(i), x.Strategy, x.Acquires, x.Releases, x.Misses, x.Rejects, x.HighWater, x.LiveEnd,
				num(x.ProbesPerAcquire), num(x.AcquireProbes), num(x.ReleaseProbes), x.HeapItems, size(x.Overhead))
		}
	} else {
		fmt.Fprintln(tw, "#\tstrategy\tpool/step\tnoise\t× best\tacquire\trelease\titerate\tprobes/acquire\tallocs\t")
		for i := range r.Runs {
			x := &r.Runs[i]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t\n",
				r.rankOf(i), x.Strategy, ns(x.PoolNs), nsRange(x.PoolNsLow, x.PoolNsHigh), x.PoolRatio,
				ns(x.AcquireNs), ns(x.ReleaseNs), ns(x.IterateNs), num(x.ProbesPerAcquire), num(x.AllocsPerStep))
		}
	}
	tw.Flush()
	fmt.Fprintln(ew, "\npool time per step: acquires + releases + one loop over each pool, replayed")
	r.chart(ew, 50)
	fmt.Fprintln(ew)
	wrap(ew, "ties: "+r.TieRule+".", 80)
	if r.ChecksumsEqual {
		wrap(ew, fmt.Sprintf("checksums: all runs equal every %d steps and at the end (%s): every strategy did the same work.", r.CheckEvery, r.Runs[0].Checksum), 80)
	} else {
		wrap(ew, "checksums: DIFFER, the strategies did not do the same work: these figures cannot be compared.", 80)
	}
	fmt.Fprintln(ew)
	wrap(ew, "verdict: "+r.Verdict, 80)
	return ew.err
}

// rankOf is the rank of run i as shown: "3" alone, "3=" when tied.
func (r *Report) rankOf(i int) string {
	k := r.Runs[i].Rank
	tied := (i > 0 && r.Runs[i-1].Rank == k) || (i+1 < len(r.Runs) && r.Runs[i+1].Rank == k)
	if tied {
		return strconv.Itoa(k) + "="
	}
	return strconv.Itoa(k)
}

// chart draws one bar per run of its pool time per step, scaled so the
// slowest fills width cells, in eighths of a cell.
func (r *Report) chart(w io.Writer, width int) {
	slowest, name := 0.0, 0
	for _, x := range r.Runs {
		slowest = max(slowest, x.PoolNs)
		name = max(name, len(x.Strategy))
	}
	for _, x := range r.Runs {
		eighths := 0
		if slowest > 0 {
			eighths = int(math.Round(x.PoolNs / slowest * float64(width*8)))
		}
		bar := strings.Repeat("█", eighths/8)
		if e := eighths % 8; e > 0 {
			bar += string([]rune("▏▎▍▌▋▊▉")[e-1])
		}
		fmt.Fprintf(w, "%-*s %s %s\n", name, x.Strategy, bar, ns(x.PoolNs))
	}
}

// wrap writes text in lines of at most width columns, breaking at spaces.
func wrap(w io.Writer, text string, width int) {
	line := 0
	for i, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case line+1+n > width:
			io.WriteString(w, "\n")
			line = 0
		default:
			io.WriteString(w, " ")
			line++
		}
		io.WriteString(w, word)
		line += n
	}
	io.WriteString(w, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// nsRange formats the interval lo..hi in the unit of hi, as "3.51–3.70µs".
func nsRange(lo, hi float64) string {
	scale, u := unit(hi)
	return num(lo/scale) + "–" + num(hi/scale) + u
}

// size formats a size in bytes, in KiB from 10 KiB up.
func size(n int) string {
	if n >= 10<<10 {
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " B"
}

// spread formats Result.Spread as a percentage; "-" for a single run.
func spread(r *Result) string {
	if len(r.StepNsRuns) < 2 {
		return "-"
	}
	return strconv.FormatFloat(100*r.Spread(), 'f', 0, 64) + "%"
}

// ns formats a duration given in ns with three significant digits.
func ns(v float64) string {
	scale, u := unit(v)
	return num(v/scale) + u
}

// unit is the unit ns formats a duration of v ns in: its size in ns and
// its name.
func unit(v float64) (scale float64, name string) {
	switch {
	case v >= 1e9:
		return 1e9, "s"
	case v >= 1e6:
		return 1e6, "ms"
	case v >= 1e3:
		return 1e3, "µs"
	}
	return 1, "ns"
}

// num formats v with three significant digits, or as a whole number from
// 100 up.
func num(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// errWriter keeps the first write error, so a long report checks once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
