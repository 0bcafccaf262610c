package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/levels"
	"poolroids/pool"
	"poolroids/ui/kitty"
	"poolroids/ui/vt"
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
	Player   string        // name stored with a high score
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
	// Frame, if set, is told of every frame drawn: whether it came late
	// (more than two frame times after the one before), and how many
	// cells it sent (0 where package vt does not drive the terminal). It
	// runs on the drawing goroutine, so it must be quick; for metrics.
	Frame func(late bool, cells uint64)
}

// Result tells how a [Run] ended.
type Result struct {
	Score  int    // the best score of a game the player finished or quit unaided by the autopilot
	Reason string // ReasonQuit, ReasonCanceled, ReasonError or ReasonPanic
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

// mode is which screen the arena shows: the match's phase.
type mode = match.Phase

const (
	modeTitle = match.Title // the autopilot plays a demo under the title
	modePlay  = match.Play  // the player (or the stress autopilot) plays
	modeOver  = match.Over  // game over: the high-score table
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

// Run plays the game on screen until the player quits (q or Ctrl-C), ctx is
// done, or reading the terminal fails. screen must not be initialised yet:
// Run initialises it and always finalises it before it
// returns, which restores the terminal; when initialising fails (tcell
// knows no table for the locale's character set, say), Run returns that
// error and leaves the terminal as it was. The braille arena falls back to
// ASCII where the screen's character set is not UTF-8.
//
// The world steps at a fixed 60 Hz on a goroutine of its own; the screen is
// redrawn opts.FPS times a second and no more often (input shows at the
// next frame, however fast it comes), and only the cells that changed are
// sent to the terminal. Run leaves no
// goroutine or ticker behind.
// A panic in any of its goroutines ends the game with ReasonPanic and an
// error carrying the stack, returned once the screen is finalised. Options
// the game rejects (an unknown strategy, a bad capacity, a bad FPS) are an
// error before anything is drawn; the screen is then left untouched.
func Run(ctx context.Context, screen tcell.Screen, opts Options) (Result, error) {
	s, err := newSession(screen, opts)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

// session is one Run: the world, the widgets and the goroutines that drive
// them. Its [loop] runs on Run's goroutine and does all the drawing and key
// handling; the stepping goroutine shares the world with it under mu.
type session struct {
	opts     Options
	screen   *appScreen
	loop     *loop
	arena    *arena
	panel    *panel
	players  *players // an arena's players box; nil in a solo game
	list     *strategyList
	root     tview.Primitive
	fit      fit // the layout for the screen's size; touched only on the loop's goroutine
	ascii    bool
	playback *replayView // a replay's (RunReplay), which steps its own world: no match; nil in a game
	clock    time.Time   // origin of the press-only hold times

	// Touched only on the loop's goroutine.
	frames    uint64
	render    time.Duration // total time spent drawing frames
	lastFrame time.Time     // when the last frame was drawn, for Options.Frame
	sent      vt.Stats      // the screen's output at that frame

	// In an arena (Options.Arena) the world is shared: it is read only
	// under the arena's read lock (taken after mu, never before), and
	// changed only through the seat.
	seat   *hub.Seat
	solo   *play.Solo            // the game offered to watchers; set by startLoops
	watch  *play.Watcher         // the game the session watches, read-only (see Watch)
	whose  string                // whose game the watcher watches, for the header
	names  [game.MaxShips]string // the arena's players by slot, as last painted; the loop's goroutine only
	listed [2]pool.Strategy      // the strategies the list shows; the loop's goroutine only

	// game is the player's: it steps (a solo game) or follows the seat
	// under its own lock, taken after mu, never before.
	game  *play.Game
	input keyState // read by the goroutine that steps, under its own lock

	mu       sync.RWMutex // guards the fields below; watchers read them under RLock
	world    *game.World  // the world on screen; a solo game's is read under game's lock
	notice   string       // why a key did nothing, shown on the arena's border until noticeAt + noticeFor
	noticeAt time.Duration
	ask      rune // the key (q or x) whose question shows on the border until askAt + confirmFor; 0: none
	askAt    time.Duration
	target   target
	over     overText // the game-over screen's text
	view     view

	ctx        context.Context
	stop       chan struct{} // closed to stop the stepping goroutines
	loops      sync.WaitGroup
	supervised chan struct{} // closed when the supervisor has stopped everything
	endOnce    sync.Once
	quit       chan struct{} // closed by end
	reason     string
	err        error
}

func newSession(screen tcell.Screen, opts Options) (*session, error) {
	if err := checkFPS(&opts); err != nil {
		return nil, err
	}
	var s *session
	var g *play.Game
	sc := play.Scoring{Player: opts.Player, Scores: opts.Scores}
	if opts.Arena != nil {
		g = play.NewSeat(opts.Arena, sc)
	} else {
		var err error
		g, err = play.NewSolo(game.Config{
			Levels: opts.Levels, Seed: opts.Seed, Strategy: opts.Strategy,
			Bullets: opts.Bullets, Debris: opts.Debris,
		}, opts.Stress, sc, play.Hooks{
			Input:   func() (game.Input, bool) { return s.stepInput(time.Since(s.clock)) },
			Stepped: func(steps uint64) { s.stepped(steps) },
		})
		if err != nil {
			return nil, err
		}
	}
	var w *game.World
	g.View(func(v play.View) { w = v.World })
	s = newSessionOf(screen, opts, w, g, nil)
	return s, nil
}

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

// newSessionOf makes the session that shows world (g's; nil for a watch)
// or, with playback, a replay's, its widgets built.
func newSessionOf(screen tcell.Screen, opts Options, world *game.World, g *play.Game, playback *replayView) *session {
	s := &session{
		opts:       opts,
		seat:       opts.Arena,
		game:       g,
		playback:   playback,
		input:      keyState{kitty: opts.Keys},
		world:      world,
		clock:      time.Now(),
		stop:       make(chan struct{}),
		supervised: make(chan struct{}),
		quit:       make(chan struct{}),
	}
	s.screen = &appScreen{Screen: screen, failed: s.inputFailed, epoch: 1}
	s.build()
	s.loop = newLoop(s.screen, opts.FPS, s.frame)
	s.sample(0) // the panel shows the pools from the first frame
	return s
}

// run drives the session until it ends. See Run.
func (s *session) run(ctx context.Context) (Result, error) {
	s.ctx = ctx
	if err := s.screen.Init(); err != nil {
		return Result{}, fmt.Errorf("ui: starting the terminal: %w", err)
	}
	s.ascii = s.opts.ASCII || !utf8Charset(s.screen.CharacterSet())
	s.syncList()
	s.loop.root, s.loop.keys, s.loop.mouse = s.root, s.keys(), s.mouse()
	s.loop.focus(s.arena)
	s.startLoops()
	s.runLoop()
	s.screen.release()
	if s.solo != nil {
		s.solo.Remove()
	}
	if s.playback != nil {
		return Result{Reason: s.reason}, s.err
	}
	// However the player left (q, Ctrl-C, a closed connection), the game
	// in play goes on the score table if it counts.
	s.game.Close()
	return Result{Score: s.game.Best(), Reason: s.reason}, s.err
}

// runLoop runs the loop until the supervisor has stopped everything
// else. The loop finalises the screen before a panic in it goes on, so a
// recovered panic is reported with the terminal restored; the supervisor
// then stops the rest.
func (s *session) runLoop() {
	defer func() { <-s.supervised }()
	defer s.guard()
	s.loop.run(s.supervised)
}

// startLoops starts the stepping and supervisor goroutines.
func (s *session) startLoops() {
	s.loops.Add(1)
	// A game that steps elsewhere (a watched one, an arena) is sampled
	// every sampleEvery steps' time, as tick samples a solo game.
	sampling := sampleEvery * time.Second / game.TPS
	switch {
	case s.watch != nil:
		go s.every(sampling, func() bool { return s.watchTick(time.Since(s.clock)) })
	case s.seat != nil:
		s.seat.SetInput(s.arenaInput)
		go s.every(sampling, func() bool { return s.arenaTick(time.Since(s.clock)) })
	case s.playback != nil:
		go func() {
			defer s.loops.Done()
			defer s.guard()
			s.playback.g.Run(s.stop)
		}()
	default:
		s.offer()
		go func() {
			defer s.loops.Done()
			defer s.guard()
			s.game.Run(s.stop)
		}()
	}
	go s.supervise()
}

// supervise waits for the end, then stops the goroutines before the
// loop, which draws their game until they have stopped.
func (s *session) supervise() {
	defer close(s.supervised)
	var gone <-chan struct{} // the arena's or the watched game's end; never for a solo game
	switch {
	case s.watch != nil:
		gone = s.watch.Done()
	case s.seat != nil:
		gone = s.seat.Arena().Done()
	}
	select {
	case <-s.ctx.Done():
		s.end(ReasonCanceled, nil)
	case <-gone:
		if s.watch != nil {
			s.end(ReasonGone, nil)
		} else {
			s.end(ReasonCanceled, s.seat.Arena().Err())
		}
	case <-s.quit:
	}
	if s.seat != nil {
		s.seat.SetInput(nil)
	}
	close(s.stop)
	s.loops.Wait()
}

// inputFailed ends the session when reading the terminal failed: a
// failure as ctx ends is the end of the connection.
func (s *session) inputFailed(err error) {
	if s.ctx.Err() != nil {
		s.end(ReasonCanceled, nil)
	} else {
		s.end(ReasonError, fmt.Errorf("ui: reading the terminal: %w", err))
	}
}

// end records why the session ends (the first reason wins) and lets the
// supervisor stop it.
func (s *session) end(reason string, err error) {
	s.endOnce.Do(func() {
		s.reason, s.err = reason, err
		close(s.quit)
	})
}

// guard, deferred at the top of every goroutine and callback of the
// session, turns a panic into the end of the session.
func (s *session) guard() {
	if p := recover(); p != nil {
		s.end(ReasonPanic, fmt.Errorf("ui: panic: %v\n%s", p, debug.Stack()))
	}
}

// every calls f every d, as one of the session's loops, until the session
// stops or f reports false.
func (s *session) every(d time.Duration, f func() bool) {
	defer s.loops.Done()
	defer s.guard()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if !f() {
				return
			}
		}
	}
}

// tick takes one step of a solo game as a test steps it.
func (s *session) tick() { s.step(time.Since(s.clock)) }

// step steps a solo game once with the keys at now, as its Run does on
// the real clock (play.Hooks): tests step with it on their own.
func (s *session) step(now time.Duration) {
	if in, ok := s.stepInput(now); ok {
		s.game.Step(in)
	}
}

// stepInput is a solo game's keys for its next step at now, or false
// while the game waits (play.Hooks.Input).
func (s *session) stepInput(now time.Duration) (game.Input, bool) {
	return s.input.input(now, s.inGame())
}

// stepped samples the pools every sampleEvery steps (play.Hooks.Stepped).
func (s *session) stepped(steps uint64) {
	if steps%sampleEvery == 0 {
		s.mu.Lock()
		s.sample(time.Since(s.clock))
		s.mu.Unlock()
	}
}

// newGame shows what the match started (a new game, the title, a stress
// game in a world of its own) from a clean slate: no key held, the pools'
// figures from zero. The caller holds the lock.
func (s *session) newGame() {
	if s.seat == nil { // an arena's world is for good, and read without the lock
		s.game.View(func(v play.View) { s.world = v.World })
	}
	s.input.release()
	s.view.pools[bulletsPool] = poolView{}
	s.view.pools[debrisPool] = poolView{}
}

// sample records the pools' statistics for the panel. The caller holds the
// lock (or has the session to itself).
func (s *session) sample(now time.Duration) {
	switch {
	case s.seat != nil:
		ar := s.seat.Arena()
		ar.RLock()
		s.samplePools(ar.World(), ar.StepTime(), now)
		ar.RUnlock()
	case s.game != nil:
		s.game.View(func(v play.View) { s.samplePools(s.world, v.Step, now) })
	case s.playback != nil:
		s.playback.g.View(func(v play.ReplayView) { s.samplePools(v.World, v.StepTime, now) })
	}
	s.view.gen++
}

// samplePools records w's pools and the mean step time for the panel,
// read under the lock w steps under. The caller holds the session's lock.
func (s *session) samplePools(w *game.World, step time.Duration, now time.Duration) {
	s.view.pools[bulletsPool].sample(w.BulletStats(), now)
	s.view.pools[debrisPool].sample(w.Debris().Stats(), now)
	s.view.step = step
	s.view.gen++
}

// readWorld calls fn with the world on screen under the lock it is
// stepped under: a solo game's, an arena's, a replay's, or none for a
// watch, whose world the session reads itself. The caller holds the
// session's lock, which guards s.world.
func (s *session) readWorld(fn func(w *game.World)) {
	switch {
	case s.seat != nil:
		ar := s.seat.Arena()
		ar.RLock()
		defer ar.RUnlock()
	case s.game != nil:
		s.game.View(func(play.View) { fn(s.world) })
		return
	case s.playback != nil:
		s.playback.g.View(func(v play.ReplayView) { fn(v.World) })
		return
	}
	fn(s.world)
}

// copyView copies the latest sample into p when it is newer than p's.
func (s *session) copyView(p *panel) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.view.gen == p.gen {
		return false
	}
	p.v, p.gen = s.view, s.view.gen
	return true
}

// paint copies the world onto a's canvas and the header, with this
// session's notice, into a.hud.
func (s *session) paint(a *arena) {
	switch {
	case s.playback != nil:
		s.playback.paint(a)
	case s.watch != nil:
		s.paintWatch(a)
	case s.seat != nil:
		s.paintArena(a)
	default:
		s.paintSolo(a)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Since(s.clock)
	switch {
	case s.asking(now) != 0:
		a.hud.notice = questions[s.ask]
	case s.notice != "" && now-s.noticeAt < noticeFor:
		a.hud.notice = s.notice
	}
}

// paintSolo is paint in a solo game, under the session's lock (released
// by a panic too: see TestRunEnds).
func (s *session) paintSolo(a *arena) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a.hud = s.soloHUD(a)
}

// soloHUD paints a solo game's world on a and returns its header, under
// the game's lock. The caller holds the session's lock.
func (s *session) soloHUD(a *arena) hud {
	var h hud
	s.game.View(func(v play.View) { h = s.viewHUD(v, s.world, a) }) // the game's world, or a test's
	if s.solo != nil {
		h.watching, h.hidden = s.solo.Watchers(), !s.solo.Open()
	}
	return h
}

// viewHUD paints w, the world of a solo game's View v, on a and returns
// its header. The caller holds the session's lock.
func (s *session) viewHUD(v play.View, w *game.World, a *arena) hud {
	a.paintWorld(w)
	h := hud{
		level: w.Level().Name, score: w.Score(), lives: w.Lives(), wave: w.Wave(),
		high: v.High, mode: v.Phase, paused: w.Paused(), stress: v.Stress,
		over: s.over.of(v.Over, s.ascii),
	}
	if v.Phase == modePlay && !v.Assisted {
		h.high = max(h.high, w.Score())
	}
	return h
}

// paintArena is paint in an arena: the session's lock and then the
// arena's read lock, each held only while copying, one after the other,
// so that the arena's goroutine (which takes the session's lock for the
// keys) never waits for a whole paint.
func (s *session) paintArena(a *arena) {
	s.mu.Lock()
	var h hud
	var counts bool
	s.game.View(func(v play.View) {
		h = hud{high: v.High, mode: v.Phase, stress: v.Stress, over: s.over.of(v.Over, s.ascii)}
		counts = h.mode == modePlay && !v.Assisted
	})
	s.mu.Unlock()
	ar := s.seat.Arena()
	ar.RLock()
	w := ar.World()
	s.seatNames(ar)
	a.paintShared(ar, w)
	me := w.Player(s.seat.Slot())
	h.level, h.score, h.lives, h.wave = w.Level().Name, me.Score, me.Lives, w.Wave()
	ar.RUnlock()
	if counts {
		h.high = max(h.high, h.score)
	}
	h.watching = ar.Watchers()
	a.hud = h
}
