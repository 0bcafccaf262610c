package ui

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gdamore/tcell/v2"
)

// appScreen is the screen as tview sees it. It changes four things.
//
// It keeps the error of Init, which tview's SetScreen drops: a screen that
// could not start must not be drawn on or finalised (tcell panics on both).
//
// It turns an input error into the end of the session instead of passing
// it on: tview would stop on it by itself while the frame goroutine may
// still be running.
//
// And it keeps the last frame instead of clearing it. tview clears the
// whole cell buffer before every draw, and tcell (v2.13) marks a cell for
// output whenever its content changes, even back to what the terminal
// already shows: every cell that is not blank would be redrawn and sent
// again on every frame. So Clear clears only when the size changed (the
// too-small notice comes and goes with a size change too) and counts those
// clears in epoch; between two,
// the widgets draw over their last frame only the cells that change (see
// [session.keep]), and tcell sends only those.
//
// Last, Show does nothing after a draw that was skipped (tview draws after
// every input event; see [session.beforeDraw]).
type appScreen struct {
	tcell.Screen
	s        *session
	initErr  error
	epoch    uint64 // real clears so far; starts at 1, so that 0 is never current
	skipShow bool   // the next Show follows a skipped draw
	w, h     int    // the size at the last real clear
}

func (e *appScreen) Init() error {
	e.initErr = e.Screen.Init()
	return e.initErr
}

func (e *appScreen) PollEvent() tcell.Event {
	for {
		ev := e.Screen.PollEvent()
		err, ok := ev.(*tcell.EventError)
		if !ok {
			return ev
		}
		if e.s.ctx.Err() != nil {
			e.s.end(ReasonCanceled, nil)
		} else {
			e.s.end(ReasonError, fmt.Errorf("ui: reading the terminal: %w", err))
		}
	}
}

// utf8Charset reports whether name, tcell's name for a terminal's character
// set, is UTF-8: of the sets tcell can encode, the only one with braille.
func utf8Charset(name string) bool {
	return strings.EqualFold(name, "UTF-8") || strings.EqualFold(name, "utf8")
}

// Show sends the changed cells to the terminal, unless the draw was
// skipped: then nothing changed, and tcell would still scan every cell.
func (e *appScreen) Show() {
	if e.skipShow {
		e.skipShow = false
		return
	}
	e.Screen.Show()
}

// Clear clears the screen when its size changed since the last real
// clear; otherwise the next frame draws over this one.
func (e *appScreen) Clear() {
	w, h := e.Screen.Size()
	if w == e.w && h == e.h {
		return
	}
	e.Screen.Clear()
	e.w, e.h = w, h
	e.epoch++
}

// clearNow clears the screen at once, so that the widgets draw whole at
// their next draw: the layout changed. A screen never cleared has nothing
// to clear (and may not have started).
func (e *appScreen) clearNow() {
	if e.w == 0 && e.h == 0 {
		return
	}
	e.Screen.Clear()
	e.w, e.h = e.Screen.Size()
	e.epoch++
}

// putter is what draws cells: a tcell.Screen, or a cellPutter.
type putter interface {
	Put(x, y int, str string, st tcell.Style) (remain string, width int)
	Colors() int
}

// cellScreen is what tcell's own screens (the terminal's, the simulation)
// offer beyond tcell.Screen: the cell buffer their Put sets, and the lock
// it takes to do so.
type cellScreen interface {
	sync.Locker
	GetCells() *tcell.CellBuffer
}

// cellPutter puts cells straight into a screen's cell buffer, as tcell's
// Put does but without taking the screen's lock: the caller holds it
// while it draws many cells in a row.
type cellPutter struct {
	cells  *tcell.CellBuffer
	colors int // the screen's Colors, asked before the lock was taken
}

func (p *cellPutter) Put(x, y int, str string, st tcell.Style) (string, int) {
	return p.cells.Put(x, y, str, st)
}

func (p *cellPutter) Colors() int { return p.colors }

// shown is what a widget knows of its cells on the session's screen: the
// epoch and the place at which it last drew on it.
type shown struct {
	epoch uint64
	r     rect
}

// keep tells whether the widget of sh, now at r, may draw over its last
// frame only what changed since: it drew all of itself at r on the
// session's screen, which has not been cleared since. It records this
// draw, which must be whole when keep says false. Drawing on any other
// screen (a test's) makes the next draw on the session's screen whole.
func (s *session) keep(scr tcell.Screen, sh *shown, r rect) bool {
	if !s.mine(scr) {
		*sh = shown{}
		return false
	}
	ok := sh.epoch == s.screen.epoch && sh.r == r
	*sh = shown{s.screen.epoch, r}
	return ok
}

// mine tells whether scr is the session's screen.
func (s *session) mine(scr tcell.Screen) bool { return scr == tcell.Screen(s.screen) }

// blank is what a cleared cell holds (tcell's Clear).
const blank = " "
