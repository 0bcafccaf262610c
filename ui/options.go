package ui

import (
	"fmt"

	"poolroids/game/clock"
	"poolroids/game/daily"
	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/levels"
	"poolroids/pool"
	"poolroids/ui/kitty"
)

// Options configures [Run]. The zero Options plays the shipped levels with
// seed 0 at 30 frames a second, keeps no high scores and uses press-only
// controls.
type Options struct {
	Levels   *levels.Set   // nil: levels.Default()
	Seed     uint64        // the game's seed
	Strategy pool.Strategy // both pools' starting strategy; "": the level set's
	Bullets  int           // bullet pool capacity; 0: the level set's
	Debris   int           // debris pool capacity; 0: the level set's
	FPS      int           // redraws a second, 1..MaxFPS (see CheckFPS); 0: DefaultFPS
	ASCII    bool          // force the ASCII fallback even where braille shows
	Stress   bool          // start at once with the stress autopilot filling the pools (see match.New)
	Scores   *scores.Store // high-score table; nil: none kept
	Player   string        // the player's name, shown in their game and stored with their high scores (an arena's seat: its own)
	Keys     *kitty.Keys   // held-key state from the kitty filter; nil or inactive: press-only mode
	// Arena, if set, is a seat in an arena: the session plays its ship in
	// the arena's shared world instead of a world of its own (Levels,
	// Seed, Strategy, Bullets, Debris and Stress are then the arena's
	// business). The caller gives the seat up after Run.
	Arena *hub.Seat
	// Live, if set, offers a solo game to watchers (see [play.Live]) for
	// as long as it runs, under a name made from Name ("": Player); the
	// player hides or opens it with o. In an arena it counts the arena's
	// watchers.
	Live   *play.Live
	Name   string
	Hidden bool // a solo game starts hidden from watchers
	// Watching, if set, is told true when a [Watch] starts and false when
	// it ends, so that a server's idle limit can spare a watcher, who has
	// no reason to type.
	Watching func(on bool)
	// Notice, if set, is asked at every frame for the server's notice to
	// the player (a drain's countdown), shown on the field's border when
	// the session has none of its own, and in the lobby; "": none. It runs
	// on the drawing goroutine: it must be quick, and should return a
	// string it keeps rather than make one.
	Notice func() string
	// Daily, if set, plays the daily game of that UTC day in place of a
	// game of Seed: the day's seed on Levels with their capacities, no
	// stress autopilot, a ghost beside the player (the day's best or
	// their own, g switches), and each game proven and ranked on the
	// daily board of Scores through Board, not on the high scores.
	Daily *daily.Day
	// Board proves daily games and their ghosts (one a server, shared
	// with its posts); nil: a daily game is neither ranked nor ghosted.
	Board *play.Board
	// DailyDir, if set, is where a daily game's replay is written, each
	// game a file (see [Result].Files).
	DailyDir string
	// Frame, if set, is told of every frame drawn: whether it came late
	// (more than two frame times after the one before), and how many
	// cells it sent (0 where package vt does not drive the terminal). It
	// runs on the drawing goroutine, so it must be quick; for metrics.
	Frame func(late bool, cells uint64)
	// Clock, if set, is the time the session keeps in place of the
	// system's: its frames, its game's steps, its notices, the lobby's
	// refresh (tests drive a session on a clock.Manual). How long a frame
	// or a step takes is measured on the system's clock all the same.
	Clock clock.Clock
}

// Result tells how a [Run] ended.
type Result struct {
	Score  int      // the best score of a game the player finished or quit unaided by the autopilot
	Reason string   // ReasonQuit, ReasonCanceled, ReasonError or ReasonPanic
	Files  []string // the daily games' replays written to Options.DailyDir, in order
}

// Why a Run ended.
const (
	ReasonQuit     = "quit"     // the player pressed q or Ctrl-C
	ReasonCanceled = "canceled" // the context was done
	ReasonError    = "error"    // reading the terminal failed (Run's error says why)
	ReasonPanic    = "panic"    // a bug: Run's error carries the panic and its stack
)

// The range of Options.FPS: [CheckFPS] is its one rule, which the
// commands' -fps flags follow too.
const (
	DefaultFPS = 30
	MaxFPS     = 240
)

const (
	minWidth  = 80 // smallest terminal the game is laid out for
	minHeight = 24
)

// target is which pool a strategy pick applies to.
type target uint8

const (
	targetBoth target = iota
	targetBullets
	targetDebris
	numTargets
)

var targetNames = [numTargets]string{"both pools", "bullets", "debris"}

// CheckFPS reports whether fps redraws a second are allowed: 1..MaxFPS.
// Its error says the range.
func CheckFPS(fps int) error {
	if fps < 1 || fps > MaxFPS {
		return fmt.Errorf("want 1..%d", MaxFPS)
	}
	return nil
}

// checkFPS sets opts.FPS's default or refuses it.
func checkFPS(opts *Options) error {
	if opts.FPS == 0 {
		opts.FPS = DefaultFPS
	}
	if err := CheckFPS(opts.FPS); err != nil {
		return fmt.Errorf("ui: fps %d: %w", opts.FPS, err)
	}
	return nil
}
