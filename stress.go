package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"syscall"

	"golang.org/x/term"

	"poolroids/game/replay"
	"poolroids/game/stress"
	"poolroids/levels/regfile"
	"poolroids/pool"
)

// runStress is `poolroids stress`: it parses the flags, runs the session
// and prints the report. Exit status: 0 when every run played the same
// game, 1 when the checksums differ or the session fails, 2 for bad flags,
// 130 when interrupted.
func runStress(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return stressMain(ctx, args, os.Stdout, os.Stderr)
}

// stressMain is runStress with its streams given, for tests.
func stressMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("poolroids stress", "usage: poolroids stress [flags]\n\n"+
		"Plays the same game with the autopilot at maximum pool pressure once per\n"+
		"strategy, checks that every run played the same game, and reports what\n"+
		"each strategy cost.", stderr)
	strategies := fs.String("strategies", "all", "`LIST` of strategies to run, comma-separated, or all: "+pool.StrategyNames())
	steps := fs.Int("steps", defaultStressSteps, "`N` measured steps per run (60 steps = 1 s of game)")
	duration := fs.Duration("duration", 0, "pick -steps so the whole session takes about `D` (e.g. 30s) instead")
	warmup := fs.Int("warmup", defaultStressWarmup, "`N` untimed steps before the measured ones of every run, while the pools fill")
	repeat := fs.Int("repeat", defaultStressRepeat, "runs per strategy `K`, interleaved A B C A B C…; the report gives the medians")
	seed := fs.Uint64("seed", 1, "world seed `N`: the same seed plays the same game")
	game := addGameFlags(fs, "stress with")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of a table")
	asCSV := fs.Bool("csv", false, "print the report as CSV instead of a table")
	wide := fs.Bool("wide", false, "print every column of the table (the default fits 100 columns)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile to `FILE` (go tool pprof FILE)")
	memProfile := fs.String("memprofile", "", "write an allocation profile to `FILE` at the end (go tool pprof FILE)")
	traceFile := fs.String("trace", "", "write an execution trace to `FILE` (go tool trace FILE)")
	replayFile := fs.String("replay", "", "play the game recorded in `FILE` (poolroids record, or a recorded game) instead of the autopilot; its level set, seed and capacities replace those flags")
	if _, code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["steps"] && set["duration"]:
		return bad("-steps and -duration: give one of them")
	case *steps < 1 || *steps > stress.MaxSteps:
		return bad("-steps %d: want 1..%d", *steps, stress.MaxSteps)
	case set["duration"] && *duration <= 0:
		return bad("-duration %v: want a positive duration such as 30s", *duration)
	case *warmup < 0 || *warmup > stress.MaxSteps:
		return bad("-warmup %d: want 0..%d", *warmup, stress.MaxSteps)
	case *repeat < 1 || *repeat > stress.MaxRepeat:
		return bad("-repeat %d: want 1..%d", *repeat, stress.MaxRepeat)
	case *asJSON && *asCSV:
		return bad("-json and -csv: give one of them")
	case *wide && (*asJSON || *asCSV):
		return bad("-wide is for the table: -json and -csv always carry every figure")
	}
	cfg := stress.Config{
		Seed:    *seed,
		Bullets: *game.bullets,
		Debris:  *game.debris,
		Steps:   *steps,
		Warmup:  *warmup,
		Repeat:  *repeat,
	}
	if *strategies != "all" {
		for name := range strings.SplitSeq(*strategies, ",") {
			s, err := pool.ParseStrategy(name)
			if err != nil {
				return bad("-strategies: %v", err)
			}
			cfg.Strategies = append(cfg.Strategies, s)
		}
	}
	lv, err := game.load()
	if err != nil {
		return bad("%v", err)
	}
	cfg.Levels = lv
	if *replayFile != "" {
		if cfg.Replay, err = regfile.Read(*replayFile, maxReplaySize); err != nil {
			return bad("-replay: %v", err)
		}
		if !set["steps"] {
			cfg.Steps = 0 // the replay's steps
		}
	}
	if err := cfg.Check(); err != nil {
		if ferr := (*replay.FormatError)(nil); errors.As(err, &ferr) {
			return bad("-replay %s: %v", *replayFile, ferr)
		}
		return bad("%s", unprefixed(err))
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "poolroids stress:", unprefixed(err))
		return 1
	}

	var bar *stress.Bar
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar = stress.NewBar(stderr, 40)
		cfg.Progress = bar.Update
	}
	if *duration > 0 {
		n, err := stress.StepsFor(ctx, cfg, *duration)
		if err != nil {
			if bar != nil {
				bar.Clear()
			}
			return fail(err)
		}
		cfg.Steps = n
	}
	stopProfiles, err := startProfiles(*cpuProfile, *traceFile)
	if err != nil {
		return fail(err)
	}
	rep, err := stress.Run(ctx, cfg)
	if perr := stopProfiles(); perr != nil && err == nil {
		err = perr
	}
	if bar != nil {
		bar.Clear()
	}
	var diverged *stress.DivergenceError
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "poolroids stress: interrupted")
		return 130
	case err != nil && !errors.As(err, &diverged):
		return fail(err)
	}
	if *memProfile != "" {
		if err := writeAllocs(*memProfile); err != nil {
			return fail(err)
		}
	}
	var werr error
	switch {
	case *asJSON:
		werr = rep.WriteJSON(stdout)
	case *asCSV:
		werr = rep.WriteCSV(stdout)
	case *wide:
		werr = rep.WriteWide(stdout)
	default:
		werr = rep.WriteTable(stdout)
	}
	if werr != nil {
		return fail(werr)
	}
	if diverged != nil {
		fmt.Fprintf(stderr, "poolroids stress: FAIL: %s\n", unprefixed(diverged))
		return 1
	}
	return 0
}

// unprefixed is the text of an error of package stress without the
// package's "stress: ", which the command's own prefix already says.
func unprefixed(err error) string {
	return strings.TrimPrefix(err.Error(), "stress: ")
}

// The defaults keep a session of all ten strategies to about a quarter of
// a minute on two cores, each strategy run seven times so that a few noisy
// moments of the machine cannot decide the ranking.
const (
	defaultStressSteps  = stress.DefaultSteps
	defaultStressWarmup = stress.DefaultWarmup
	defaultStressRepeat = 7
)

// startProfiles starts the CPU profile and the execution trace that are
// asked for; the function it returns stops them and closes their files.
// On error, whatever was started is stopped again.
func startProfiles(cpuPath, tracePath string) (stop func() error, err error) {
	var stops []func() error
	stop = func() error {
		var errs []error
		for i := len(stops) - 1; i >= 0; i-- {
			errs = append(errs, stops[i]())
		}
		return errors.Join(errs...)
	}
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, errors.Join(err, f.Close())
		}
		stops = append(stops, func() error { pprof.StopCPUProfile(); return f.Close() })
	}
	if tracePath != "" {
		f, err := os.Create(tracePath)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		if err := trace.Start(f); err != nil {
			return nil, errors.Join(err, f.Close(), stop())
		}
		stops = append(stops, func() error { trace.Stop(); return f.Close() })
	}
	return stop, nil
}

// writeAllocs writes the allocation profile: every allocation sampled
// since the program started, and what is live after a collection.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
