package ui

import (
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/pool"
)

// strategyList is the tview.List of strategies, keyboard and mouse and
// all, whose cells are kept from one draw to the next: tview redraws every
// primitive on every frame, and drawing a List costs hundreds of
// allocations (tcell's SetContent makes a string per cell) where replaying
// its cells with Put costs none. It draws afresh when anything it shows may
// have changed: its place, focus, selection or scroll offsets, or (through
// valid) its items and title. On the session's screen, where its last
// frame stays, it does not even replay them then.
type strategyList struct {
	*tview.List
	g      *glyphs          // the session's (see session.take)
	listed [2]pool.Strategy // the bullets' and debris' strategies it shows
	title  string
	valid  bool
	state  listState
	cells  []listCell
	shown  shown
}

type listState struct {
	at             rect
	focus          bool
	current        int
	offset, hshift int
}

type listCell struct {
	cluster string
	look    tcell.Style
}

func (l *strategyList) Draw(scr tcell.Screen) {
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 { // squeezed out by the boxes above
		return
	}
	off, hshift := l.GetOffset()
	st := listState{rect{x, y, w, h}, l.HasFocus(), l.GetCurrentItem(), off, hshift}
	kept := keep(scr, &l.shown, rect{x, y, w, h})
	if l.valid && st == l.state {
		if kept {
			return
		}
		for j := range h {
			for i, c := range l.cells[j*w : (j+1)*w] {
				scr.Put(x+i, y+j, c.cluster, c.look)
			}
		}
		return
	}
	if l.valid && h != l.state.at.h {
		// A new height: scroll afresh, from the top to the selection, so
		// that a list grown back shows every item there is room for.
		l.SetOffset(0, hshift)
	}
	l.List.Draw(scr)
	st.offset, st.hshift = l.GetOffset() // Draw scrolls to the selection
	bst := borderStyle
	if st.focus {
		bst = focusStyle
	}
	drawBorder(scr, l.g, x, y, w, h, bst)
	putString(scr, x+1, y, w-2, l.title, titleStyle)
	l.cells = slices.Grow(l.cells[:0], w*h)[:w*h]
	for j := range h {
		for i := range w {
			c := &l.cells[j*w+i]
			c.cluster, c.look, _ = scr.Get(x+i, y+j)
		}
	}
	l.valid, l.state = true, st
}
