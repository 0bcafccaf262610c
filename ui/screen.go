package ui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
)

// appScreen is the screen as tview sees it. It changes two things.
//
// It turns an input error into the end of the session instead of passing
// it on: tview would stop on it by itself while the frame goroutine may
// still be running.
//
// And it sends the terminal only the cells that changed since the last
// frame. tview clears the whole cell buffer before every draw, and tcell
// (v2.13) marks a cell for output whenever its content changes, even back
// to what the terminal already shows: so every cell that is not blank
// would be sent again on every frame, thousands of bytes a frame for a
// screen that does not move. Show remembers what each cell showed and
// marks the cells that hold it again as clean before tcell writes.
type appScreen struct {
	tcell.Screen
	s     *session
	shown []shownCell
	w, h  int
}

type shownCell struct {
	str string
	st  tcell.Style
}

// cellScreen is what tcell's screens (the terminal one and the simulation)
// offer beyond tcell.Screen: their cell buffer and its lock.
type cellScreen interface {
	GetCells() *tcell.CellBuffer
	Lock()
	Unlock()
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

func (e *appScreen) Show() {
	if cs, ok := e.Screen.(cellScreen); ok {
		cs.Lock()
		e.clean(cs.GetCells())
		cs.Unlock()
	}
	e.Screen.Show()
}

// clean marks as clean every cell that holds what it showed after the last
// Show. A new size forgets everything: tcell repaints it all then.
func (e *appScreen) clean(cb *tcell.CellBuffer) {
	w, h := cb.Size()
	if w != e.w || h != e.h {
		e.w, e.h = w, h
		e.shown = make([]shownCell, w*h)
	}
	for y := range h {
		row := e.shown[y*w : (y+1)*w]
		for x := range row {
			str, st, _ := cb.Get(x, y)
			if c := &row[x]; c.str == str && c.st == st {
				cb.SetDirty(x, y, false)
			} else {
				c.str, c.st = str, st
			}
		}
	}
}
