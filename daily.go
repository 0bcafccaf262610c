package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/daily"
	gameplay "poolroids/game/play"
	"poolroids/ui"
	"poolroids/ui/kitty"
)

// playDaily is `poolroids daily`: today's daily game in this terminal,
// each game written to a file that `poolroids post` sends to a server,
// and ranked on the local daily board, whose best (or the player's own)
// flies beside it as a ghost. It returns the exit code: 2 for bad flags,
// 1 when the game cannot start or fails.
func playDaily(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("poolroids daily", "usage: poolroids daily [flags]\n\n"+
		"Plays today's daily game (UTC): the same game for everyone, here and on\n"+
		"every server. Each game is written to a replay file in -dir, which\n"+
		"poolroids post FILE --to HOST:PORT sends to a server: it plays it again\n"+
		"and ranks the score it proves, if it is your first game of the day there.\n"+
		"g switches the ghost beside you: the best of the day here, or your own.", stderr)
	strategy := addStrategyFlag(fs, "pool strategy `NAME` to start with (it changes nothing of the game)", false)
	dir := fs.String("levels", "", "play the daily game of the level set in `DIR` (a server ranks only its own set's)")
	view := addViewFlags(fs)
	scorePath := addScoresFlag(fs, "", "the config dir's poolroids/scores.json")
	out := fs.String("dir", "", "write each game's replay into `DIR` (default: daily/ beside the high-score file)")
	name := fs.String("name", "", "play as `NAME`, the name in your replays (default: your login name)")
	if _, code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	if err := view.check(); err != nil {
		return bad("%v", err)
	}
	zero := 0
	set, err := gameFlags{dir: dir, bullets: &zero, debris: &zero}.load()
	if err != nil {
		return bad("%v", err)
	}
	player, err := nameOf(*name)
	if err != nil {
		return bad("%v", err)
	}
	store, err := openScores(*scorePath, stderr)
	if err != nil {
		return bad("-scores: %v", err)
	}
	if *out == "" {
		*out = "daily"
		if store != nil {
			*out = filepath.Join(filepath.Dir(store.Path()), "daily")
		}
	}
	today := daily.DayOf(time.Now())
	opts := ui.Options{
		Levels: set, Strategy: strategy.s, FPS: *view.fps, ASCII: *view.ascii,
		Scores: store, Player: player,
		Daily: &today, Board: gameplay.NewBoard(set, nil), DailyDir: *out,
	}
	var files []string
	code := inTerminal(context.Background(), "poolroids daily", "play needs one", stderr, func(ctx context.Context, screen tcell.Screen, keys *kitty.Keys) (ui.Result, error) {
		opts.Keys = keys
		res, err := ui.Run(ctx, screen, opts)
		files = res.Files
		return res, err
	})
	printDailyFiles(stdout, today, files)
	return code
}

// printDailyFiles says where the daily games' replays are, and how to
// post them.
func printDailyFiles(w io.Writer, day daily.Day, files []string) {
	switch len(files) {
	case 0:
		return
	case 1:
		fmt.Fprintf(w, "your daily game of %s is in %s\n", day, files[0])
	default:
		fmt.Fprintf(w, "your daily games of %s, in the order played:\n", day)
		for _, f := range files {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	fmt.Fprintf(w, "post it to a server, where the first you post today counts:\n  poolroids post %s --to HOST:PORT\n", files[0])
}
