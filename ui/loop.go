package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game/clock"
	"poolroids/game/input"
)

// loop is a connection's one event loop, in the place of
// tview.Application: made once by the entry point (Run, Watch, RunReplay,
// PlayLobby), it shows one root after another on the connection's Screen
// (the lobby, a session, the lobby…) without starting anything again: its
// surface, its clock, the player's held keys, the mouse's state and the
// focus go from one root to the next. It runs tview's widgets as the
// Application does (the root's Draw, its InputHandler and MouseHandler
// with a setFocus func, Focus and Blur), but draws on a clock of its own.
//
// An Application draws after every key, click and resize, and a game
// must draw at its frame rate whatever the input rate: a client pasting
// keys must not make the server draw for each one. So here input never
// draws: keys and clicks change the widgets and the game, and what they
// changed shows at the next tick of the frame clock, which draws fps
// times a second and at once when a root shows. A resize shows at the
// next tick too (a frame clears the screen when its size changed).
//
// A menu (the lobby) changes only with input and its data, so its pace
// is lazy: a tick draws only when something changed since the last frame
// (a key, a click, a resize, a refresh that changed what shows), and a
// tick with nothing to draw stops the clock. An idle menu then costs
// nothing, and the first change after a pause draws at once and starts
// the clock again: a burst of keys still draws at most one frame a tick.
//
// The loop's goroutine, the entry point's, owns the surface and the
// widgets, and reads the Screen's events itself, from the queue the
// screen fills (a burst of keys is read in one go, without a switch
// between goroutines a key). It also watches how a root ends (ctx, what
// the root shows gone, the input failed, a panic): no other goroutine
// waits on it. Between two roots the events wait in the screen's queue
// for the next.
type loop struct {
	ctx    context.Context
	screen Screen
	sf     *surface
	clock  clock.Clock
	keys   input.Keys // the player's, written by the loop and the screen (Hold), read by the game's step

	r        root            // the root shown
	focused  tview.Primitive // the primitive with the keys
	setFocus func(tview.Primitive)
	mice     mice
	dirty    bool // something changed since the last frame
}

// root is what the loop shows: the lobby or a session.
type root interface {
	// primitive is the widgets, which take the keys and clicks; first
	// the one that has the keys when the root shows.
	primitive() tview.Primitive
	first() tview.Primitive
	pace() pace
	// key sees every key before the widgets; nil: it took the key.
	key(ev *tcell.EventKey) *tcell.EventKey
	// mouse sees every mouse action before the widgets, as tview's mouse
	// capture does; a nil event: it took the action.
	mouse(ev *tcell.EventMouse, a tview.MouseAction) (*tcell.EventMouse, tview.MouseAction)
	// frame draws the root, whole screen, and shows it.
	frame()
	// refresh runs every pace.refreshes: the lobby reads its data again. It
	// reports whether that changed what shows, which then shows at the
	// next frame.
	refresh() bool
	// over is closed when the root is done; gone when what it shows
	// ended by itself (nil: never), after which the loop ends it.
	over() <-chan struct{}
	gone() <-chan struct{}
	// stop ends the root, as the loop saw it end: over is closed when it
	// returns (an earlier end stands).
	stop(why ending, err error)
}

// pace is how a root is drawn and refreshed.
type pace struct {
	fps       int
	lazy      bool          // draw only after a change: see loop
	refreshes time.Duration // how often to refresh; 0: never
}

// ending is why the loop ends a root.
type ending uint8

const (
	endCanceled ending = iota // the connection's context is done
	endGone                   // what the root shows ended by itself
	endFailed                 // reading the screen failed: err says how
	endPanic                  // the root panicked: err has the panic and its stack
)

// mice is what makes mouse actions of tcell's mouse events: where the
// mouse was, which buttons were down, the last click (for double clicks)
// and the primitive that captured the mouse (a drag).
type mice struct {
	x, y, downX, downY int
	buttons            tcell.ButtonMask
	click              time.Time
	capturing          tview.Primitive
}

// newLoop makes the loop of a connection on screen, on clk (nil:
// clock.Real). It draws on screen's cells once [loop.connect] runs.
func newLoop(screen Screen, clk clock.Clock) *loop {
	l := &loop{ctx: context.Background(), screen: screen, sf: newSurface(screen), clock: clock.Or(clk)}
	l.setFocus = l.focus
	return l
}

// connect runs play, the connection's life, on the loop, until ctx is
// done or play returns. It starts the screen first (a terminal's Init,
// the first time: "ui: starting the terminal" if it fails) and has it
// report the held keys; then it unhooks them, gives a terminal tcell's
// cells back, and finalises a terminal of the connection's own (Run,
// Watch, RunReplay), which restores it before a panic is reported.
func (l *loop) connect(ctx context.Context, play func() (Result, error)) (Result, error) {
	l.ctx = ctx
	if t, ok := l.screen.(*terminal); ok {
		if err := t.start(); err != nil {
			return Result{}, fmt.Errorf("ui: starting the terminal: %w", err)
		}
		if t.own {
			defer t.dev.Fini()
		}
		defer t.release()
	}
	l.screen.Hold(&l.keys)
	defer l.screen.Hold(nil)
	return play()
}

// focus gives the keys to p: Blur for the primitive that had them,
// Focus for p (which may pass them on to a child).
func (l *loop) focus(p tview.Primitive) {
	if l.focused != nil {
		l.focused.Blur()
	}
	l.focused = p
	l.sf.HideCursor()
	if p != nil {
		p.Focus(l.setFocus)
	}
}

// show shows r until it is over: it draws a frame at once, then every
// tick of the frame clock (a lazy pace: every tick after a change), and
// hands the screen's events to r, until r ends by itself or the loop
// ends it: the connection's context done, what r shows gone, reading the
// screen failed, or r panicked (recovered here).
func (l *loop) show(r root) {
	l.r, l.dirty = r, false
	l.mice.capturing = nil // a drag of the root before
	l.focus(r.first())
	defer func() {
		if p := recover(); p != nil {
			r.stop(endPanic, fmt.Errorf("%v\n%s", p, debug.Stack()))
		}
	}()
	pc := r.pace()
	period := time.Second / time.Duration(pc.fps)
	l.draw()
	frames := l.clock.NewTicker(period)
	defer frames.Stop()
	ticking := true
	var refresh <-chan time.Time // nil, never ready, without a refresh
	if pc.refreshes > 0 {
		t := l.clock.NewTicker(pc.refreshes)
		defer t.Stop()
		refresh = t.C()
	}
	events, over, gone := l.screen.Events(), r.over(), r.gone()
	for {
		select {
		case <-over:
			return
		case <-l.ctx.Done():
			r.stop(endCanceled, nil)
			return
		case <-gone:
			r.stop(endGone, nil)
			return
		case <-frames.C():
			if pc.lazy && !l.dirty {
				frames.Stop() // idle: input and refreshes wake the loop
				ticking = false
				continue
			}
			l.draw()
		case ev, ok := <-events:
			if !ok { // the screen ended: nothing more comes
				events = nil
				continue
			}
			l.handle(ev)
		case <-refresh:
			if r.refresh() {
				l.dirty = true
			}
		}
		if !ticking && l.dirty { // the last frame was a tick or more ago
			l.draw()
			frames.Reset(period)
			ticking = true
		}
	}
}

// draw draws a frame of the root shown.
func (l *loop) draw() {
	l.dirty = false
	l.r.frame()
}

// handle hands one event to the root shown; none draws. A resize shows
// at the next frame. An interrupt carrying a func runs it on the loop,
// as tview's QueueUpdate does (tests look at the widgets so).
func (l *loop) handle(ev tcell.Event) {
	switch ev := ev.(type) {
	case *tcell.EventKey:
		l.dirty = true
		if ev = l.r.key(ev); ev == nil {
			return
		}
		p := l.r.primitive()
		if !p.HasFocus() {
			return
		}
		if h := p.InputHandler(); h != nil {
			h(ev, l.setFocus)
		}
	case *tcell.EventMouse:
		l.dirty = true
		l.mice.fire(l, ev)
	case *tcell.EventResize:
		l.dirty = true
	case *tcell.EventInterrupt:
		l.dirty = true
		if f, ok := ev.Data().(func()); ok {
			f()
		}
	case *tcell.EventError:
		l.r.stop(endFailed, ev)
	}
}

// The actions of each mouse button, as tview's Application makes them.
var mouseButtons = [...]struct {
	button                  tcell.ButtonMask
	down, up, click, dclick tview.MouseAction
}{
	{tcell.ButtonPrimary, tview.MouseLeftDown, tview.MouseLeftUp, tview.MouseLeftClick, tview.MouseLeftDoubleClick},
	{tcell.ButtonMiddle, tview.MouseMiddleDown, tview.MouseMiddleUp, tview.MouseMiddleClick, tview.MouseMiddleDoubleClick},
	{tcell.ButtonSecondary, tview.MouseRightDown, tview.MouseRightUp, tview.MouseRightClick, tview.MouseRightDoubleClick},
}

var mouseWheels = [...]struct {
	button tcell.ButtonMask
	action tview.MouseAction
}{
	{tcell.WheelUp, tview.MouseScrollUp},
	{tcell.WheelDown, tview.MouseScrollDown},
	{tcell.WheelLeft, tview.MouseScrollLeft},
	{tcell.WheelRight, tview.MouseScrollRight},
}

// fire makes the mouse actions of ev, as tview's Application does (a
// move, a button down or up, a click or double click where the button
// went down, a wheel), and hands each to l's mouse capture and then to
// the primitive that captured the mouse, else the root.
func (m *mice) fire(l *loop, ev *tcell.EventMouse) {
	x, y := ev.Position()
	buttons := ev.Buttons()
	moved := x != m.downX || y != m.downY
	changed := buttons ^ m.buttons
	down := false
	act := func(a tview.MouseAction) {
		if ev == nil { // taken by the capture
			return
		}
		if ev, a = l.r.mouse(ev, a); ev == nil {
			return
		}
		target := m.capturing
		if target == nil {
			target = l.r.primitive()
		}
		m.capturing = nil
		if h := target.MouseHandler(); h != nil {
			_, m.capturing = h(a, ev, l.setFocus)
		}
	}
	if x != m.x || y != m.y {
		act(tview.MouseMove)
		m.x, m.y = x, y
	}
	for _, b := range mouseButtons {
		if changed&b.button == 0 {
			continue
		}
		if buttons&b.button != 0 {
			act(b.down)
			down = true
			continue
		}
		act(b.up)
		switch {
		case moved, ev == nil: // no click where the button went down, or the up was taken
		case l.clock.Now().Sub(m.click) > tview.DoubleClickInterval:
			act(b.click)
			m.click = l.clock.Now()
		default:
			act(b.dclick)
			m.click = time.Time{}
		}
	}
	for _, w := range mouseWheels {
		if buttons&w.button != 0 {
			act(w.action)
		}
	}
	m.buttons = buttons
	if down {
		m.downX, m.downY = x, y
	}
}
