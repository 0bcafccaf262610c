package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/pool"
)

// strategyList is the tview.List of strategies, keyboard and mouse and
// all, whose cells are kept from one draw to the next: drawing a List
// costs hundreds of allocations (tcell's SetContent makes a string per
// cell) where replaying its cells with Put costs none. Every frame draws
// it whole: afresh through tview when anything it shows may have
// changed (its place, focus, selection or scroll offsets, or, through
// valid, its items and title), else by replaying its cells.
type strategyList struct {
	*tview.List
	g      *glyphs          // the session's (see session.take)
	listed [2]pool.Strategy // the bullets' and debris' strategies it shows
	title  string
	valid  bool
	state  listState
	runs   []listRun // its cells as runs of one style, to draw again
}

type listState struct {
	at             rect
	focus          bool
	current        int
	offset, hshift int
}

// listRun is a row's cells of one style, from (at.x, at.y), at.w cells.
type listRun struct {
	at   rect
	text string
	look tcell.Style
}

func (l *strategyList) Draw(scr tcell.Screen) {
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 { // squeezed out by the boxes above
		return
	}
	off, hshift := l.GetOffset()
	st := listState{rect{x, y, w, h}, l.HasFocus(), l.GetCurrentItem(), off, hshift}
	if l.valid && st == l.state {
		for _, r := range l.runs {
			putString(scr, r.at.x, r.at.y, r.at.w, r.text, r.look)
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
	l.runs = l.runs[:0]
	var b strings.Builder
	for j := range h {
		for i := 0; i < w; {
			start, look := i, tcell.Style{}
			b.Reset()
			for i < w {
				str, cst, cw := scr.Get(x+i, y+j)
				if i > start && cst != look {
					break
				}
				look = cst
				b.WriteString(str)
				i += max(cw, 1)
			}
			l.runs = append(l.runs, listRun{rect{x + start, y + j, i - start, 1}, b.String(), look})
		}
	}
	l.valid, l.state = true, st
}
