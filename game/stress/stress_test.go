package stress

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"poolroids/game"
	"poolroids/pool"
)

// short is a session small enough for every test run (race detector
// included) yet long enough for the pools of the pressure set to fill.
func short() Config {
	return Config{Seed: 1, Steps: 150, Warmup: 90, CheckEvery: 30}
}

func run(t *testing.T, cfg Config) *Report {
	t.Helper()
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func pooled(s pool.Strategy) bool { return s != pool.Alloc && s != pool.SyncPool }

// TestReportConsistent checks the numbers of a session of every strategy
// against each other: the counters add up, the runs did the same work,
// pooled strategies allocate nothing and alloc does, and the ranking holds.
func TestReportConsistent(t *testing.T) {
	rep := run(t, short())
	if len(rep.Runs) != len(pool.Strategies()) {
		t.Fatalf("%d runs, want one per strategy", len(rep.Runs))
	}
	if !rep.ChecksumsEqual {
		t.Error("ChecksumsEqual is false without an error")
	}
	ref := rep.Runs[0]
	for i, r := range rep.Runs {
		t.Run(string(r.Strategy), func(t *testing.T) {
			for _, c := range []struct {
				name                     string
				acquires, releases, live uint64
			}{
				{"total", r.Acquires, r.Releases, uint64(r.LiveEnd)},
				{"bullets", r.Bullets.Acquires, r.Bullets.Releases, uint64(r.Bullets.LiveEnd)},
				{"debris", r.Debris.Acquires, r.Debris.Releases, uint64(r.Debris.LiveEnd)},
			} {
				if c.acquires-c.releases != c.live {
					t.Errorf("%s: acquires %d − releases %d != live at end %d", c.name, c.acquires, c.releases, c.live)
				}
			}
			if r.Checksum != ref.Checksum || r.Acquires != ref.Acquires || r.Misses != ref.Misses || r.HighWater != ref.HighWater {
				t.Errorf("did other work than %s: %+v", ref.Strategy, r)
			}
			if r.Bullets.HighWater > r.Bullets.Capacity || r.Debris.HighWater > r.Debris.Capacity {
				t.Errorf("high-water over capacity: bullets %+v, debris %+v", r.Bullets, r.Debris)
			}
			if r.Acquires == 0 || r.Releases == 0 || r.AcquireNs <= 0 || r.StepNsMedian <= 0 || r.StepNsP99 < r.StepNsMedian || r.StepNsMean <= 0 {
				t.Errorf("implausible figures: %+v", r)
			}
			switch {
			case pooled(r.Strategy) && (r.AllocsPerStep != 0 || r.BytesPerStep != 0):
				t.Errorf("%v allocations, %v bytes per step; want none (GCs %d)", r.AllocsPerStep, r.BytesPerStep, r.GCCycles)
			case r.Strategy == pool.Alloc && r.AllocsPerStep == 0:
				t.Error("alloc allocated nothing")
			}
			if r.PoolNs <= 0 || r.PoolNsLow > r.PoolNs || r.PoolNsHigh < r.PoolNs || len(r.PoolNsRuns) != 1 {
				t.Errorf("pool time %v, interval %v..%v, runs %v", r.PoolNs, r.PoolNsLow, r.PoolNsHigh, r.PoolNsRuns)
			}
			if r.Ratio < 1 || r.PoolRatio < 1 || (i == 0 && r.PoolRatio != 1) {
				t.Errorf("ratios %v, %v", r.Ratio, r.PoolRatio)
			}
		})
	}
	checkRanks(t, rep)
	if rep.Use != rep.Runs[0].Strategy || !strings.Contains(rep.Verdict, "use "+string(rep.Use)) {
		t.Errorf("use %s, verdict %q; want the first run's strategy", rep.Use, rep.Verdict)
	}
	if rep.BulletOccupancy < 50 {
		t.Errorf("the pressure set keeps the bullet pool only %.0f%% full", rep.BulletOccupancy)
	}
}

// TestMissesBelowDemand forces both capacities below what the game asks:
// every strategy misses, fills its pools to the brim, and still plays the
// same game as the others.
func TestMissesBelowDemand(t *testing.T) {
	cfg := short()
	cfg.Bullets, cfg.Debris = 12, 16 // 12: the pressure set's biggest volley
	cfg.Strategies = []pool.Strategy{pool.FreeList, pool.Scan, pool.Dense}
	rep := run(t, cfg)
	for _, r := range rep.Runs {
		for name, p := range map[string]PoolResult{"bullets": r.Bullets, "debris": r.Debris} {
			if p.Misses == 0 || p.HighWater != p.Capacity {
				t.Errorf("%s %s: %d misses, high-water %d of %d; want misses and a full pool", r.Strategy, name, p.Misses, p.HighWater, p.Capacity)
			}
		}
		if r.Misses != r.Bullets.Misses+r.Debris.Misses {
			t.Errorf("%s: misses %d are not the pools' sum", r.Strategy, r.Misses)
		}
	}
}

// TestDivergenceDetected plays two sessions that differ in their seed, as
// a nondeterministic strategy would make them differ, and checks that
// Verify names the run that played another game and where.
func TestDivergenceDetected(t *testing.T) {
	cfg := short()
	cfg.Strategies = []pool.Strategy{pool.FreeList, pool.Bitset}
	a := run(t, cfg)
	cfg.Seed = 2
	cfg.Strategies = []pool.Strategy{pool.Dense}
	b := run(t, cfg)

	if err := Verify(a.Runs); err != nil {
		t.Fatalf("one session: %v", err)
	}
	err := Verify(append(a.Runs, b.Runs...))
	var d *DivergenceError
	if !errors.As(err, &d) {
		t.Fatalf("Verify = %v, want a *DivergenceError", err)
	}
	if d.Reference != a.Runs[0].name() || len(d.Runs) != 1 || d.Runs[0].Run != "dense" {
		t.Fatalf("reference %q, runs %+v; want dense diverging from %s", d.Reference, d.Runs, a.Runs[0].Strategy)
	}
	// The seeds differ from the start, so the first checksum differs.
	if d.Runs[0].Step != cfg.CheckEvery || d.Runs[0].Got == d.Runs[0].Want {
		t.Errorf("divergence %+v, want at step %d", d.Runs[0], cfg.CheckEvery)
	}
	for _, want := range []string{"dense", string(a.Runs[0].Strategy), "step 30"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

func TestDiverge(t *testing.T) {
	ref := []checkpoint{{10, 1}, {20, 2}, {25, 3}}
	for _, c := range []struct {
		name string
		run  []checkpoint
		ok   bool
		step int
	}{
		{"same", []checkpoint{{10, 1}, {20, 2}, {25, 3}}, true, 0},
		{"middle", []checkpoint{{10, 1}, {20, 9}, {25, 3}}, false, 20},
		{"end only", []checkpoint{{10, 1}, {20, 2}, {25, 9}}, false, 25},
		{"shorter", []checkpoint{{10, 1}, {20, 2}}, false, -1},
		{"other steps", []checkpoint{{10, 1}, {21, 2}, {25, 3}}, false, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, ok := diverge(ref, c.run)
			if ok != c.ok || d.Step != c.step {
				t.Errorf("diverge = %+v, %v; want step %d, %v", d, ok, c.step, c.ok)
			}
		})
	}
}

// TestRepeatInterleaves runs every strategy three times: the report keeps
// one result per strategy, the counters of one run (all runs did the same
// work), and the progress reaches the whole session.
func TestRepeatInterleaves(t *testing.T) {
	cfg := short()
	cfg.Steps, cfg.Warmup, cfg.Repeat = 60, 0, 3
	cfg.Strategies = []pool.Strategy{pool.Queue, pool.Offsets}
	var last, calls int
	cfg.Progress = func(done, total int) {
		calls++
		if done < last || total != 3*2*60 {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		last = done
	}
	rep := run(t, cfg)
	if len(rep.Runs) != 2 || rep.Repeat != 3 {
		t.Fatalf("%d results, repeat %d", len(rep.Runs), rep.Repeat)
	}
	for _, r := range rep.Runs {
		if len(r.StepNsRuns) != 3 || !slices.Contains(r.StepNsRuns, r.StepNsMedian) || r.StepNsBest != slices.Min(r.StepNsRuns) {
			t.Errorf("%s: median %v of the runs %v", r.Strategy, r.StepNsMedian, r.StepNsRuns)
		}
	}
	if calls != 12 || last != 3*2*60 {
		t.Errorf("%d progress calls up to %d, want two per run of 60 steps, up to the whole session", calls, last)
	}
	one := run(t, Config{Seed: 1, Steps: 60, Strategies: []pool.Strategy{pool.Queue}})
	if got, want := rep.Runs[0].Acquires, one.Runs[0].Acquires; got != want {
		t.Errorf("acquires %d over three runs, want %d as in one", got, want)
	}
}

func TestMedian(t *testing.T) {
	runs := func(v ...float64) []Result {
		r := make([]Result, len(v))
		for i := range v {
			r[i] = Result{StepNsMedian: v[i], StepNsMean: v[i], GCPauseNs: uint64(v[i])}
		}
		return r
	}
	for _, c := range []struct {
		in   []Result
		want float64
	}{
		{runs(5), 5},
		{runs(9, 1, 5), 5},
		{runs(9, 1, 5, 7), 6},
	} {
		m := median(c.in)
		if m.StepNsMedian != c.want || m.StepNsMean != c.want || m.GCPauseNs != uint64(c.want) || len(m.StepNsRuns) != len(c.in) {
			t.Errorf("median of %v = %v, mean %v, %v, runs %v; want %v", c.in, m.StepNsMedian, m.StepNsMean, m.GCPauseNs, m.StepNsRuns, c.want)
		}
		if got, want := m.Spread(), (slices.Max(m.StepNsRuns)-slices.Min(m.StepNsRuns))/c.want; got != want {
			t.Errorf("spread %v, want %v", got, want)
		}
	}
}

// TestReplayFollowsRun checks that the calibrated phase replays the game
// it stands for: the same acquires and releases, the same occupancy at
// every measured step, and, for every strategy, about the same searching:
// the slots examined per acquire in the replay are those of the game.
func TestReplayFollowsRun(t *testing.T) {
	cfg := short()
	cfg.Warmup = 0 // the game's counters then cover the replayed steps only
	cfg, err := cfg.normalize()
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWorld(cfg, pool.Scan)
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRunner(cfg, w.Bullets().Cap(), w.Debris().Cap())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pool.Strategies() {
		res, err := r.run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			got  PoolResult
			log  *poolLog
		}{
			{"bullets", res.Bullets, &r.bullets},
			{"debris", res.Debris, &r.debris},
		} {
			var live uint64
			for _, o := range c.log.steps {
				live += uint64(o.live)
			}
			rp := c.got.replay
			if rp.acquires != c.got.Acquires || rp.releases != c.got.Releases || rp.visited != live {
				t.Errorf("%s %s: replayed %d acquires, %d releases, %d items iterated; the game had %d, %d, %d",
					s, c.name, rp.acquires, rp.releases, rp.visited, c.got.Acquires, c.got.Releases, live)
			}
			game := float64(c.got.Probes) / float64(c.got.Acquires)
			replayed := float64(rp.acquireProbes+rp.releaseProbes) / float64(rp.acquires)
			if replayed < 0.85*game || replayed > 1.15*game {
				t.Errorf("%s %s: the replay examines %.1f slots per acquire, the game %.1f", s, c.name, replayed, game)
			}
		}
	}
}

func TestConfigRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no strategies", Config{Strategies: []pool.Strategy{}}, "no strategy"},
		{"unknown strategy", Config{Strategies: []pool.Strategy{"heap"}}, "unknown strategy"},
		{"twice", Config{Strategies: []pool.Strategy{pool.Dense, pool.Dense}}, "twice"},
		{"steps", Config{Steps: -1}, "steps"},
		{"too many steps", Config{Steps: MaxSteps + 1}, "steps"},
		{"warmup", Config{Warmup: -1}, "warm-up"},
		{"repeat", Config{Repeat: MaxRepeat + 1}, "repeat"},
		{"check every", Config{CheckEvery: -5}, "checksum"},
		{"capacity", Config{Bullets: -1}, "capacity"},
		{"less than a volley", Config{Bullets: 11}, `bullet capacity 11 is too small for one volley of level "storm" of set "pressure" (bullets_per_shot = 12): want at least 12`},
		{"huge capacity", Config{Debris: pool.MaxCapacity + 1}, "capacity"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Check()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check() = %v, want an error about %q", err, c.want)
			}
			if _, err := Run(context.Background(), c.cfg); err == nil {
				t.Error("Run accepted what Check refused")
			}
		})
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, short()); !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
}

func TestStepsFor(t *testing.T) {
	cfg := Config{Strategies: []pool.Strategy{pool.Dense}}
	n, err := StepsFor(context.Background(), cfg, time.Nanosecond)
	if err != nil || n != game.TPS {
		t.Errorf("StepsFor(1ns) = %d, %v; want the minimum %d", n, err, game.TPS)
	}
	n, err = StepsFor(context.Background(), cfg, time.Hour)
	if err != nil || n <= DefaultSteps {
		t.Errorf("StepsFor(1h) = %d, %v; want more than %d", n, err, DefaultSteps)
	}
}

// TestStepFigures checks the figures made of one run's sorted step times: a
// single slow step moves the mean and the p99, not the median.
func TestStepFigures(t *testing.T) {
	for _, c := range []struct {
		ns                []int64
		median, p99, mean float64
	}{
		{[]int64{7}, 7, 7, 7},
		{[]int64{1, 2, 3, 10}, 2, 10, 4},
		{[]int64{10, 10, 10, 10, 10, 10, 10, 10, 10, 910}, 10, 910, 100},
	} {
		if m, p, a := percentile(c.ns, 50), percentile(c.ns, 99), mean(c.ns); m != c.median || p != c.p99 || a != c.mean {
			t.Errorf("%v: median %v, p99 %v, mean %v; want %v, %v, %v", c.ns, m, p, a, c.median, c.p99, c.mean)
		}
	}
}
