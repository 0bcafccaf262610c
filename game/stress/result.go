package stress

import (
	"fmt"
	"slices"
	"strconv"

	"poolroids/pool"
)

// Checksum is a world checksum. It is written as 16 hex digits, a JSON
// string, so that no JSON reader rounds it to a float64.
type Checksum uint64

func (c Checksum) String() string { return fmt.Sprintf("%016x", uint64(c)) }

// MarshalText writes the 16 hex digits.
func (c Checksum) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (c *Checksum) UnmarshalText(b []byte) error {
	v, err := strconv.ParseUint(string(b), 16, 64)
	if err != nil || len(b) != 16 {
		return fmt.Errorf("stress: checksum %q: want 16 hex digits", b)
	}
	*c = Checksum(v)
	return nil
}

// Result is one strategy's measurements: one run's, or the median of its
// runs when the session repeats. Pool counters are totals over the bullet
// and debris pools for the whole run, warm-up included; times, allocations
// and GC cover the measured steps only. Bullets and Debris hold each pool's
// own figures.
type Result struct {
	Strategy pool.Strategy `json:"strategy"`
	Checksum Checksum      `json:"checksum"` // the world's at the end of the run
	Steps    int           `json:"steps"`    // measured steps
	Warmup   int           `json:"warmup"`   // untimed steps before them

	// Rank is the strategy's place by PoolNs, 1 for the fastest; strategies
	// within noise of each other share a rank (see [Report.TieRule]).
	Rank int `json:"rank"`
	// PoolNs is the time the pools take per measured step: its acquires,
	// its releases and one All loop over each pool, from the calibrated
	// replay (see the package doc). It is what the strategies differ in,
	// and what the report ranks by. PoolNsRuns holds each repetition's, in
	// session order; PoolNsLow and PoolNsHigh bound the median's noise.
	PoolNs     float64   `json:"pool_ns"`
	PoolNsRuns []float64 `json:"pool_ns_runs"`
	PoolNsLow  float64   `json:"pool_ns_low"`
	PoolNsHigh float64   `json:"pool_ns_high"`
	PoolRatio  float64   `json:"pool_ratio"` // PoolNs over the least PoolNs

	StepNsMedian float64 `json:"step_ns_median"` // World.Step, per step
	StepNsP99    float64 `json:"step_ns_p99"`
	Ratio        float64 `json:"ratio"` // StepNsMedian over the fastest strategy's
	// StepNsMean is the mean step time: unlike the median, it carries the
	// rare slow steps of a strategy whose searches cost in bursts.
	StepNsMean float64 `json:"step_ns_mean"`
	// StepNsRuns is each repetition's StepNsMedian, in session order: how
	// far apart they are tells how noisy the machine was.
	StepNsRuns []float64 `json:"step_ns_runs"`
	// StepNsBest is the least of StepNsRuns: on a busy machine, where other
	// work only ever adds time, the closest to the uncontended cost.
	StepNsBest float64 `json:"step_ns_best"`

	AcquireNs float64 `json:"acquire_ns"` // per successful Acquire, replayed (see the package doc)
	ReleaseNs float64 `json:"release_ns"` // per successful Release, replayed
	IterateNs float64 `json:"iterate_ns"` // one All loop over both pools, per step, replayed

	// ProbesPerAcquire is Stats.Probes over Stats.Acquires: the slots
	// examined by the acquire and the release searches (the pool counts
	// both) per successful acquire. AcquireProbes and ReleaseProbes split
	// them, per operation, as the replay counted them.
	ProbesPerAcquire float64 `json:"probes_per_acquire"`
	AcquireProbes    float64 `json:"acquire_probes"`
	ReleaseProbes    float64 `json:"release_probes"`

	Acquires  uint64 `json:"acquires"`
	Releases  uint64 `json:"releases"` // Clear on a restart counts too
	Misses    uint64 `json:"misses"`
	Rejects   uint64 `json:"rejects"`
	HighWater int    `json:"high_water"` // the sum of each pool's high-water mark
	LiveEnd   int    `json:"live_end"`
	HeapItems uint64 `json:"heap_items"`     // items the pools took from the heap (pool.Stats.Allocs)
	Overhead  int    `json:"overhead_bytes"` // the pools' bookkeeping beyond the items

	AllocsPerStep float64 `json:"allocs_per_step"` // heap allocations of the process
	BytesPerStep  float64 `json:"bytes_per_step"`
	GCCycles      uint64  `json:"gc_cycles"`
	GCPauseNs     uint64  `json:"gc_pause_ns"` // stop-the-world pauses, total

	Bullets PoolResult `json:"bullets"`
	Debris  PoolResult `json:"debris"`

	round int          // 1-based repetition, to name a run
	trail []checkpoint // checksums along the run
}

// PoolResult is one pool's share of a [Result].
type PoolResult struct {
	Capacity  int    `json:"capacity"`
	Acquires  uint64 `json:"acquires"`
	Releases  uint64 `json:"releases"`
	Misses    uint64 `json:"misses"`
	Rejects   uint64 `json:"rejects"`
	Probes    uint64 `json:"probes"`
	HighWater int    `json:"high_water"`
	LiveEnd   int    `json:"live_end"`
	HeapItems uint64 `json:"heap_items"`
	Overhead  int    `json:"overhead_bytes"`

	AcquireNs     float64 `json:"acquire_ns"`
	ReleaseNs     float64 `json:"release_ns"`
	IterateNs     float64 `json:"iterate_ns"`
	AcquireProbes float64 `json:"acquire_probes"`
	ReleaseProbes float64 `json:"release_probes"`

	replay replayed
}

// checkpoint is the world's checksum after a given step of a run.
type checkpoint struct {
	step int
	sum  Checksum
}

func poolResult(s pool.Stats) PoolResult {
	return PoolResult{
		Capacity:  s.Capacity,
		Acquires:  s.Acquires,
		Releases:  s.Releases,
		Misses:    s.Misses,
		Rejects:   s.Rejects,
		Probes:    s.Probes,
		HighWater: s.HighWater,
		LiveEnd:   s.Active,
		HeapItems: s.Allocs,
		Overhead:  s.Overhead,
	}
}

// setReplay fills in the per-operation figures of a replay.
func (p *PoolResult) setReplay(r replayed) {
	p.replay = r
	p.AcquireNs = per(r.acquireNs, r.acquires)
	p.ReleaseNs = per(r.releaseNs, r.releases)
	p.AcquireProbes = per(float64(r.acquireProbes), r.acquires)
	p.ReleaseProbes = per(float64(r.releaseProbes), r.releases)
}

// total fills in the totals of r from its two pools and their replays
// over steps measured steps.
func (r *Result) total() {
	b, d := &r.Bullets, &r.Debris
	r.Acquires = b.Acquires + d.Acquires
	r.Releases = b.Releases + d.Releases
	r.Misses = b.Misses + d.Misses
	r.Rejects = b.Rejects + d.Rejects
	r.HighWater = b.HighWater + d.HighWater
	r.LiveEnd = b.LiveEnd + d.LiveEnd
	r.HeapItems = b.HeapItems + d.HeapItems
	r.Overhead = b.Overhead + d.Overhead
	r.ProbesPerAcquire = per(float64(b.Probes+d.Probes), r.Acquires)

	rb, rd := b.replay, d.replay
	acq, rel := rb.acquires+rd.acquires, rb.releases+rd.releases
	r.AcquireNs = per(rb.acquireNs+rd.acquireNs, acq)
	r.ReleaseNs = per(rb.releaseNs+rd.releaseNs, rel)
	r.AcquireProbes = per(float64(rb.acquireProbes+rd.acquireProbes), acq)
	r.ReleaseProbes = per(float64(rb.releaseProbes+rd.releaseProbes), rel)
	b.IterateNs = per(rb.iterateNs, uint64(r.Steps))
	d.IterateNs = per(rd.iterateNs, uint64(r.Steps))
	r.IterateNs = b.IterateNs + d.IterateNs
	r.PoolNs = per(rb.acquireNs+rb.releaseNs+rb.iterateNs+rd.acquireNs+rd.releaseNs+rd.iterateNs, uint64(r.Steps))
}

// per divides, and clamps a total made negative by the subtracted clock
// cost of batches the clock cannot resolve.
func per(total float64, n uint64) float64 {
	if n == 0 || total < 0 {
		return 0
	}
	return total / float64(n)
}

// median returns the median of the runs of one strategy: every measured
// figure is the median of its values (the mean of the middle two for an
// even count); the counters and the checksums are the first run's, as
// Verify checks that all runs played the same game.
func median(runs []Result) Result {
	m := runs[0]
	f := func(get func(*Result) float64) float64 {
		v := make([]float64, len(runs))
		for i := range runs {
			v[i] = get(&runs[i])
		}
		slices.Sort(v)
		k := len(v) / 2
		if len(v)%2 == 0 {
			return (v[k-1] + v[k]) / 2
		}
		return v[k]
	}
	m.StepNsRuns = make([]float64, len(runs))
	for i := range runs {
		m.StepNsRuns[i] = runs[i].StepNsMedian
	}
	m.StepNsBest = slices.Min(m.StepNsRuns)
	m.PoolNsRuns = make([]float64, len(runs))
	for i := range runs {
		m.PoolNsRuns[i] = runs[i].PoolNs
	}
	m.PoolNs = f(func(r *Result) float64 { return r.PoolNs })
	m.PoolNsLow, m.PoolNsHigh = noise(m.PoolNsRuns)
	m.StepNsMedian = f(func(r *Result) float64 { return r.StepNsMedian })
	m.StepNsP99 = f(func(r *Result) float64 { return r.StepNsP99 })
	m.StepNsMean = f(func(r *Result) float64 { return r.StepNsMean })
	m.AcquireNs = f(func(r *Result) float64 { return r.AcquireNs })
	m.ReleaseNs = f(func(r *Result) float64 { return r.ReleaseNs })
	m.IterateNs = f(func(r *Result) float64 { return r.IterateNs })
	m.AllocsPerStep = f(func(r *Result) float64 { return r.AllocsPerStep })
	m.BytesPerStep = f(func(r *Result) float64 { return r.BytesPerStep })
	m.GCCycles = uint64(f(func(r *Result) float64 { return float64(r.GCCycles) }))
	m.GCPauseNs = uint64(f(func(r *Result) float64 { return float64(r.GCPauseNs) }))
	for _, p := range []struct {
		dst *PoolResult
		get func(*Result) *PoolResult
	}{
		{&m.Bullets, func(r *Result) *PoolResult { return &r.Bullets }},
		{&m.Debris, func(r *Result) *PoolResult { return &r.Debris }},
	} {
		p.dst.AcquireNs = f(func(r *Result) float64 { return p.get(r).AcquireNs })
		p.dst.ReleaseNs = f(func(r *Result) float64 { return p.get(r).ReleaseNs })
		p.dst.IterateNs = f(func(r *Result) float64 { return p.get(r).IterateNs })
	}
	return m
}

// Report is the outcome of a session: its settings, one [Result] per
// strategy, fastest first by pool time per step, and the verdict.
type Report struct {
	Seed       uint64 `json:"seed"`
	LevelSet   string `json:"level_set"`
	Steps      int    `json:"steps"`
	Warmup     int    `json:"warmup"`
	Repeat     int    `json:"repeat"`
	CheckEvery int    `json:"check_every"`
	BulletCap  int    `json:"bullet_capacity"`
	DebrisCap  int    `json:"debris_capacity"`
	// Mean occupancy of each pool over the measured steps, in percent.
	BulletOccupancy float64 `json:"bullet_occupancy_pct"`
	DebrisOccupancy float64 `json:"debris_occupancy_pct"`
	// ChecksumsEqual tells whether every run played the same game.
	ChecksumsEqual bool `json:"checksums_equal"`

	// TieRule says how the report decided which strategies are within
	// noise of each other.
	TieRule string `json:"tie_rule"`
	// Use is the strategy the verdict names, WithinNoise the others that
	// share its rank, and Avoid those ranked below it that search their
	// slots or take their items from the heap. Verdict says it in a
	// paragraph.
	Use         pool.Strategy   `json:"use"`
	WithinNoise []pool.Strategy `json:"within_noise"`
	Avoid       []pool.Strategy `json:"avoid"`
	Verdict     string          `json:"verdict"`

	Runs []Result `json:"runs"`
}

// Spread returns how far apart the repetitions' median step times are, as
// a fraction of their median: (slowest − fastest) / median. It is 0 for a
// single run.
func (r *Result) Spread() float64 {
	if len(r.StepNsRuns) < 2 || r.StepNsMedian == 0 {
		return 0
	}
	return (slices.Max(r.StepNsRuns) - slices.Min(r.StepNsRuns)) / r.StepNsMedian
}
