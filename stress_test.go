package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"poolroids/pool"
)

// stressRun runs `poolroids stress` with args in this process and returns
// its exit status, stdout and stderr.
func stressRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runMain(t, stressMain, args...)
}

func TestStressBadFlags(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"unknown flag", []string{"-frobnicate"}, "not defined"},
		{"argument", []string{"now"}, `unexpected argument "now"`},
		{"steps zero", []string{"-steps", "0"}, "-steps 0"},
		{"steps not a number", []string{"-steps", "many"}, "invalid value"},
		{"steps too many", []string{"-steps", "99999999"}, "-steps 99999999"},
		{"warmup", []string{"-warmup", "-1"}, "-warmup -1"},
		{"repeat", []string{"-repeat", "0"}, "-repeat 0"},
		{"bullets", []string{"-bullets", "-1"}, "-bullets -1"},
		{"debris", []string{"-debris", "-3"}, "-debris -3"},
		{"strategy", []string{"-strategies", "dense,heap"}, `unknown strategy "heap"`},
		{"no strategy", []string{"-strategies", ""}, "unknown strategy"},
		{"strategy twice", []string{"-strategies", "dense,dense"}, "twice"},
		{"json and csv", []string{"-json", "-csv"}, "one of them"},
		{"steps and duration", []string{"-steps", "10", "-duration", "1s"}, "one of them"},
		{"duration", []string{"-duration", "0s"}, "-duration 0s"},
		{"levels", []string{"-levels", filepath.Join(t.TempDir(), "none")}, "-levels"},
		{"less than a volley", []string{"-bullets", "1"}, `poolroids stress: bullet capacity 1 is too small for one volley of level "storm"`},
		{"wide json", []string{"-wide", "-json"}, "-wide is for the table"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := stressRun(t, c.args...)
			if code != 2 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "usage") || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q with a usage line on stderr", code, out, errs, c.want)
			}
			if strings.Contains(errs, "stress: stress:") {
				t.Errorf("doubled prefix: %q", errs)
			}
		})
	}
	if code, _, errs := stressRun(t, "-h"); code != 0 || !strings.Contains(errs, "-strategies") {
		t.Errorf("-h: exit %d, stderr %q", code, errs)
	}
}

// stressJSON is the part of the JSON report that scripts depend on.
type stressJSON struct {
	ChecksumsEqual bool     `json:"checksums_equal"`
	Use            string   `json:"use"`
	WithinNoise    []string `json:"within_noise"`
	Avoid          []string `json:"avoid"`
	Verdict        string   `json:"verdict"`
	TieRule        string   `json:"tie_rule"`
	Runs           []struct {
		Strategy         string  `json:"strategy"`
		Rank             int     `json:"rank"`
		PoolNs           float64 `json:"pool_ns"`
		Checksum         string  `json:"checksum"`
		Steps            int     `json:"steps"`
		StepNsMedian     float64 `json:"step_ns_median"`
		StepNsP99        float64 `json:"step_ns_p99"`
		AcquireNs        float64 `json:"acquire_ns"`
		ReleaseNs        float64 `json:"release_ns"`
		ProbesPerAcquire float64 `json:"probes_per_acquire"`
		Acquires         uint64  `json:"acquires"`
		Releases         uint64  `json:"releases"`
		Misses           uint64  `json:"misses"`
		Rejects          uint64  `json:"rejects"`
		HighWater        int     `json:"high_water"`
		LiveEnd          int     `json:"live_end"`
		AllocsPerStep    float64 `json:"allocs_per_step"`
		BytesPerStep     float64 `json:"bytes_per_step"`
		GCCycles         uint64  `json:"gc_cycles"`
		GCPauseNs        uint64  `json:"gc_pause_ns"`
	} `json:"runs"`
}

// requiredKeys are the keys every run of the JSON report must carry.
var requiredKeys = []string{"strategy", "rank", "pool_ns", "pool_ns_low", "pool_ns_high", "pool_ratio",
	"checksum", "steps", "step_ns_median", "step_ns_p99", "step_ns_mean",
	"acquire_ns", "release_ns", "probes_per_acquire", "acquires", "releases", "misses", "rejects",
	"high_water", "live_end", "allocs_per_step", "bytes_per_step", "gc_cycles", "gc_pause_ns"}

// TestStressJSON is the stress check of CI: a short session of every
// strategy with --json, whose output must parse and hold the invariants of
// a trustworthy report. A second session forces the capacities below
// demand and must count misses.
func TestStressJSON(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		runs   int
		misses bool
	}{
		{"all strategies", []string{"-steps", "300", "-warmup", "60", "-repeat", "1", "-json"}, len(pool.Strategies()), false},
		{"capacity below demand", []string{"-steps", "120", "-warmup", "0", "-repeat", "1", "-bullets", "12", "-debris", "16", "-strategies", "freelist,alloc,scan", "-json"}, 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := stressRun(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, errs)
			}
			var keys struct{ Runs []map[string]json.RawMessage }
			if err := json.Unmarshal([]byte(out), &keys); err != nil {
				t.Fatalf("output does not parse: %v\n%s", err, out)
			}
			for _, r := range keys.Runs {
				for _, k := range requiredKeys {
					if _, ok := r[k]; !ok {
						t.Errorf("run %s lacks key %q", r["strategy"], k)
					}
				}
			}
			var rep stressJSON
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Runs) != c.runs || !rep.ChecksumsEqual {
				t.Fatalf("%d runs, checksums equal %v; want %d runs, equal", len(rep.Runs), rep.ChecksumsEqual, c.runs)
			}
			if rep.Use != rep.Runs[0].Strategy || !strings.Contains(rep.Verdict, "use "+rep.Use) || rep.TieRule == "" {
				t.Errorf("use %q, verdict %q, tie rule %q; want the first run's strategy named", rep.Use, rep.Verdict, rep.TieRule)
			}
			for i, r := range rep.Runs {
				if r.PoolNs <= 0 || r.Rank < 1 || (i > 0 && r.Rank < rep.Runs[i-1].Rank) || (r.Rank == 1) != (i == 0 || slices.Contains(rep.WithinNoise, r.Strategy)) {
					t.Errorf("%s: rank %d, pool time %v; within noise of the first: %v", r.Strategy, r.Rank, r.PoolNs, rep.WithinNoise)
				}
			}
			for _, r := range rep.Runs {
				if r.Acquires-r.Releases != uint64(r.LiveEnd) {
					t.Errorf("%s: acquires %d − releases %d != live_end %d", r.Strategy, r.Acquires, r.Releases, r.LiveEnd)
				}
				if r.Checksum != rep.Runs[0].Checksum || r.Acquires != rep.Runs[0].Acquires {
					t.Errorf("%s: checksum %s, %d acquires; %s had %s, %d", r.Strategy, r.Checksum, r.Acquires, rep.Runs[0].Strategy, rep.Runs[0].Checksum, rep.Runs[0].Acquires)
				}
				switch r.Strategy {
				case string(pool.Alloc):
					if r.AllocsPerStep <= 0 {
						t.Errorf("alloc: %v allocations per step, want some", r.AllocsPerStep)
					}
				case string(pool.SyncPool):
				default:
					if r.AllocsPerStep != 0 {
						t.Errorf("%s: %v allocations per step, want none", r.Strategy, r.AllocsPerStep)
					}
				}
				if c.misses && r.Misses == 0 {
					t.Errorf("%s: no misses with capacities below demand", r.Strategy)
				}
			}
		})
	}
}

// TestStressOutputs checks the table, the CSV and the profiles on a tiny
// session.
func TestStressOutputs(t *testing.T) {
	tiny := []string{"-steps", "60", "-warmup", "0", "-repeat", "1", "-strategies", "freelist,dense"}
	code, out, errs := stressRun(t, tiny...)
	if code != 0 {
		t.Fatalf("table: exit %d: %s", code, errs)
	}
	for _, want := range []string{"freelist", "dense", "pool/step", "probes/acquire", "pool time per step", "█", "checksums: all runs equal", "verdict: "} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "step median") {
		t.Errorf("the default table has the wide columns:\n%s", out)
	}
	if code, out, _ := stressRun(t, append(tiny, "-wide")...); code != 0 || !strings.Contains(out, "step median") || !strings.Contains(out, "high-water") {
		t.Errorf("-wide: exit %d, no step median or high-water:\n%s", code, out)
	}
	if errs != "" {
		t.Errorf("stderr is not a terminal, yet it got %q", errs)
	}

	code, out, errs = stressRun(t, append(tiny, "-csv")...)
	if code != 0 {
		t.Fatalf("csv: exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("csv: %d rows, %v:\n%s", len(rows), err, out)
	}
	for _, k := range requiredKeys {
		if !strings.Contains(","+strings.Join(rows[0], ",")+",", ","+k+",") {
			t.Errorf("csv header lacks %q", k)
		}
	}

	dir := t.TempDir()
	files := []string{filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof"), filepath.Join(dir, "trace.out")}
	code, _, errs = stressRun(t, append(tiny, "-cpuprofile", files[0], "-memprofile", files[1], "-trace", files[2])...)
	if code != 0 {
		t.Fatalf("profiles: exit %d: %s", code, errs)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v, %v", f, st, err)
		}
	}
}

// TestStressDurationAndInterrupt: -duration picks the steps (here the
// minimum, one second of game), and a cancelled context ends the session
// with status 130.
func TestStressDurationAndInterrupt(t *testing.T) {
	code, out, errs := stressRun(t, "-duration", "1ms", "-warmup", "0", "-repeat", "1", "-strategies", "dense", "-json")
	var rep stressJSON
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Runs) != 1 || rep.Runs[0].Steps != 60 {
		t.Errorf("-duration 1ms: exit %d, %+v, stderr %q; want one run of 60 steps", code, rep, errs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	if code := stressMain(ctx, []string{"-strategies", "dense"}, &o, &e); code != 130 || !strings.Contains(e.String(), "interrupted") || o.Len() != 0 {
		t.Errorf("interrupted: exit %d, stdout %q, stderr %q; want 130", code, o.String(), e.String())
	}
}

// TestStressReplay profiles a recorded arena game: every strategy plays the
// recording's steps and agrees with its checksums, and a file that is not a
// replay is a bad flag.
func TestStressReplay(t *testing.T) {
	file := filepath.Join(t.TempDir(), "arena.prpl")
	var out, errb bytes.Buffer
	if code := recordMain(context.Background(), []string{"--stress", "--ships", "3", "--steps", "400", file}, &out, &errb); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errb.String())
	}
	code, stdout, stderr := stressRun(t, "-replay", file, "-warmup", "60", "-repeat", "1", "-strategies", "freelist,dense,scan", "-json")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var rep stressJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 3 || !rep.ChecksumsEqual {
		t.Fatalf("%d runs, checksums equal %v; want 3, equal", len(rep.Runs), rep.ChecksumsEqual)
	}
	for _, r := range rep.Runs {
		if r.Steps != 340 {
			t.Errorf("%s: %d measured steps, want the recording's 400 less 60 of warm-up", r.Strategy, r.Steps)
		}
	}
	notReplay := filepath.Join(t.TempDir(), "x.prpl")
	if err := os.WriteFile(notReplay, []byte("not a replay"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := stressRun(t, "-replay", notReplay); code != 2 || !strings.Contains(stderr, "-replay "+notReplay+": byte 0") {
		t.Errorf("a file that is not a replay: exit %d, stderr %q; want 2 naming the file and the byte", code, stderr)
	}
}
