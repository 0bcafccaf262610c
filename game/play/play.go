// Package play is the headless layer under a screen: a [Game] is one
// player's [match.Match] with the lock it steps and is read under and,
// for a solo game, the goroutine that steps it. A front end draws what
// [Game.View] shows it and sends it commands ([Game.Start],
// [Game.TogglePause], [Game.SetStrategies], …); it never holds the lock
// itself.
//
// # Structure
//
//	front end (ui)                    play.Game                  match.Match
//	keys ─ commands ───────────────▶ mu ─ Start, Leave, … ───▶ the flow
//	keys ─ input.Keys ─────────────▶ read on each step (Run, or the arena's)
//	frame ─ View(fn) ──────────────▶ mu.RLock ─ fn(View) ──▶ world, phase,
//	                                    the pools' samples (recorded by the step)
//	                                    a game that ended ─▶ View.Over,
//	                                    saved (scores.Store) off the step
//
// Everything goes one way: the front end writes the player's keys into
// the Game's [input.Keys] (its [Controls]) as they come, and the step
// reads them; the step samples the pools, and the front end reads the
// samples in the View. Nothing in a Game calls its front end. The lock
// order is always the front end's, then the Game's, then an arena's.
//
// A solo game ([NewSolo]) steps on [Game.Run]'s goroutine. An arena seat
// ([NewSeat]) is stepped by its arena, which asks the Game for the seat's
// keys before each step: its Game only follows the seat's ship
// ([Game.Observe]) and has no Run.
//
// A replay being watched is a [Replay] ([NewReplay]) of the same shape:
// a replay.Watch under its own lock, ticked on [Replay.Run]'s goroutine,
// drawn through [Replay.View] and driven by commands (pause, speed, one
// step, seek, the pools' strategies) that it refuses with an error the
// front end shows. A seek plays on that goroutine in strides a tick, so a
// long one holds no frame up; the ticks sample the pools into its View,
// as a Game's steps do into its own.
//
// Every scene hands its front end the one [View]: a solo Game, a seat's
// (the arena's part read under the arena's lock, nested in the Game's),
// a game watched and a replay (its transport in View.Replay), so that
// one drawing code shows them all.
//
// # Watching
//
// A [Live] lists the games that may be watched: the arenas of a hub, and
// the solo Games their front ends register ([Live.Add]). A watcher's
// [Watcher] is its own read-only game: its [Watcher.View] is the watched
// Game's View, or an arena's, taken under that game's lock; what it
// watches (a solo game, an arena) is chosen once, by [Live.Watch]. Every
// screen, the player's and each watcher's, reads the pools' samples that
// the game's stepper recorded (a solo Game's steps, an arena's) from the
// View it draws; the registry never holds a Game's lock, and a Game
// never holds the registry's.

// # The daily game
//
// A solo Game of [Daily] plays the day's game (package game/daily): each
// game that ends is written to a file and proven and ranked on the daily
// board through a [Board], the one a server's posts go through too, in
// place of the high scores; the day's best game, or the player's own,
// flies beside it as a ghost, stepped with the world and drawn from the
// View (View.Ghost, View.Daily), its pools its own (View.GhostSamples).
//
// # Results
//
// A Game owns the result of the game that ended last, however it ended
// (lost, left, handed to the stress autopilot): its [Over] shows in the
// View, and a game that counts is saved to the Game's [scores.Store] on a
// goroutine of its own, since a save may wait on a disk's lock or a
// database's retries while the game steps on. [Game.Close] waits for it.
package play

import (
	"sync"
	"sync/atomic"
	"time"

	"poolroids/game"
	"poolroids/game/clock"
	"poolroids/game/hub"
	"poolroids/game/input"
	"poolroids/game/match"
	"poolroids/game/replay"
	"poolroids/game/scores"
	"poolroids/pool"
)

// maxCatchUp is how many steps a late tick may take at once to keep game
// time.
const maxCatchUp = 5

// StepSample is how many steps [View.Step] is the mean of: a quarter of a
// second's.
const StepSample = game.TPS / 4

// Controls is how a Game is played: the keys its player holds, which the
// Game reads on each step of its ship. The front end writes them (see
// package input) and never waits on the Game to take them.
type Controls struct {
	Keys  *input.Keys // nil: none held
	Clock clock.Clock // the time Run steps on; nil: clock.Real
}

// Scoring is whose a Game's games are and where those that count are
// saved. The zero Scoring saves none.
type Scoring struct {
	Player string        // the name on the scores and in the recordings
	Scores *scores.Store // the high-score table; nil: none kept
	// Daily, if set, makes a solo game the day's daily game: its games
	// are ranked on the daily board, not the high scores (see [Daily]).
	Daily *Daily
}

// Game is one player's match under its own lock. The zero Game is not
// usable; make one with NewSolo or NewSeat. Its methods are safe for
// concurrent use.
type Game struct {
	sc    Scoring
	keys  *input.Keys
	clock clock.Clock    // Run's
	seat  *hub.Seat      // an arena seat's, whose input the Game gives; nil: solo
	waits atomic.Bool    // the screen cannot show the game: its ship gets no keys
	saves sync.WaitGroup // the saves under way

	mu       sync.RWMutex
	m        *match.Match
	steps    uint64
	stepTime stepTimer        // the mean step, for View.Step
	samples  game.PoolSamples // the pools every game.SampleEvery steps, for View.Samples
	high     int              // the table's best score
	over     Over             // the game that ended last
	changes  uint64
	daily    *dailyState      // a daily game's; nil: not one
	ghostAt  game.PoolSamples // the ghost's pools every game.SampleEvery steps, for View.GhostSamples

	live atomic.Pointer[Solo] // the game offered to watchers (Live.Add); nil: none
}

// NewSolo makes a solo game of a world built from cfg, starting on the
// title or, with stress, under the stress autopilot (see match.New).
// It reads the table's best score, for the header.
func NewSolo(cfg game.Config, stress bool, sc Scoring, c Controls) (*Game, error) {
	m, err := match.New(cfg, stress)
	if err != nil {
		return nil, err
	}
	m.SetPlayer(sc.Player)
	g := newGame(m, sc, c)
	if sc.Daily != nil {
		m.SetDaily()
		g.daily = &dailyState{cfg: *sc.Daily, view: DailyView{Day: sc.Daily.Day}}
		g.saves.Add(1)
		go g.loadDaily()
	}
	return g, nil
}

// NewSeat makes the Game of seat, already playing in its arena: from now
// until Close, the arena takes the seat's keys from c before each step.
func NewSeat(seat *hub.Seat, sc Scoring, c Controls) *Game {
	g := newGame(match.NewSeat(seat), sc, c)
	g.seat = seat
	seat.SetInput(g.seatInput)
	return g
}

func newGame(m *match.Match, sc Scoring, c Controls) *Game {
	if c.Keys == nil {
		c.Keys = new(input.Keys)
	}
	g := &Game{sc: sc, keys: c.Keys, clock: c.Clock, m: m}
	if sc.Scores != nil {
		if top := sc.Scores.Top(1); len(top) > 0 {
			g.high = top[0].Score
		}
	}
	return g
}

// View is what a frame shows of a scene, whatever it is: a solo Game, an
// arena seat's Game, a game watched ([Watcher.View]) or a replay
// ([Replay.View]); every front end draws each the same way. Its World,
// and what its pointers and Arena lead to, are valid only within the
// View callback.
type View struct {
	World    *game.World
	Phase    match.Phase
	Stress   bool // the stress autopilot plays
	Assisted bool // the score does not count
	// Paused: a solo game is paused.
	Paused bool
	// High is the best score of the table and of the games that counted
	// here, the one in play excluded; a replay's, its best ship's score.
	High int
	// Over is the game that ended last, for the game-over screen
	// (Phase match.Over).
	Over Over
	// Ship is the slot whose score and lives the header shows: the
	// player's (0 in a world of one); -1: none (an arena watched, whose
	// players box shows the scores; an arena's replay).
	Ship int
	// Names are the players by slot, for the labels by their ships: an
	// arena's seats, an arena replay's players at its step; "" in a world
	// of one.
	Names [game.MaxShips]string
	// Arena is the arena the game is played in (a seat, an arena
	// watched), read under its lock: valid only within the callback; its
	// zero value, whose Arena is nil: none.
	Arena hub.ArenaView
	// Watchers is how many watch the game: an arena's, or a solo game's
	// offered to watchers ([Live.Add]), which may be Hidden.
	Watchers int
	Hidden   bool
	// Replay is a replay's transport; zero for a live game.
	Replay ReplayStatus
	// Step is the mean time a step took over the last StepSample steps:
	// a solo game's, an arena's, a replay's; 0 before.
	Step time.Duration
	// Steps is how many steps the Game took (a solo game's, paused ones
	// too; a replay's world step); Samples its pools every
	// game.SampleEvery of them, for a panel's figures: valid only within
	// the callback, as World. An arena's are its own (hub.ArenaView.Samples).
	Steps   uint64
	Samples *game.PoolSamples
	// Ghost is the ghost flying beside a daily game, nil for none, and
	// GhostSamples its world's pools, sampled as Samples: valid only
	// within the callback, as World. Daily is the daily game's state;
	// nil: not a daily game.
	Ghost        *replay.Ghost
	GhostSamples *game.PoolSamples
	Daily        *DailyView
}

// View calls fn with the Game as it stands, under its read lock: the
// world does not step meanwhile, so fn only copies what it draws. A
// seat's View is the arena's too, read under the arena's read lock
// taken under the Game's (the lock order is the Game's, then the
// arena's). A View is passed by value: a pointer to it would escape to
// the heap. It allocates nothing.
func (g *Game) View(fn func(v View)) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	v := View{
		World: g.m.World(), Phase: g.m.Phase(), Stress: g.m.Stress(), Paused: g.m.Paused(),
		Assisted: g.m.Assisted(), High: max(g.high, g.m.Best()),
		Over: g.over, Step: g.stepTime.mean, Steps: g.steps, Samples: &g.samples,
		Ghost: g.m.Ghost(), GhostSamples: &g.ghostAt,
	}
	if g.daily != nil {
		v.Daily = &g.daily.view
	}
	if g.seat == nil {
		if s := g.live.Load(); s != nil {
			v.Watchers, v.Hidden = s.Watchers(), !s.Open()
		}
		fn(v)
		return
	}
	ar := g.seat.Arena()
	v.Ship, v.Watchers = g.seat.Slot(), ar.Watchers()
	ar.View(func(av hub.ArenaView) {
		v.Arena, v.Names, v.Step, v.Samples = av, seated(av), av.StepTime(), av.Samples()
		fn(v)
	})
}

// seated is the names of the players of the arena av shows, by slot.
func seated(av hub.ArenaView) (names [game.MaxShips]string) {
	for i := range av.World().Ships() {
		names[i], _ = av.Seated(i)
	}
	return names
}

// Phase returns the screen the player is on.
func (g *Game) Phase() match.Phase {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.m.Phase()
}

// Stress reports whether the stress autopilot plays.
func (g *Game) Stress() bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.m.Stress()
}

// Paused reports whether a solo game is paused; an arena never is.
func (g *Game) Paused() bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.m.Paused()
}

// Run steps a solo game at game.TPS until stop is closed (see Steps), on
// the clock of its Controls.
func (g *Game) Run(stop <-chan struct{}) { StepsOn(stop, g.clock, g.step) }

// Steps calls step game.TPS times a second until stop is closed. It keeps
// game time: a tick that comes late takes the steps it missed, up to
// maxCatchUp.
func Steps(stop <-chan struct{}, step func()) { StepsOn(stop, nil, step) }

// StepsOn is Steps on clk (nil: clock.Real).
func StepsOn(stop <-chan struct{}, clk clock.Clock, step func()) {
	clk = clock.Or(clk)
	t := clk.NewTicker(time.Second / game.TPS)
	defer t.Stop()
	start, done := clk.Now(), 0
	for {
		select {
		case <-stop:
			return
		case now := <-t.C():
			due := int(now.Sub(start) * game.TPS / time.Second)
			for range min(due-done, maxCatchUp) {
				step()
			}
			done = due
		}
	}
}

// Tick is one tick of the clock Run keeps: a step with the player's
// keys, unless the game waits. Run calls it; a test may instead, on its
// own clock.
func (g *Game) Tick() { g.step() }

// Waiting reports whether the game waits (see Wait).
func (g *Game) Waiting() bool { return g.waits.Load() }

// step takes one step with the player's keys, unless the game waits.
func (g *Game) step() {
	if g.waits.Load() {
		g.keys.Step(false) // what is pressed meanwhile acts no more
		return
	}
	g.Step(g.keys.Step(g.inGame()))
}

// seatInput is an arena seat's keys, asked for by the arena's goroutine
// before each of its steps: none outside a game of the player's or while
// the Game waits (the arena plays on, but this ship waits for its
// player). It takes the keys' lock and a read lock of the Game's, never
// an arena's, and never reads the world.
func (g *Game) seatInput() game.Input {
	if g.waits.Load() {
		return g.keys.Step(false)
	}
	return g.keys.Step(g.inGame())
}

// inGame reports whether the player's keys play: a game in play, not
// under the stress autopilot.
func (g *Game) inGame() bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.m.Phase() == match.Play && !g.m.Stress()
}

// Wait holds the game while its screen cannot show it (too small, the key
// help up, a question on its border): a solo game does not step, a
// seat's ship gets no keys. Keys held when it starts or ends act no more.
func (g *Game) Wait(on bool) {
	if g.waits.Swap(on) != on {
		g.keys.Release()
	}
}

// Step steps the world once with in (see match.Match.Step), scores a
// game that ended in it, and samples the pools every game.SampleEvery
// steps (View.Samples). Run calls it; a test may instead, to step on its
// own clock.
func (g *Game) Step(in game.Input) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t0 := time.Now()
	res, ended := g.m.Step(in)
	g.stepTime.add(time.Since(t0), 1)
	g.steps++
	if ended {
		g.ended(res)
	}
	if g.steps%game.SampleEvery == 0 {
		g.samples.Add(g.m.World(), g.steps, g.stepTime.mean, [2]bool{})
		if gh := g.m.Ghost(); gh != nil {
			g.ghostAt.Add(gh.World(), g.steps, 0, [2]bool{})
		}
	}
}

// Start starts a new game from the title or the game-over screen and
// reports whether it did (match.Match.Start).
// Keys held for the last game act no more.
func (g *Game) Start() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.m.Start() {
		return false
	}
	g.keys.Release()
	return true
}

// Leave leaves the game in play, if there is one, scores it as a game
// that ended, and returns it (match.Match.Leave).
func (g *Game) Leave() (match.Result, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.leave()
}

// leave is Leave under the Game's lock.
func (g *Game) leave() (match.Result, bool) {
	var res match.Result
	var left bool
	g.m.Still(func() { res, left = g.m.Leave() })
	if left {
		g.ended(res)
	}
	return res, left
}

// Close leaves the game in play, scoring it, and waits for the saves
// under way: the player is gone. A seat's keys are no longer given to its
// arena. The Game may still be read.
func (g *Game) Close() {
	if g.seat != nil {
		g.seat.SetInput(nil)
	}
	g.Leave()
	g.saves.Wait()
}

// Observe follows an arena seat's ship, and returns and scores its game
// if it just ended (match.Match.Observe), letting its keys go; a new
// game asked for in the game-over screen's hold starts once the hold is
// over.
func (g *Game) Observe() (match.Result, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var res match.Result
	var ended bool
	g.m.Still(func() { res, ended = g.m.Observe() })
	if ended {
		g.ended(res)
		g.keys.Release()
	}
	g.m.StartDue() // the arena's lock is not held: a seat rejoins under it
	return res, ended
}

// ToggleStress starts or stops the stress autopilot
// (match.Match.ToggleStress). The player's game it takes over is left
// first, and scored as any game the player leaves; the keys held for it
// act no more. Where the autopilot may not play (an arena, a daily game)
// it changes nothing and returns why (match.Match.CanStress).
func (g *Game) ToggleStress() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.m.CanStress(); err != nil {
		return err
	}
	g.leave()
	g.keys.Release()
	return g.m.ToggleStress()
}

// TogglePause pauses or resumes a game in play and reports whether it did
// (match.Match.TogglePause): the keys held act no more.
func (g *Game) TogglePause() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.m.TogglePause() {
		return false
	}
	g.keys.Release()
	return true
}

// SetStrategies switches the pools ("" keeps a pool's); in an arena only
// its creator may (match.Match.SetStrategies).
func (g *Game) SetStrategies(bullets, debris pool.Strategy) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.SetStrategies(bullets, debris)
}

// Best returns the best score of the games that counted.
func (g *Game) Best() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.m.Best()
}
