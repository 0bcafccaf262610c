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
	"poolroids/game/input"
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
// Run initialises it and always finalises it before it returns, which
// restores the terminal; when initialising fails (tcell knows no table
// for the locale's character set, say), Run returns that error and leaves
// the terminal as it was. The braille arena falls back to ASCII where the
// screen's character set is not UTF-8.
//
// The world steps at a fixed 60 Hz on a goroutine of its own; the screen is
// redrawn opts.FPS times a second and no more often (input shows at the
// next frame, however fast it comes), and only the cells that changed are
// sent to the terminal. Run leaves no goroutine or ticker behind.
// A panic in any of its goroutines ends the game with ReasonPanic and an
// error carrying the stack, returned once the screen is finalised. Options
// the game rejects (an unknown strategy, a bad capacity, a bad FPS) are an
// error before anything is drawn; the screen is then left untouched.
func Run(ctx context.Context, screen tcell.Screen, opts Options) (Result, error) {
	return runOn(ctx, ownTerminal(screen, opts.Keys), opts)
}

// runOn is Run on scr.
func runOn(ctx context.Context, scr Screen, opts Options) (Result, error) {
	s, err := newPlayerSession(scr, opts)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

// newPlayerSession makes the session of Run on scr: a solo game, or the
// seat Options.Arena holds.
func newPlayerSession(scr Screen, opts Options) (*session, error) {
	if opts.Arena != nil {
		return newSession(scr, opts, newSeat)
	}
	return newSession(scr, opts, newSolo)
}

// session is one Run, Watch or RunReplay: the widgets, the frame loop and
// the show they show. Its [loop] runs on the caller's goroutine and does
// all the drawing and key handling; the show's goroutine steps or follows
// its game, which has a lock of its own. The lock order is the session's,
// then the game's, then an arena's.
type session struct {
	opts    Options
	show    show     // what the session shows, chosen once (see show)
	term    Screen   // the connection's
	screen  *surface // what the widgets draw on: term's cells
	loop    *loop
	arena   *arena
	panel   *panel
	players *players // an arena's players box, for a seat and an arena's watcher; nil elsewhere
	list    *strategyList
	root    tview.Primitive
	fit     fit        // the layout for the screen's size; the loop's goroutine only
	ascii   bool       // set as the screen starts
	clock   time.Time  // origin of the press-only hold times and the notices
	stats   drawStats  // the loop's goroutine only
	keys    input.Keys // the player's, written by the loop and the screen, read by the game's step

	mu     sync.Mutex // guards the fields below
	border border     // the notice or question on the field's border
	target target     // the pools a strategy pick switches
	view   view       // the panel's latest sample of the pools

	life life
}

// drawStats times the frames, for the panel and Options.Frame.
type drawStats struct {
	frames    uint64
	render    time.Duration // total time spent drawing frames
	lastFrame time.Time     // when the last frame was drawn
	sent      vt.Stats      // the screen's output at that frame
}

// life is how a session ends: the first reason given, and the
// goroutines stopped before the loop.
type life struct {
	ctx        context.Context
	stop       chan struct{} // closed to stop the show's goroutine
	loops      sync.WaitGroup
	supervised chan struct{} // closed when the supervisor has stopped everything
	endOnce    sync.Once
	quit       chan struct{} // closed by end
	reason     string
	err        error
}

// newSession makes the session of the show mk makes, its widgets built.
func newSession(scr Screen, opts Options, mk func(*session) (show, error)) (*session, error) {
	if err := checkFPS(&opts); err != nil {
		return nil, err
	}
	s := &session{
		opts:  opts,
		clock: time.Now(),
		life: life{
			stop:       make(chan struct{}),
			supervised: make(chan struct{}),
			quit:       make(chan struct{}),
		},
	}
	var err error
	if s.show, err = mk(s); err != nil {
		return nil, err
	}
	s.term, s.screen = scr, newSurface(scr)
	s.build()
	s.loop = newLoop(scr, s.screen, opts.FPS, s.frame, s.inputFailed)
	s.sample() // the panel shows the pools from the first frame
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

// run drives the session until it ends. See Run. A terminal of the
// session's own is started first and finalised at the end, which
// restores it before a panic is reported.
func (s *session) run(ctx context.Context) (Result, error) {
	s.life.ctx = ctx
	if t, ok := s.term.(*terminal); ok {
		if err := t.start(); err != nil {
			return Result{}, fmt.Errorf("ui: starting the terminal: %w", err)
		}
		if t.own {
			defer t.dev.Fini()
			defer t.release()
		}
	}
	s.ascii = s.opts.ASCII || !s.term.Display().UTF8
	s.term.Hold(&s.keys)
	defer s.term.Hold(nil)
	s.syncList()
	s.loop.root, s.loop.keys, s.loop.mouse = s.root, s.onKey, s.onMouse
	s.loop.focus(s.arena)
	s.start()
	s.runLoop()
	// However the player left (q, Ctrl-C, a closed connection), the game
	// in play goes on the score table if it counts.
	return Result{Score: s.show.close(), Reason: s.life.reason}, s.life.err
}

// runLoop runs the loop until the supervisor has stopped everything
// else; a panic in it is recovered, and the supervisor then stops the
// rest.
func (s *session) runLoop() {
	defer func() { <-s.life.supervised }()
	defer s.guard()
	s.loop.run(s.life.supervised)
}

// start starts the show's goroutine and the supervisor.
func (s *session) start() {
	s.life.loops.Add(1)
	go func() {
		defer s.life.loops.Done()
		defer s.guard()
		s.show.run(s.life.stop)
	}()
	go s.supervise()
}

// supervise waits for the end, then stops the show's goroutine before the
// loop, which draws its game until it has stopped.
func (s *session) supervise() {
	defer close(s.life.supervised)
	select {
	case <-s.life.ctx.Done():
		s.end(ReasonCanceled, nil)
	case <-s.show.gone():
		s.end(s.show.why())
	case <-s.life.quit:
	}
	close(s.life.stop)
	s.life.loops.Wait()
}

// inputFailed ends the session when reading the terminal failed: a
// failure as ctx ends is the end of the connection.
func (s *session) inputFailed(err error) {
	if s.life.ctx.Err() != nil {
		s.end(ReasonCanceled, nil)
	} else {
		s.end(ReasonError, fmt.Errorf("ui: reading the terminal: %w", err))
	}
}

// end records why the session ends (the first reason wins) and lets the
// supervisor stop it.
func (s *session) end(reason string, err error) {
	s.life.endOnce.Do(func() {
		s.life.reason, s.life.err = reason, err
		close(s.life.quit)
	})
}

// guard, deferred at the top of every goroutine and callback of the
// session, turns a panic into the end of the session.
func (s *session) guard() {
	if p := recover(); p != nil {
		s.end(ReasonPanic, fmt.Errorf("ui: panic: %v\n%s", p, debug.Stack()))
	}
}

// every calls f every d until stop is closed: how a show follows a game
// that steps elsewhere (an arena, a watched game).
func every(stop <-chan struct{}, d time.Duration, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			f()
		}
	}
}

// sampling is how often a show that follows a game elsewhere samples its
// pools: every sampleEvery steps' time, as a solo game samples its own.
const sampling = sampleEvery * time.Second / game.TPS

// now is the time on the session's clock.
func (s *session) now() time.Duration { return time.Since(s.clock) }

// sample records the pools' statistics for the panel, read from the show
// now (on the show's own clock for a replay).
func (s *session) sample() { s.sampleAt(s.now()) }

// sampleAt is sample at now on the session's clock.
func (s *session) sampleAt(now time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.show.sample(&s.view, now)
	s.view.gen++
}

// restart starts the rates of the pools the target switches afresh: their
// strategy changed. The caller holds the lock.
func (s *session) restart() {
	if s.target != targetDebris {
		s.view.pools[bulletsPool].restart()
	}
	if s.target != targetBullets {
		s.view.pools[debrisPool].restart()
	}
}

// samplePools records w's pools and the mean step time into v.
func samplePools(v *view, w *game.World, step, now time.Duration) {
	v.pools[bulletsPool].sample(w.BulletStats(), now)
	v.pools[debrisPool].sample(w.Debris().Stats(), now)
	v.step = step
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

// paint copies the show's world onto a's canvas and its header, with this
// session's notice or question, into a.hud.
func (s *session) paint(a *arena) {
	h := s.show.paint(a)
	s.mu.Lock()
	h.notice = s.border.text(s.now())
	s.mu.Unlock()
	if h.notice == "" && s.opts.Notice != nil {
		h.notice = s.opts.Notice()
	}
	a.hud = h
}

// glyphs is the session's set: ASCII where the screen is not UTF-8 or
// Options.ASCII asks for it.
func (s *session) glyphs() *glyphs {
	if s.ascii {
		return plainGlyphs
	}
	return utf8Glyphs
}
