package stress

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"poolroids/game"
	replayfile "poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// Config chooses what [Run] measures. The zero Config is usable: every
// strategy, the [Pressure] level set, the defaults below.
type Config struct {
	Strategies []pool.Strategy // nil: pool.Strategies(); no duplicates
	Levels     *levels.Set     // nil: levels.Pressure()
	Seed       uint64
	Bullets    int // bullet pool capacity; 0: the set's
	Debris     int // debris pool capacity; 0: the set's
	Steps      int // measured steps per run; 0: DefaultSteps
	Warmup     int // steps before the measured ones, not timed; 0: none
	Repeat     int // runs per strategy, interleaved; 0: 1
	CheckEvery int // steps between two compared checksums; 0: game.TPS

	// Replay, when set, is a replay file (package replay) whose game every
	// run plays instead of the autopilot's, checking its recorded
	// checksums too. Levels, Seed, Bullets and Debris then come from its
	// header, Steps defaults to its steps less Warmup, and Warmup+Steps may
	// not pass its steps.
	Replay []byte

	// Progress, when set, is called every few hundred steps and at the end
	// of every run, from the goroutine of Run, with the steps done so far
	// and the steps of the whole session.
	// It is called during measured steps too, so it must not allocate
	// (see [Bar]) or the allocation figures will show it.
	Progress func(done, total int)
}

// DefaultSteps is the measured steps of a run when Config.Steps is 0: 20
// seconds of game. Many short runs interleave better than a few long ones
// on a busy machine: the command line's default session, all ten
// strategies seven times over, takes about a quarter of a minute on two
// cores.
const DefaultSteps = 20 * game.TPS

// DefaultWarmup is the warm-up the command line uses: five seconds of
// game, enough for the pools of the pressure set to fill.
const DefaultWarmup = 5 * game.TPS

// MaxSteps bounds Config.Steps and Config.Warmup: a run keeps a few bytes per
// step, and a million steps is over four hours of game.
const MaxSteps = 1 << 20

// MaxRepeat bounds Config.Repeat.
const MaxRepeat = 100

// settle is how long a run waits after its forced collection before it
// counts allocations.
const settle = 5 * time.Millisecond

// progressEvery is how many steps pass between two Progress calls.
const progressEvery = 256

// normalize fills in the defaults of c and checks it.
func (c Config) normalize() (Config, error) {
	if c.Strategies == nil {
		c.Strategies = pool.Strategies()
	}
	if len(c.Strategies) == 0 {
		return c, errors.New("stress: no strategy to run")
	}
	for i, s := range c.Strategies {
		if _, err := pool.ParseStrategy(string(s)); err != nil {
			return c, fmt.Errorf("stress: %w", err)
		}
		if slices.Contains(c.Strategies[:i], s) {
			return c, fmt.Errorf("stress: strategy %q given twice", s)
		}
	}
	if c.Replay != nil {
		f, err := replayfile.Decode(c.Replay)
		if err != nil {
			return c, fmt.Errorf("stress: the replay: %w", err)
		}
		c.Levels, c.Seed, c.Bullets, c.Debris = f.Levels, f.Seed, f.Bullets, f.Debris
		if c.Steps == 0 {
			c.Steps = int(min(f.Steps, MaxSteps)) - c.Warmup
		}
		if n := uint64(c.Warmup + c.Steps); n > f.Steps || c.Steps < 1 {
			return c, fmt.Errorf("stress: %d warm-up and %d measured steps: the replay has %d", c.Warmup, c.Steps, f.Steps)
		}
	}
	if c.Levels == nil {
		c.Levels = levels.Pressure()
	}
	if c.Steps == 0 {
		c.Steps = DefaultSteps
	}
	if c.Repeat == 0 {
		c.Repeat = 1
	}
	if c.CheckEvery == 0 {
		c.CheckEvery = game.TPS
	}
	switch {
	case c.Steps < 1 || c.Steps > MaxSteps:
		return c, fmt.Errorf("stress: %d steps: allowed 1..%d", c.Steps, MaxSteps)
	case c.Warmup < 0 || c.Warmup > MaxSteps:
		return c, fmt.Errorf("stress: %d warm-up steps: allowed 0..%d", c.Warmup, MaxSteps)
	case c.Repeat < 1 || c.Repeat > MaxRepeat:
		return c, fmt.Errorf("stress: repeat %d: allowed 1..%d", c.Repeat, MaxRepeat)
	case c.CheckEvery < 1:
		return c, fmt.Errorf("stress: checksum every %d steps: must be at least 1", c.CheckEvery)
	case c.Bullets < 0 || c.Debris < 0:
		return c, fmt.Errorf("stress: negative capacity (bullets %d, debris %d)", c.Bullets, c.Debris)
	}
	// The level loader refuses a set whose bullet pool cannot hold one
	// volley; a capacity given here must not get round that.
	if c.Bullets > 0 && len(c.Levels.Levels) > 0 {
		l := slices.MaxFunc(c.Levels.Levels, func(a, b levels.Level) int { return cmp.Compare(a.BulletsPerShot, b.BulletsPerShot) })
		if c.Bullets < l.BulletsPerShot {
			return c, fmt.Errorf("stress: bullet capacity %d is too small for one volley of level %q of set %q (bullets_per_shot = %d): want at least %d",
				c.Bullets, l.Name, c.Levels.Name, l.BulletsPerShot, l.BulletsPerShot)
		}
	}
	return c, nil
}

// Check reports what [Run] would refuse in c before running anything: an
// unknown or repeated strategy, a number out of range, a capacity the
// pools refuse.
func (c Config) Check() error {
	c, err := c.normalize()
	if err != nil {
		return err
	}
	_, err = newWorld(c, c.Strategies[0])
	return err
}

// Run plays one run per strategy and repetition, in the interleaved order
// A B C … A B C …, and returns the report, ranked by pool time per step
// with ties for what is within noise, and its verdict.
//
// When the runs did not all play the same game the report is returned
// together with a [*DivergenceError]. A context cancelled between two steps
// stops the session with the context's error. A bad Config is an error
// before anything runs.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	// The first world tells the capacities, and refuses those the pools
	// refuse before anything runs.
	w, err := newWorld(cfg, cfg.Strategies[0])
	if err != nil {
		return nil, err
	}
	r, err := newRunner(cfg, w.Bullets().Cap(), w.Debris().Cap())
	if err != nil {
		return nil, err
	}
	warmRuntime(4*runtime.GOMAXPROCS(0) + 4)
	ctx, task := trace.NewTask(ctx, "stress")
	defer task.End()

	samples := make([][]Result, len(cfg.Strategies))
	var all []Result
	for round := range cfg.Repeat {
		for i, s := range cfg.Strategies {
			res, err := r.run(ctx, s)
			if err != nil {
				return nil, err
			}
			res.round = round + 1
			samples[i] = append(samples[i], res)
			all = append(all, res)
		}
	}
	rep := &Report{
		Seed:       cfg.Seed,
		LevelSet:   cfg.Levels.Name,
		Steps:      cfg.Steps,
		Warmup:     cfg.Warmup,
		Repeat:     cfg.Repeat,
		CheckEvery: cfg.CheckEvery,
		BulletCap:  r.bulletCap,
		DebrisCap:  r.debrisCap,
	}
	for _, s := range samples {
		rep.Runs = append(rep.Runs, median(s))
	}
	rep.BulletOccupancy = r.bullets.occupancy(cfg.Warmup, r.bulletCap)
	rep.DebrisOccupancy = r.debris.occupancy(cfg.Warmup, r.debrisCap)
	err = Verify(all)
	rep.ChecksumsEqual = err == nil
	rep.rank()
	return rep, err
}

func newWorld(cfg Config, s pool.Strategy) (*game.World, error) {
	w, err := game.New(game.Config{
		Levels:   cfg.Levels,
		Seed:     cfg.Seed,
		Strategy: s,
		Bullets:  cfg.Bullets,
		Debris:   cfg.Debris,
	})
	if err != nil {
		return nil, fmt.Errorf("stress: %w", err)
	}
	return w, nil
}

// player is the autopilot at maximum pressure playing a world without
// end, or a replay playing its recorded game.
type player struct {
	w      *game.World
	ap     game.Autopilot
	in     game.Inputs
	replay *replayfile.Player
}

// newPlayer builds the world of a run of strategy s and its player.
func newPlayer(cfg Config, s pool.Strategy) (*player, error) {
	if cfg.Replay != nil {
		rp, err := replayfile.NewPlayer(cfg.Replay, s)
		if err != nil {
			return nil, fmt.Errorf("stress: %w", err)
		}
		return &player{w: rp.World(), replay: rp}, nil
	}
	w, err := newWorld(cfg, s)
	if err != nil {
		return nil, err
	}
	return &player{w: w, ap: game.Autopilot{Pressure: true}}, nil
}

// input returns the next step's intent of every slot. The autopilot,
// after a game over, first starts a new game with a new autopilot, as
// deterministic as the rest: pressure never lets up. A replay applies
// its events and checks its recorded checksums; normalize made sure it
// has the steps.
func (p *player) input() (*game.Inputs, error) {
	if p.replay != nil {
		return p.replay.Next()
	}
	if p.w.Phase() == game.GameOver {
		p.w.Restart()
		p.ap = game.Autopilot{Pressure: true}
	}
	p.in[0] = p.ap.Input(p.w)
	return &p.in, nil
}

// calibrationSteps is how many measured steps StepsFor's trial session
// plays.
const calibrationSteps = 4 * game.TPS

// StepsFor returns the Config.Steps that make a session of cfg take about
// d in all, at least one second of game (game.TPS steps). It finds out with
// a trial session of cfg, each strategy once for its warm-up and four
// seconds of game more, which counts against d. Later waves are busier
// than the first seconds, so long sessions take somewhat longer than d.
func StepsFor(ctx context.Context, cfg Config, d time.Duration) (int, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return 0, err
	}
	trial := cfg
	trial.Steps, trial.Repeat, trial.Progress = calibrationSteps, 1, nil
	start := time.Now()
	if _, err := Run(ctx, trial); err != nil {
		return 0, err
	}
	spent := time.Since(start)
	perStep := float64(spent) / float64(cfg.Warmup+calibrationSteps) // every strategy once
	n := int(float64(d-spent)/(perStep*float64(cfg.Repeat))) - cfg.Warmup
	return min(max(n, game.TPS), MaxSteps), nil
}

// runner holds what every run of a session shares: the configuration and
// buffers allocated once, so the measured steps allocate nothing of the
// runner's own.
type runner struct {
	cfg                  Config
	bulletCap, debrisCap int
	steps                int     // warm-up plus measured, per run
	total, done          int     // steps of the session, for Progress
	ns                   []int64 // per measured step; sorted after the run
	bullets, debris      poolLog // what the game asked of each pool, for the replays
	clock                float64 // ns one timed empty batch costs
}

// newRunner records the session's game for the replays and measures the
// clock.
func newRunner(cfg Config, bulletCap, debrisCap int) (*runner, error) {
	n := cfg.Warmup + cfg.Steps
	r := &runner{
		cfg:       cfg,
		bulletCap: bulletCap,
		debrisCap: debrisCap,
		steps:     n,
		total:     n * len(cfg.Strategies) * cfg.Repeat,
		ns:        make([]int64, cfg.Steps),
		clock:     clockCost(),
	}
	var err error
	r.bullets, r.debris, err = record(cfg)
	return r, err
}

// run plays one run of strategy s and measures it.
func (r *runner) run(ctx context.Context, s pool.Strategy) (res Result, err error) {
	p, err := newPlayer(r.cfg, s)
	if err != nil {
		return res, err
	}
	w := p.w
	res = Result{Strategy: s, Steps: r.cfg.Steps, Warmup: r.cfg.Warmup}
	res.trail = make([]checkpoint, 0, r.steps/r.cfg.CheckEvery+1)
	// step plays step i of the run; timed says whether to time it.
	step := func(i int, timed bool) error {
		in, err := p.input()
		if err != nil {
			return err
		}
		if timed {
			t := time.Now()
			w.StepAll(in)
			r.ns[i-r.cfg.Warmup] = int64(time.Since(t))
		} else {
			w.StepAll(in)
		}
		if (i+1)%r.cfg.CheckEvery == 0 {
			res.trail = append(res.trail, checkpoint{i + 1, Checksum(w.Checksum())})
		}
		return nil
	}
	// advance plays steps [from, to) checking ctx and reporting progress
	// between chunks.
	advance := func(from, to int, timed bool) error {
		for i := from; i < to; i++ {
			if (i-from)%progressEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				if r.cfg.Progress != nil {
					r.cfg.Progress(r.done+i, r.total)
				}
			}
			if err := step(i, timed); err != nil {
				return err
			}
		}
		return nil
	}

	region := trace.StartRegion(ctx, string(s))
	defer region.End()
	// Profile samples carry the strategy and the phase, so that
	// go tool pprof -tagfocus=strategy=scan shows one strategy's.
	pprof.Do(ctx, pprof.Labels("strategy", string(s), "phase", "play"), func(ctx context.Context) {
		if err = advance(0, r.cfg.Warmup, false); err != nil {
			return
		}
		// Collect what earlier runs left, so this run pays for its own
		// garbage only: twice, as sync.Pool keeps its items through one
		// collection. Then give the runtime's own work after a collection
		// a moment to finish: it allocates a little, which would be
		// counted as this run's.
		runtime.GC()
		runtime.GC()
		time.Sleep(settle)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = advance(r.cfg.Warmup, r.steps, true)
		runtime.ReadMemStats(&after)
		n := float64(r.cfg.Steps)
		res.AllocsPerStep = float64(after.Mallocs-before.Mallocs) / n
		res.BytesPerStep = float64(after.TotalAlloc-before.TotalAlloc) / n
		res.GCCycles = uint64(after.NumGC - before.NumGC)
		res.GCPauseNs = after.PauseTotalNs - before.PauseTotalNs
	})
	if err != nil {
		return res, err
	}
	r.done += r.steps
	if r.cfg.Progress != nil {
		r.cfg.Progress(r.done, r.total)
	}
	res.Checksum = Checksum(w.Checksum())
	if len(res.trail) == 0 || res.trail[len(res.trail)-1].step != r.steps {
		res.trail = append(res.trail, checkpoint{r.steps, res.Checksum})
	}

	slices.Sort(r.ns)
	res.StepNsMedian = percentile(r.ns, 50)
	res.StepNsP99 = percentile(r.ns, 99)
	res.StepNsMean = mean(r.ns)
	res.Bullets = poolResult(w.Bullets().Stats())
	res.Debris = poolResult(w.Debris().Stats())

	var rb, rd replayed
	pprof.Do(ctx, pprof.Labels("strategy", string(s), "phase", "replay"), func(context.Context) {
		if rb, err = replay[game.Bullet](s, r.bulletCap, &r.bullets, r.cfg.Warmup, r.clock); err != nil {
			return
		}
		rd, err = replay[game.Particle](s, r.debrisCap, &r.debris, r.cfg.Warmup, r.clock)
	})
	if err != nil {
		return res, err
	}
	res.Bullets.setReplay(rb)
	res.Debris.setReplay(rd)
	res.total()
	return res, nil
}

// percentile returns the p-th percentile of sorted (nearest rank).
func percentile(sorted []int64, p int) float64 {
	k := (len(sorted)*p + 99) / 100
	return float64(sorted[max(k-1, 0)])
}

// mean returns the arithmetic mean of v, which is not empty.
func mean(v []int64) float64 {
	var total int64
	for _, x := range v {
		total += x
	}
	return float64(total) / float64(len(v))
}

// warmRuntime makes the runtime grow, once, what it grows on first need
// and then keeps: n OS threads, and room in every P's timer heap for
// several timers. Either growth allocates a few heap objects, and happens
// whenever the runtime needs it — when a background goroutine of the
// collector wakes or sleeps — so without this a run may be charged
// allocations that are not its own.
func warmRuntime(n int) {
	var ready, done sync.WaitGroup
	ready.Add(n)
	done.Add(n)
	release := make(chan struct{})
	for range n {
		go func() {
			defer done.Done()
			// A locked goroutine holds a thread of its own; unlocking
			// before it ends hands the thread back to the runtime, idle.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			ready.Done()
			<-release
			// Sleeping all at once puts n timers on the Ps' heaps.
			time.Sleep(time.Millisecond)
		}()
	}
	ready.Wait()
	close(release)
	done.Wait()
}
