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
		{"step_ns_best", func(r *Result) string { return f64(r.StepNsBest) }},
		{"step_ns_runs", func(r *Result) string {
			v := make([]string, len(r.StepNsRuns))
			for i, x := range r.StepNsRuns {
				v[i] = f64(x)
			}
			return strings.Join(v, " ")
		}},
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
// prefixed bullets_ and debris_) and one line per strategy, fastest first.
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

// WriteTable writes the report for a terminal: the settings, a table of
// time and memory per step and a table of pool work, both one line per
// strategy, fastest first, then a bar chart of the median time per step
// and the verdict on the checksums.
func (r *Report) WriteTable(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "poolroids stress: %d strategies, %d steps each (+%d warm-up), seed %d, level set %q", len(r.Runs), r.Steps, r.Warmup, r.Seed, r.LevelSet)
	if r.Repeat > 1 {
		fmt.Fprintf(ew, ", median of %d interleaved runs", r.Repeat)
	}
	fmt.Fprintf(ew, "\npools: bullets %d (%.0f%% full on average), debris %d (%.0f%% full on average)\n\n",
		r.BulletCap, r.BulletOccupancy, r.DebrisCap, r.DebrisOccupancy)

	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tstrategy\tstep median\tspread\tstep p99\tstep mean\t× fastest\tacquire\trelease\titerate/step\tallocs/step\tbytes/step\tGCs\tGC pause\t")
	for i := range r.Runs {
		x := &r.Runs[i]
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n",
			i+1, x.Strategy, ns(x.StepNsMedian), spread(x), ns(x.StepNsP99), ns(x.StepNsMean), x.Ratio,
			ns(x.AcquireNs), ns(x.ReleaseNs), ns(x.IterateNs),
			num(x.AllocsPerStep), num(x.BytesPerStep), x.GCCycles, ns(float64(x.GCPauseNs)))
	}
	tw.Flush()
	fmt.Fprintln(ew)
	fmt.Fprintln(tw, "#\tstrategy\tacquires\treleases\tmisses\trejects\thigh-water\tlive end\tprobes/acquire\t")
	for i := range r.Runs {
		x := &r.Runs[i]
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n",
			i+1, x.Strategy, x.Acquires, x.Releases, x.Misses, x.Rejects, x.HighWater, x.LiveEnd, num(x.ProbesPerAcquire))
	}
	tw.Flush()
	fmt.Fprintln(ew, "\nmedian time per step")
	r.chart(ew, 50)
	if r.ChecksumsEqual {
		fmt.Fprintf(ew, "\nchecksums: all runs equal every %d steps and at the end (%s): every strategy did the same work\n", r.CheckEvery, r.Runs[0].Checksum)
	} else {
		fmt.Fprintln(ew, "\nchecksums: DIFFER, the strategies did not do the same work: these figures cannot be compared")
	}
	return ew.err
}

// chart draws one bar per run, scaled so the slowest fills width cells,
// in eighths of a cell.
func (r *Report) chart(w io.Writer, width int) {
	slowest, name := 0.0, 0
	for _, x := range r.Runs {
		slowest = max(slowest, x.StepNsMedian)
		name = max(name, len(x.Strategy))
	}
	for _, x := range r.Runs {
		eighths := 0
		if slowest > 0 {
			eighths = int(math.Round(x.StepNsMedian / slowest * float64(width*8)))
		}
		bar := strings.Repeat("█", eighths/8)
		if e := eighths % 8; e > 0 {
			bar += string([]rune("▏▎▍▌▋▊▉")[e-1])
		}
		fmt.Fprintf(w, "%-*s %s %s\n", name, x.Strategy, bar, ns(x.StepNsMedian))
	}
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
	switch {
	case v >= 1e9:
		return num(v/1e9) + "s"
	case v >= 1e6:
		return num(v/1e6) + "ms"
	case v >= 1e3:
		return num(v/1e3) + "µs"
	}
	return num(v) + "ns"
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
