package ui

import (
	"context"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
)

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
	s.takeFn, s.sample1, s.feed = s.take, s.sampleView, s.addSample
	s.build()
	s.loop = newLoop(scr, s.screen, opts.FPS, s.frame, s.inputFailed)
	s.sample() // the panel shows the pools from the first frame
	return s, nil
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
	score := s.show.close()
	return Result{Score: score, Reason: s.life.reason, Files: s.files}, s.life.err
}
