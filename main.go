// Command poolroids is an asteroids game for the terminal whose bullets and
// debris live in fixed-capacity object pools, with a side panel that shows
// the pools at work and switches their strategy live.
//
//	poolroids [flags]         play in this terminal
//	poolroids serve [flags]   serve the game over SSH
//	poolroids stress [flags]  profile every pool strategy headless
//	poolroids record FILE     record an autopilot game headless
//	poolroids replay FILE     watch a replay (--check: verify it headless)
//	poolroids daily [flags]   play today's daily game, and keep its replay to post
//	poolroids post FILE --to HOST:PORT  post a daily game's replay to a server
//	poolroids --version       print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"os/user"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/displayname"
	"poolroids/game/hub"
	"poolroids/game/scores"
	"poolroids/levels"
	"poolroids/pool"
	"poolroids/ui"
	"poolroids/ui/kitty"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "serve":
			os.Exit(runServe(os.Args[2:]))
		case "stress":
			os.Exit(runStress(os.Args[2:]))
		case "record":
			os.Exit(runCommand(recordMain))
		case "replay":
			os.Exit(runCommand(replayMain))
		case "post":
			os.Exit(runCommand(postMain))
		case "daily":
			os.Exit(playDaily(os.Args[2:], os.Stdout, os.Stderr))
		case "-version", "--version":
			info, _ := debug.ReadBuildInfo()
			fmt.Println(version(info))
			os.Exit(0)
		}
	}
	os.Exit(play(os.Args[1:], os.Stderr))
}

// version is what --version prints: the module's version and, when the
// build recorded them, the commit and whether the tree had changes.
func version(info *debug.BuildInfo) string {
	if info == nil {
		return "poolroids (no build information)"
	}
	v := "poolroids " + info.Main.Version
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = ", modified"
		}
	}
	if rev != "" {
		v += " (commit " + rev + dirty + ")"
	}
	return v + " " + info.GoVersion
}

// play parses the play flags and plays in the controlling terminal. It
// returns the exit code: 2 for bad flags, 1 when the game cannot start or
// fails.
func play(args []string, stderr io.Writer) int {
	fs := newFlagSet("poolroids", "usage: poolroids [flags]              play in this terminal\n"+
		"       poolroids serve [flags]        serve the game over SSH (serve -h)\n"+
		"       poolroids stress [flags]       profile the pool strategies (stress -h)\n"+
		"       poolroids record [flags] FILE  record an autopilot game (record -h)\n"+
		"       poolroids replay [flags] FILE  watch a replay, or --check it (replay -h)\n"+
		"       poolroids daily [flags]        play today's daily game (daily -h)\n"+
		"       poolroids post FILE --to HOST  post a daily game to a server (post -h)", stderr)
	strategy := addStrategyFlag(fs, "pool strategy `NAME` to start with", false)
	game := addGameFlags(fs, "play")
	seed := fs.Uint64("seed", 0, "world seed `N`; 0 picks one from the clock")
	view := addViewFlags(fs)
	stress := fs.Bool("stress", false, "start with the max-pressure autopilot filling the pools on the stress levels (x toggles it)")
	scorePath := addScoresFlag(fs, "", "the config dir's poolroids/scores.json")
	name := fs.String("name", "", "play as `NAME`, shown in the game and on your scores (default: your login name)")
	if _, code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	opts := ui.Options{Seed: *seed, FPS: *view.fps, ASCII: *view.ascii, Strategy: strategy.s, Bullets: *game.bullets, Debris: *game.debris, Stress: *stress}
	if err := view.check(); err != nil {
		return bad("%v", err)
	}
	if opts.Seed == 0 {
		opts.Seed = uint64(time.Now().UnixNano())
	}
	set, err := game.load()
	if err != nil {
		return bad("%v", err)
	}
	opts.Levels = set
	store, err := openScores(*scorePath, stderr)
	if errors.Is(err, scores.ErrNotFile) {
		return bad("-scores: %v", err)
	}
	opts.Scores = store
	if opts.Player, err = nameOf(*name); err != nil {
		return bad("%v", err)
	}

	return inTerminal(context.Background(), "poolroids", "play needs one; serve and stress do not", stderr, func(ctx context.Context, screen tcell.Screen, keys *kitty.Keys) (ui.Result, error) {
		opts.Keys = keys
		return ui.Run(ctx, screen, opts)
	})
}

// inTerminal runs f on a screen of the controlling terminal, with the
// kitty key filter in front of it and a context that SIGINT, SIGTERM and
// SIGHUP cancel, and returns the exit code: 1 when the terminal cannot be
// opened, f fails or a signal stops it. cmd prefixes its messages; hint
// follows the one of a process without a terminal.
func inTerminal(ctx context.Context, cmd, hint string, stderr io.Writer, f func(ctx context.Context, screen tcell.Screen, keys *kitty.Keys) (ui.Result, error)) int {
	tty, err := tcell.NewDevTty()
	if err != nil {
		fmt.Fprintf(stderr, "%s: opening the terminal: %v (%s)\n", cmd, err, hint)
		return 1
	}
	// tcell refuses a locale whose character set it has no table for
	// (ISO-8859-1, KOI8-R, …); such a terminal still shows ASCII, and the
	// arena draws in ASCII when the set is not UTF-8.
	tcell.SetEncodingFallback(tcell.EncodingFallbackASCII)
	ktty := kitty.NewTty(tty)
	ti, err := tcell.LookupTerminfo(os.Getenv("TERM"))
	var screen tcell.Screen
	if err == nil {
		// Without a pad character tcell drops the padding delays of old
		// entries (vt100's 5 ms a cursor move) instead of sleeping them.
		own := *ti
		own.PadChar = ""
		screen, err = kitty.NewScreen(ktty, &own)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: TERM=%s: %v (xterm-256color suits nearly every terminal)\n", cmd, os.Getenv("TERM"), err)
		return 1
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	res, err := f(ctx, screen, ktty.Keys())
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return 1
	case res.Reason == ui.ReasonCanceled:
		fmt.Fprintf(stderr, "%s: stopped by a signal\n", cmd)
		return 1
	}
	return 0
}

// newFlagSet makes command name's flag set, reporting to stderr; its usage
// prints head (the usage lines and what the command does), then the flags
// and how the environment sets them.
func newFlagSet(name, head string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), head+"\n\nflags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nEvery flag may be set in the environment instead, -fps as %s and -max-sessions\n"+
			"as %s: %s and the flag's name in capitals, - as _. The command line wins.\n",
			envName("fps"), envName("max-sessions"), envPrefix)
	}
	return fs
}

// envPrefix begins the name of the environment variable of every flag.
const envPrefix = "POOLROIDS_"

// envName is the environment variable that sets the flag name:
// -max-sessions is POOLROIDS_MAX_SESSIONS.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// parseArgs parses args into fs, then sets each flag the command line
// left unset from its environment variable, if that is set (see envName):
// one way, for every command, to configure it from a service manager's
// environment. It returns the flags set from the environment. An error
// from the environment names the variable; one from the command line has
// been reported by the flag package, with the usage.
func parseArgs(fs *flag.FlagSet, args []string) (fromEnv []string, err error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := os.LookupEnv(envName(f.Name))
		if err != nil || given[f.Name] || !ok {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = &envError{fmt.Errorf("%s: invalid value %q for -%s: %v", envName(f.Name), v, f.Name, serr)}
			return
		}
		fromEnv = append(fromEnv, f.Name)
	})
	return fromEnv, err
}

// envError is parseArgs's error for a bad environment variable.
type envError struct{ error }

// parseFlags parses args, and the environment, into fs (see parseArgs).
// done reports that the command ends here with code: 0 after -h, 2 after
// a bad flag, a bad variable or a stray argument. fromEnv lists the flags
// the environment set.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (fromEnv []string, code int, done bool) {
	fromEnv, err := parseArgs(fs, args)
	if code, done := argsError(fs, err, stderr); done {
		return nil, code, true
	}
	if fs.NArg() > 0 {
		return nil, usageError(stderr, fs.Name(), "unexpected argument %q%s", fs.Arg(0), strayHint(fs, args)), true
	}
	return fromEnv, 0, false
}

// argsError reports parseArgs's error, if any, and returns the exit code:
// 0 after -h, 2 else.
func argsError(fs *flag.FlagSet, err error, stderr io.Writer) (code int, done bool) {
	var env *envError
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		return 0, true
	case errors.As(err, &env):
		return usageError(stderr, fs.Name(), "%v", env.error), true
	}
	return 2, true // the flag package has said why, with the usage
}

// strayHint explains a stray argument that follows a flag taking no
// separate value (-pprof ADDR is read as -pprof, then ADDR).
func strayHint(fs *flag.FlagSet, args []string) string {
	i := len(args) - fs.NArg()
	if i < 1 {
		return ""
	}
	name := strings.TrimLeft(args[i-1], "-")
	if f := fs.Lookup(name); f != nil && !strings.Contains(name, "=") {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			return fmt.Sprintf(" (a value of -%s goes after =: -%s=%s)", name, name, fs.Arg(0))
		}
	}
	return ""
}

// usageError reports a bad flag value for command cmd with its usage line,
// and returns the exit code for it.
func usageError(stderr io.Writer, cmd, format string, a ...any) int {
	fmt.Fprintf(stderr, cmd+": "+format+"\n", a...)
	fmt.Fprintf(stderr, "usage: %s [flags] (-h for the list)\n", cmd)
	return 2
}

// strategyFlag is -strategy, which play, serve, record and replay share: a
// pool strategy's name, checked as it is parsed, so that a bad one ends
// the command with the flag package's message and usage. Its zero value,
// s == "", means the level set's strategies.
type strategyFlag struct {
	s        pool.Strategy
	all      bool // "all" was given: one run per strategy
	allowAll bool // "all" is accepted
}

// addStrategyFlag defines -strategy on fs; use says what the command does
// with the strategy, before the list of names. allowAll accepts "all" too.
func addStrategyFlag(fs *flag.FlagSet, use string, allowAll bool) *strategyFlag {
	f := &strategyFlag{allowAll: allowAll}
	def := " (default: the level set's)"
	if allowAll {
		def = ""
	}
	fs.Var(f, "strategy", use+": "+pool.StrategyNames()+def)
	return f
}

func (f *strategyFlag) String() string {
	if f.all {
		return "all"
	}
	return string(f.s)
}

func (f *strategyFlag) Set(name string) error {
	if f.allowAll && name == "all" {
		f.s, f.all = "", true
		return nil
	}
	s, err := pool.ParseStrategy(name)
	f.s, f.all = s, false
	return err
}

// addFPSFlag defines -fps on fs, the redraws a second of play, replay and
// serve; more adds to its usage. [checkFPS] checks it.
func addFPSFlag(fs *flag.FlagSet, more string) *int {
	return fs.Int("fps", ui.DefaultFPS, fmt.Sprintf("`N` screen redraws per second, 1..%d%s", ui.MaxFPS, more))
}

// checkFPS checks -fps by ui's rule; its error is the message for a bad
// flag.
func checkFPS(fps int) error {
	if err := ui.CheckFPS(fps); err != nil {
		return fmt.Errorf("-fps %d: %w", fps, err)
	}
	return nil
}

// viewFlags are the flags of how the terminal shows the game, which play
// and replay share.
type viewFlags struct {
	fps   *int
	ascii *bool
}

func addViewFlags(fs *flag.FlagSet) viewFlags {
	return viewFlags{
		fps:   addFPSFlag(fs, ""),
		ascii: fs.Bool("ascii", false, "draw with ASCII characters instead of braille"),
	}
}

// check checks the values; its error is the message for a bad flag.
func (v viewFlags) check() error { return checkFPS(*v.fps) }

// gameFlags are the flags of the game itself that play, serve and stress
// share: the level set and the pool capacities.
type gameFlags struct {
	dir             *string
	bullets, debris *int
}

// addGameFlags defines the game flags on fs; verb says what the command does
// with the level set.
func addGameFlags(fs *flag.FlagSet, verb string) gameFlags {
	return gameFlags{
		dir:     fs.String("levels", "", verb+" the level set in `DIR` instead of the default one"),
		bullets: fs.Int("bullets", 0, "bullet pool capacity `N` (default: the level set's)"),
		debris:  fs.Int("debris", 0, "debris pool capacity `N` (default: the level set's)"),
	}
}

// load checks the capacities and loads the level set (nil: the default).
// Its error is the message for a bad flag. A capacity is bounded as a level
// set's is, so that every game played can be recorded and replayed.
func (g gameFlags) load() (*levels.Set, error) {
	for _, c := range []struct {
		name  string
		n, hi int
	}{{"bullets", *g.bullets, levels.MaxBullets}, {"debris", *g.debris, levels.MaxDebris}} {
		if c.n < 0 || c.n > c.hi {
			return nil, fmt.Errorf("-%s %d: want 0 (the level set's) or 1..%d", c.name, c.n, c.hi)
		}
	}
	if *g.dir == "" {
		return nil, nil
	}
	set, err := levels.LoadDir(*g.dir)
	if err != nil {
		return nil, fmt.Errorf("-levels: %w", err)
	}
	return set, nil
}

// addScoresFlag defines -scores on fs, the high-score file that play and
// serve keep (and may share); more tells what else it may name, def where
// it is by default.
func addScoresFlag(fs *flag.FlagSet, more, def string) *string {
	return fs.String("scores", "", "high-score file `PATH`, with the best games' replays in PATH.replays"+more+" (default: "+def+")")
}

// openScores opens the high-score table at path ("": in the user's config
// directory). A path that is not a file is an error (scores.ErrNotFile);
// other trouble is a warning, never the end of the game.
func openScores(path string, stderr io.Writer) (*scores.Store, error) {
	if path == "" {
		var err error
		if path, err = scores.DefaultPath(); err != nil {
			fmt.Fprintln(stderr, "poolroids: high scores not kept:", err)
			return nil, nil
		}
	}
	store, err := scores.Open(path)
	if errors.Is(err, scores.ErrNotFile) {
		return nil, err
	}
	if err != nil {
		fmt.Fprintln(stderr, "poolroids:", err)
	}
	return store, nil
}

// nameOf is the player's name of -name: name, cleaned (see playerName),
// or an error for a name of which nothing would show.
func nameOf(name string) (string, error) {
	p := playerName(name)
	if name != "" && p == displayname.Anonymous && !strings.EqualFold(strings.TrimSpace(name), displayname.Anonymous) {
		return "", fmt.Errorf("-name %q: nothing in it shows on a screen; want letters, digits or signs", name)
	}
	return p, nil
}

// playerName is the name local play shows and saves scores under: name,
// or the user's login name, cleaned by the one name rule to what a player
// may be called over SSH.
func playerName(name string) string {
	if name == "" {
		name = "player"
		if u, err := user.Current(); err == nil && u.Username != "" {
			name = u.Username
		} else if n := os.Getenv("USER"); n != "" {
			name = n
		}
	}
	return displayname.Clean(name, hub.MaxName)
}
