package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/levels/regfile"
	"poolroids/pool"
	"poolroids/ui"
	"poolroids/ui/kitty"
)

// maxReplaySize bounds what is read of a replay file: a day of play by
// hand takes a few MiB.
const maxReplaySize = 64 << 20

// runCommand runs the command main with the process's arguments after the
// subcommand, its standard streams and a context cancelled by SIGINT or
// SIGTERM, and returns main's exit status.
func runCommand(main func(ctx context.Context, args []string, stdout, stderr io.Writer) int) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return main(ctx, os.Args[2:], os.Stdout, os.Stderr)
}

// parseFileFlags parses args into fs for a command that takes one file
// after its flags, what, and returns its path. done reports that the
// command ends here with code: 0 after -h, 2 after a bad flag or not one
// file.
func parseFileFlags(fs *flag.FlagSet, args []string, stderr io.Writer, what string) (path string, code int, done bool) {
	_, err := parseArgs(fs, args)
	if code, done := argsError(fs, err, stderr); done {
		return "", code, true
	}
	switch {
	case fs.NArg() > 1 && strings.HasPrefix(fs.Arg(1), "-"):
		return "", usageError(stderr, fs.Name(), "%s after %s: give the flags first", fs.Arg(1), fs.Arg(0)), true
	case fs.NArg() != 1:
		return "", usageError(stderr, fs.Name(), "want one %s after the flags, found %d arguments", what, fs.NArg()), true
	}
	return fs.Arg(0), 0, false
}

// replayMain is `poolroids replay`: it plays a replay in the terminal, or
// with --check replays it headless. Exit status of --check: 0 when every
// recorded checksum matches, 1 naming the first step that differs, 2 for
// bad flags or a file it cannot read, 130 when interrupted. In the
// terminal: 0 when the player quits, 1 when the terminal fails, 2 for bad
// flags or a file it cannot read (said before the terminal is touched).
func replayMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("poolroids replay", "usage: poolroids replay [flags] FILE          play a replay in this terminal\n"+
		"       poolroids replay --check [flags] FILE  check it headless\n\n"+
		"In the terminal: space pauses, + and - change the speed, . steps,\n"+
		"left and right seek 10 s, 1-0 switch the pools' strategy, q quits.\n"+
		"With --check it replays the game headless as fast as it can and checks\n"+
		"every recorded checksum: exit 0 when all match, 1 naming the first step\n"+
		"that differs, 2 for a file it cannot read.", stderr)
	check := fs.Bool("check", false, "replay headless and check the checksums")
	proveDaily := fs.Bool("daily", false, "with -check, prove it as a server proves a posted daily game, now, on -levels: exit 0 and what it proves, or 1 and why it is refused")
	dir := fs.String("levels", "", "with -daily, the level set in `DIR` a server plays (default: the shipped one)")
	strategy := addStrategyFlag(fs, "hold the pools to strategy `NAME` (or with --check all: one replay per strategy) instead of the recorded ones", true)
	view := addViewFlags(fs)
	path, code, done := parseFileFlags(fs, args, stderr, "replay FILE")
	if done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	if err := view.check(); err != nil {
		return bad("%v", err)
	}
	strategies := []pool.Strategy{strategy.s}
	if strategy.all {
		if !*check {
			return bad("-strategy all: one replay per strategy is for --check; name one strategy to watch")
		}
		strategies = pool.Strategies()
	}
	if (*proveDaily || *dir != "") && !*check {
		return bad("-daily and -levels: with -check")
	}
	if *dir != "" && !*proveDaily {
		return bad("-levels: with -daily")
	}
	data, err := regfile.Read(path, maxReplaySize)
	if err != nil {
		fmt.Fprintf(stderr, "poolroids replay: %v\n", err)
		return 2
	}
	if *proveDaily {
		var set *levels.Set
		if *dir != "" {
			if set, err = levels.LoadDir(*dir); err != nil {
				return bad("-levels: %v", err)
			}
		}
		return checkDaily(ctx, path, data, set, stdout, stderr)
	}
	if !*check {
		// Checked before the terminal is taken; --check's players do it.
		if _, err := replay.Decode(data); err != nil {
			fmt.Fprintf(stderr, "poolroids replay: %s: %v\n", path, err)
			return 2
		}
		opts := ui.Options{FPS: *view.fps, ASCII: *view.ascii, Strategy: strategies[0]}
		return inTerminal(ctx, fs.Name(), "watching a replay needs one; --check does not", stderr, func(ctx context.Context, screen tcell.Screen, keys *kitty.Keys) (ui.Result, error) {
			opts.Keys = keys
			return ui.RunReplay(ctx, screen, data, opts)
		})
	}
	for _, s := range strategies {
		start := time.Now()
		p, err := replay.NewPlayer(data, s)
		if err == nil {
			err = p.Run(ctx)
		}
		var m *replay.MismatchError
		switch {
		case errors.As(err, &m):
			fmt.Fprintf(stderr, "poolroids replay: %s: FAIL: %v\n", path, err)
			return 1
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(stderr, "poolroids replay: interrupted")
			return 130
		case err != nil:
			fmt.Fprintf(stderr, "poolroids replay: %s: %v\n", path, err)
			return 2
		}
		f, d := p.File(), time.Since(start)
		held := "the recorded strategies"
		if s != "" {
			held = string(s)
		}
		fmt.Fprintf(stdout, "%s: ok: %d steps, %d checksums match with %s; %.3f s, %.0f steps/s\n",
			path, f.Steps, f.Steps/uint64(f.Every)+1, held, d.Seconds(), float64(f.Steps)/d.Seconds())
	}
	return 0
}

// checkDaily is replay --check --daily: it proves data, the file at path,
// as a server proves a posted daily game now, on set. Exit status: 0
// proven, 1 refused, 130 interrupted.
func checkDaily(ctx context.Context, path string, data []byte, set *levels.Set, stdout, stderr io.Writer) int {
	p, err := daily.Verify(ctx, data, time.Now(), set)
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "poolroids replay: interrupted")
		return 130
	case err != nil:
		fmt.Fprintf(stderr, "poolroids replay: %s: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: proven: %v\n", path, p)
	return 0
}
