package ui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// loop is the event loop of a game session and of the lobby, in the
// place of tview.Application: it runs tview's widgets as the Application
// does (the root's Draw, its InputHandler and MouseHandler with a
// setFocus func, Focus and Blur), but draws on a clock of its own.
//
// An Application draws after every key, click and resize, and a game
// must draw at its frame rate whatever the input rate: a client pasting
// keys must not make the server draw for each one. So here input never
// draws: keys and clicks change the widgets and the game, and what they
// changed shows at the next tick of the frame clock, which draws fps
// times a second and at once when the loop starts. A resize
// shows at the next tick too (the frame func clears the screen when its
// size changed).
//
// A menu (the lobby) changes only with input and its data, so its loop
// is lazy: a tick draws only when something changed since the last frame
// (a key, a click, a resize, an update that changed what shows), and a
// tick with nothing to draw stops the clock. An idle menu then costs
// nothing, and the first change after a pause draws at once and starts
// the clock again: a burst of keys still draws at most one frame a tick.
//
// The loop's goroutine, run's, owns the surface and the widgets, and
// reads the Screen's events itself, from the queue the screen fills (a
// burst of keys is read in one go, without a switch between goroutines a
// key). Nothing waits on the loop: it stops when told to, and leaves the
// events it did not read in the queue, for the screen's next loop.
type loop struct {
	screen Screen
	sf     *surface
	root   tview.Primitive // the widgets, which take the keys and clicks
	fps    int
	frame  func() // draws the root, whole screen, and shows it
	// failed ends the loop's user: reading the screen failed.
	failed func(error)
	// keys, if set, sees every key before the root; nil: it took the key.
	keys func(*tcell.EventKey) *tcell.EventKey
	// mouse, if set, sees every mouse action before the root, as tview's
	// mouse capture does; a nil event: it took the action.
	mouse func(*tcell.EventMouse, tview.MouseAction) (*tcell.EventMouse, tview.MouseAction)
	lazy  bool // draw only what changed: see above
	// update, if set, runs on the loop every updateEvery (the lobby
	// reads its data again) and reports whether it changed what shows;
	// that shows at the next frame.
	update      func() bool
	updateEvery time.Duration

	focused  tview.Primitive
	setFocus func(tview.Primitive) // l.focus, made once: handlers take it with every event
	mice     mice
	dirty    bool // something changed since the last frame
}

// mice is what makes mouse actions of tcell's mouse events: where the
// mouse was, which buttons were down, the last click (for double clicks)
// and the primitive that captured the mouse (a drag).
type mice struct {
	x, y, downX, downY int
	buttons            tcell.ButtonMask
	click              time.Time
	capturing          tview.Primitive
}

// newLoop makes the loop that draws on sf, the surface of screen, fps
// times a second with frame; failed is told when reading the screen
// fails. Its root must be set before it runs, and its other options
// (keys, mouse, lazy, update) too if any.
func newLoop(screen Screen, sf *surface, fps int, frame func(), failed func(error)) *loop {
	l := &loop{screen: screen, sf: sf, fps: fps, frame: frame, failed: failed}
	l.setFocus = l.focus
	return l
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

// run draws a frame, then every tick of the frame clock (a lazy loop:
// every tick after a change), and hands the screen's events to the
// widgets, until done is closed. The screen must be started, and the
// loop's own until run returns.
func (l *loop) run(done <-chan struct{}) {
	l.draw()
	period := time.Second / time.Duration(l.fps)
	clock := time.NewTicker(period)
	defer clock.Stop()
	ticking := true
	var updates <-chan time.Time // nil, never ready, without update
	if l.update != nil {
		t := time.NewTicker(l.updateEvery)
		defer t.Stop()
		updates = t.C
	}
	events := l.screen.Events()
	for {
		select {
		case <-done:
			return
		case <-clock.C:
			if l.lazy && !l.dirty {
				clock.Stop() // idle: input and updates wake the loop
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
		case <-updates:
			if l.update() {
				l.dirty = true
			}
		}
		if !ticking && l.dirty { // the last frame was a tick or more ago
			l.draw()
			clock.Reset(period)
			ticking = true
		}
	}
}

// draw draws a frame of all that changed.
func (l *loop) draw() {
	l.dirty = false
	l.frame()
}

// handle hands one event to the widgets; none draws. A resize shows at
// the next frame. An interrupt carrying a func runs it on the loop, as
// tview's QueueUpdate does (tests look at the widgets so).
func (l *loop) handle(ev tcell.Event) {
	switch ev := ev.(type) {
	case *tcell.EventKey:
		l.dirty = true
		if l.keys != nil {
			if ev = l.keys(ev); ev == nil {
				return
			}
		}
		if !l.root.HasFocus() {
			return
		}
		if h := l.root.InputHandler(); h != nil {
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
		l.failed(ev)
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
		if l.mouse != nil {
			if ev, a = l.mouse(ev, a); ev == nil {
				return
			}
		}
		target := m.capturing
		if target == nil {
			target = l.root
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
		case time.Since(m.click) > tview.DoubleClickInterval:
			act(b.click)
			m.click = time.Now()
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
