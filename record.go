package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/levels/regfile"
)

// maxRecordSteps bounds -steps: about 78 hours of game.
const maxRecordSteps = 1 << 24

// recordMain is `poolroids record`: the autopilot plays a game headless
// and it is written to a replay file. Exit status: 0 when the file is
// written, 1 when it cannot be, 2 for bad flags, 130 when interrupted (the
// steps played so far are written).
func recordMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("poolroids record", "usage: poolroids record [flags] FILE\n\n"+
		"Records a game the autopilot plays headless to the replay FILE\n"+
		"(poolroids replay --check FILE replays it). With -daily, the day's\n"+
		"game, which a server ranks: poolroids post FILE --to HOST:PORT.", stderr)
	seed := fs.Uint64("seed", 1, "world seed `N`: the same seed plays the same game")
	steps := fs.Int("steps", 60*game.TPS, "`N` steps to record (60 steps = 1 s of game)")
	pressure := fs.Bool("stress", false, "record the stress mode's game: the max-pressure autopilot on the pressure level set (or -levels)")
	dailyGame := fs.Bool("daily", false, "record the daily game (of -day, on -levels): the autopilot plays it to its end, or -steps, ready to post (poolroids post FILE --to HOST:PORT)")
	day := fs.String("day", "", "with -daily, the UTC `DAY` whose game to play, as 2025-06-14 (default: today)")
	ships := fs.Int("ships", 1, fmt.Sprintf("`N` ship slots, 1..%d: more than one records an arena, an autopilot in every slot", game.MaxShips))
	pvp := fs.Bool("pvp", false, "with -ships: bullets hit ships too")
	strategy := addStrategyFlag(fs, "pool strategy `NAME` to record with", false)
	g := addGameFlags(fs, "record")
	path, code, done := parseFileFlags(fs, args, stderr, "FILE to write")
	if done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	if *steps < 1 || *steps > maxRecordSteps {
		return bad("-steps %d: want 1..%d", *steps, maxRecordSteps)
	}
	if *ships < 1 || *ships > game.MaxShips {
		return bad("-ships %d: want 1..%d", *ships, game.MaxShips)
	}
	if *pvp && *ships < 2 {
		return bad("-pvp: with -ships 2 or more (one ship has no one to hit)")
	}
	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *day != "" && !*dailyGame {
		return bad("-day: with -daily")
	}
	if *dailyGame {
		for _, f := range []string{"seed", "ships", "pvp", "stress", "bullets", "debris"} {
			if given[f] {
				return bad("-%s: the daily game is everyone's: its seed, one ship and the level set's capacities are the day's", f)
			}
		}
	}
	cfg := game.Config{Seed: *seed, Strategy: strategy.s, Bullets: *g.bullets, Debris: *g.debris, Ships: *ships}
	if *pvp {
		cfg.Mode = game.PvP
	}
	set, err := g.load()
	if err != nil {
		return bad("%v", err)
	}
	if set == nil && *pressure {
		set = levels.Pressure()
	}
	cfg.Levels = set
	autoplay := func(ctx context.Context, rec *replay.Recorder) error {
		return replay.Autoplay(ctx, rec, *steps, *pressure)
	}
	if *dailyGame {
		d := daily.DayOf(time.Now())
		if *day != "" {
			if d, err = daily.ParseDay(*day); err != nil {
				return bad("-day: %v", err)
			}
		}
		cfg = daily.Config(d, set)
		cfg.Strategy = strategy.s
		n := daily.MaxSteps
		if given["steps"] {
			n = min(n, *steps)
		}
		autoplay = func(ctx context.Context, rec *replay.Recorder) error { return replay.AutoplayGame(ctx, rec, n) }
	}
	if _, err := game.New(cfg); err != nil {
		return bad("%v", err)
	}

	start := time.Now()
	size, n, err := recordFile(ctx, path, cfg, autoplay)
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		fmt.Fprintf(stderr, "poolroids record: %v\n", err)
		return 1
	}
	minutes := float64(n) / game.TPS / 60
	fmt.Fprintf(stdout, "%s: %d steps (%.1f s of game) in %d bytes, %.2f KiB per minute of game; recorded in %.2f s\n",
		path, n, float64(n)/game.TPS, size, float64(size)/1024/minutes, time.Since(start).Seconds())
	if interrupted {
		fmt.Fprintln(stderr, "poolroids record: interrupted; the file holds the steps played so far")
		return 130
	}
	if *dailyGame {
		tellDaily(ctx, path, set, stdout, stderr)
	}
	return 0
}

// tellDaily proves the daily game recorded at path as a server would
// now, and says what it proves: the score a post ranks.
func tellDaily(ctx context.Context, path string, set *levels.Set, stdout, stderr io.Writer) {
	data, err := regfile.Read(path, daily.MaxBytes)
	var p daily.Proof
	if err == nil {
		p, err = daily.Verify(ctx, data, time.Now(), set)
	}
	if err != nil {
		fmt.Fprintf(stderr, "poolroids record: %s: %v\n", path, err)
		return
	}
	fmt.Fprintf(stdout, "%s: proves %v; post it: poolroids post %s --to HOST:PORT\n", path, p, path)
}

// recordFile records autoplay playing cfg into path, atomically (see
// [regfile.Write]). It returns the file's size and the steps it holds.
// When ctx is done it still writes the steps played so far, and returns
// ctx's error.
func recordFile(ctx context.Context, path string, cfg game.Config, autoplay func(context.Context, *replay.Recorder) error) (size int64, n uint64, err error) {
	var playErr error
	err = regfile.Write(path, func(w io.Writer) error {
		opt := replay.Options{Out: w}
		if cfg.Ships <= 1 {
			opt.Players = []string{"autopilot"} // more slots are named as they join
		}
		rec, err := replay.NewRecorder(cfg, opt)
		if err != nil {
			return err
		}
		playErr = autoplay(ctx, rec)
		n = rec.Steps()
		if err := rec.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	return st.Size(), n, playErr
}
