package ui

import (
	"context"
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
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

// runOn is Run on scr: a connection of one session.
func runOn(ctx context.Context, scr Screen, opts Options) (Result, error) {
	s, err := newPlayerSession(scr, opts)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

// newPlayerSession makes the session of Run on a loop of scr's own.
func newPlayerSession(scr Screen, opts Options) (*session, error) {
	return newLoop(scr, opts.Clock).playerSession(opts)
}

// playerSession makes the session of Run on l: a solo game, or the seat
// Options.Arena holds.
func (l *loop) playerSession(opts Options) (*session, error) {
	if opts.Arena != nil {
		return l.session(opts, newSeat)
	}
	return l.session(opts, newSolo)
}

// newSession makes the session of the show mk makes on a loop of scr's
// own.
func newSession(scr Screen, opts Options, mk func(*session) (show, error)) (*session, error) {
	return newLoop(scr, opts.Clock).session(opts, mk)
}

// session makes the session of the show mk makes on l, its widgets
// built; it shows once [session.play] runs on l. Options the show
// rejects are an error before anything is drawn.
func (l *loop) session(opts Options, mk func(*session) (show, error)) (*session, error) {
	if err := checkFPS(&opts); err != nil {
		return nil, err
	}
	opts.Clock = l.clock
	s := &session{
		opts:  opts,
		loop:  l,
		term:  l.screen,
		clock: l.clock.Now(),
		keys:  &l.keys,
		life: life{
			stop: make(chan struct{}),
			quit: make(chan struct{}),
		},
	}
	var err error
	if s.show, err = mk(s); err != nil {
		return nil, err
	}
	s.screen = l.sf
	s.takeFn, s.sample1, s.feed = s.take, s.sampleView, s.addSample
	s.build()
	s.scene.View(s.sampleFirst) // the panel shows the pools from the first frame
	return s, nil
}

// run is the session alone on its loop: a connection of its own, as Run
// plays one.
func (s *session) run(ctx context.Context) (Result, error) {
	return s.loop.connect(ctx, s.play)
}

// play shows the session on its loop until it ends, stops the show's
// goroutine, and closes the show: however the player left (q, Ctrl-C, a
// closed connection), the game in play goes on the score table if it
// counts.
func (s *session) play() (Result, error) {
	l := s.loop
	l.keys.Release() // presses before the session act no more; keys a terminal reports held stay so
	s.ascii = s.opts.ASCII || !s.term.Display().UTF8
	s.syncList()
	s.start()
	l.show(s)
	close(s.life.stop)
	s.life.loops.Wait()
	score := s.show.close()
	return Result{Score: score, Reason: s.life.reason, Files: s.files}, s.life.err
}

// The session as the loop's root.

func (s *session) primitive() tview.Primitive { return s.root }
func (s *session) first() tview.Primitive     { return s.arena }
func (s *session) pace() pace                 { return pace{fps: s.opts.FPS} }
func (s *session) refresh() bool              { return false }
func (s *session) over() <-chan struct{}      { return s.life.quit }
func (s *session) gone() <-chan struct{}      { return s.show.gone() }

func (s *session) key(ev *tcell.EventKey) *tcell.EventKey { return s.onKey(ev) }

func (s *session) mouse(ev *tcell.EventMouse, a tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) {
	return s.onMouse(ev, a)
}

// stop ends the session as the loop saw it end: the context done, the
// show's game gone, the input failed (as ctx ends: the end of the
// connection), a panic.
func (s *session) stop(why ending, err error) {
	switch why {
	case endCanceled:
		s.end(ReasonCanceled, nil)
	case endGone:
		s.end(s.show.why())
	case endFailed:
		if s.loop.ctx.Err() != nil {
			s.end(ReasonCanceled, nil)
		} else {
			s.end(ReasonError, fmt.Errorf("ui: reading the terminal: %w", err))
		}
	case endPanic:
		s.end(ReasonPanic, fmt.Errorf("ui: panic: %w", err))
	}
}
