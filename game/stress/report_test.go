package stress

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"poolroids/pool"
)

// sample is a small report with a known ranking.
func sample(t *testing.T) *Report {
	t.Helper()
	cfg := short()
	cfg.Steps, cfg.Warmup = 60, 30
	cfg.Strategies = []pool.Strategy{pool.Alloc, pool.Dense, pool.Offsets}
	return run(t, cfg)
}

// TestOutputsAgree checks that the CSV carries exactly the numbers of the
// JSON, column by column (pool columns as bullets_* and debris_*).
func TestOutputsAgree(t *testing.T) {
	rep := sample(t)
	var js, cs bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(rep.Runs)+1 || len(parsed.Runs) != len(rep.Runs) {
		t.Fatalf("%d CSV rows, %d JSON runs for %d results", len(rows), len(parsed.Runs), len(rep.Runs))
	}
	for i, run := range parsed.Runs {
		for j, key := range rows[0] {
			v, ok := run[key]
			if name, field, nested := strings.Cut(key, "_"); !ok && nested && (name == "bullets" || name == "debris") {
				v, ok = run[name].(map[string]any)[field]
			}
			if !ok {
				t.Errorf("CSV column %q is not a JSON key", key)
				continue
			}
			want := text(v)
			if list, ok := v.([]any); ok {
				// A list is one CSV field, its values separated by spaces.
				parts := make([]string, len(list))
				for k := range list {
					parts[k] = text(list[k])
				}
				want = strings.Join(parts, " ")
			}
			if got := rows[i+1][j]; got != want {
				t.Errorf("run %d %s: CSV %s, JSON %s", i, key, got, want)
			}
		}
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Runs[0].Checksum != rep.Runs[0].Checksum {
		t.Errorf("JSON does not read back: %v, checksum %s, want %s", err, back.Runs[0].Checksum, rep.Runs[0].Checksum)
	}
}

// text is a decoded JSON value as the CSV writes it.
func text(v any) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

func TestTable(t *testing.T) {
	rep := sample(t)
	var b bytes.Buffer
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"3 strategies, 60 steps each (+30 warm-up), seed 1", "pool/step", "noise", "probes/acquire",
		"pool time per step", "ties: ", "checksums: all runs equal", "verdict: For this workload", "use " + string(rep.Use)} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// At most 100 columns, with the longest names and the largest figures.
	long := *rep
	long.Repeat, long.Steps, long.Warmup, long.Seed, long.LevelSet = MaxRepeat, MaxSteps, MaxSteps, 1<<64-1, strings.Repeat("x", 40)
	long.Runs = slices.Clone(rep.Runs)
	for i := range long.Runs {
		x := &long.Runs[i]
		x.Strategy, x.PoolNs, x.PoolNsLow, x.PoolNsHigh, x.PoolRatio = pool.ActiveList, 999e3, 111e3, 999e3, 999.99
		x.AcquireNs, x.ReleaseNs, x.IterateNs, x.ProbesPerAcquire, x.AllocsPerStep = 999e3, 999e3, 999e3, 16777216, 9999
	}
	var lb bytes.Buffer
	long.WriteTable(&lb)
	for l := range strings.Lines(lb.String()) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(l, "\n")); n > 100 {
			t.Errorf("line of %d columns, want at most 100: %q", n, l)
		}
	}
	// Every strategy has a line in the table and one bar, in rank order.
	lines := func(out string, want int) {
		t.Helper()
		out, _, _ = strings.Cut(out, "\nverdict:")
		for i, r := range rep.Runs {
			n := 0
			for l := range strings.Lines(out) {
				if strings.Contains(l, " "+string(r.Strategy)+" ") || strings.HasPrefix(l, string(r.Strategy)+" ") {
					n++
				}
			}
			if n != want {
				t.Errorf("%s has %d lines, want %d", r.Strategy, n, want)
			}
			if i > 0 && strings.Index(out, "\n"+string(r.Strategy)+" ") < strings.Index(out, "\n"+string(rep.Runs[i-1].Strategy)+" ") {
				t.Errorf("bar of %s above that of %s, ranked before it", r.Strategy, rep.Runs[i-1].Strategy)
			}
		}
	}
	lines(out, 2)

	b.Reset()
	if err := rep.WriteWide(&b); err != nil {
		t.Fatal(err)
	}
	wide := b.String()
	for _, want := range []string{"step median", "step mean", "GC pause", "high-water", "heap items", "bookkeeping", "verdict: "} {
		if !strings.Contains(wide, want) {
			t.Errorf("wide table lacks %q:\n%s", want, wide)
		}
	}
	lines(wide, 3)

	rep.ChecksumsEqual = false
	b.Reset()
	rep.WriteTable(&b)
	if !strings.Contains(b.String(), "DIFFER") {
		t.Error("a diverged report does not say so")
	}
	if err := rep.WriteTable(failWriter{}); err == nil {
		t.Error("a write error was lost")
	}
}

func TestOneStrategy(t *testing.T) {
	var b bytes.Buffer
	rep := &Report{Repeat: 1, ChecksumsEqual: true, Runs: []Result{{Strategy: pool.Dense, Rank: 1}}}
	rep.verdict()
	rep.WriteTable(&b)
	if !strings.Contains(b.String(), "poolroids stress: 1 strategy,") {
		t.Errorf("table of one strategy:\n%s", b.String())
	}
}

func TestWrap(t *testing.T) {
	var b bytes.Buffer
	wrap(&b, "verdict: use dense; freelist is within noise of it.", 20)
	if want := "verdict: use dense;\nfreelist is within\nnoise of it.\n"; b.String() != want {
		t.Errorf("wrap:\n%q\nwant\n%q", b.String(), want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestChart(t *testing.T) {
	rep := &Report{Runs: []Result{
		{Strategy: "fast", PoolNs: 1000},
		{Strategy: "almost half", PoolNs: 1875}, // 15/32 of the slowest: 15 eighths of 4 cells
		{Strategy: "slowest", PoolNs: 4000},
	}}
	var b bytes.Buffer
	rep.chart(&b, 4)
	want := "fast        █ 1.00µs\n" +
		"almost half █▉ 1.88µs\n" +
		"slowest     ████ 4.00µs\n"
	if b.String() != want {
		t.Errorf("chart:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want string
	}{
		{0, "0ns"},
		{1.234, "1.23ns"},
		{12.34, "12.3ns"},
		{123.4, "123ns"},
		{1234, "1.23µs"},
		{98765, "98.8µs"},
		{1.5e6, "1.50ms"},
		{2e9, "2.00s"},
	} {
		if got := ns(c.ns); got != c.want {
			t.Errorf("ns(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}

func TestChecksumText(t *testing.T) {
	c := Checksum(0x00ab_cdef_0123_4567)
	b, _ := c.MarshalText()
	if string(b) != "00abcdef01234567" {
		t.Errorf("MarshalText = %s", b)
	}
	var back Checksum
	if err := back.UnmarshalText(b); err != nil || back != c {
		t.Errorf("UnmarshalText = %x, %v", back, err)
	}
	for _, bad := range []string{"", "abc", "00abcdef0123456z", "00abcdef012345678"} {
		if err := back.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
}

// TestBar checks the drawing, that it redraws only on a new percentage,
// and that Update allocates nothing, so it can run during measured steps.
func TestBar(t *testing.T) {
	var b bytes.Buffer
	bar := NewBar(&b, 4)
	bar.Update(1, 2)
	if got, want := b.String(), "\rstress [██░░] 50% "; got != want {
		t.Errorf("bar %q, want %q", got, want)
	}
	bar.Update(501, 1000)
	if b.Len() != len("\rstress [██░░] 50% ") {
		t.Error("redrew an unchanged percentage")
	}
	bar.Clear()
	if !strings.HasSuffix(b.String(), "\r\x1b[2K") {
		t.Errorf("Clear wrote %q", b.String())
	}
	bar = NewBar(io.Discard, 40)
	n := 0
	if a := testing.AllocsPerRun(200, func() { n++; bar.Update(n%100, 100) }); a != 0 {
		t.Errorf("Update: %v allocations", a)
	}
}
