package ui

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/pool"
)

// strategyList is the tview.List of strategies: tview's for its items,
// selection, keys and mouse, but drawn from them here, every frame, in
// the session's glyphs: tview's own Draw costs hundreds of allocations
// (tcell's SetContent makes a string per cell). It scrolls as tview's
// List without secondary texts does, and hands tview the offset, so that
// a click picks the item it shows.
type strategyList struct {
	*tview.List
	g      *glyphs          // the session's (see session.take)
	listed [2]pool.Strategy // the bullets' and debris' strategies it shows
	title  string
	valid  bool // the items are as listed: a new height scrolls afresh only then
	h      int  // the height at the last draw
}

// The list's looks, as tview's List draws them: its background, an
// item's text, the selected item's line.
var (
	listBackground = tcell.StyleDefault.Background(tview.Styles.PrimitiveBackgroundColor)
	listItemStyle  = tcell.StyleDefault.Foreground(tview.Styles.PrimaryTextColor).Background(tview.Styles.PrimitiveBackgroundColor)
	listSelected   = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow)
)

func (l *strategyList) Draw(scr tcell.Screen) {
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 { // squeezed out by the boxes above
		return
	}
	off, hshift := l.GetOffset()
	if l.valid && l.h != 0 && h != l.h {
		// A new height: scroll afresh, from the top to the selection, so
		// that a list grown back shows every item there is room for.
		off = 0
	}
	l.valid, l.h = true, h
	if w < 3 || h < 3 { // a border and nothing inside, or less
		for j := range h {
			line(scr, x, y+j, 1, 0, w, blank, listBackground)
		}
	}
	bst := borderStyle
	if l.HasFocus() {
		bst = focusStyle
	}
	drawBorder(scr, l.g, x, y, w, h, bst)
	putString(scr, x+1, y, w-2, l.title, titleStyle)

	// The items inside the border (tview's padding), as tview's List
	// scrolls them, as far as the screen goes; the background after them
	// (the selected item's line in its style) and under them.
	ix, iy, iw, ih := x+1, y+1, w-2, h-2
	if ih <= 0 || iw <= 0 {
		l.SetOffset(off, hshift)
		return
	}
	cur, n := l.GetCurrentItem(), l.GetItemCount()
	if cur < off {
		off = cur
	} else if cur-off >= ih {
		off = cur + 1 - ih
	}
	rows := ih
	if _, sh := scr.Size(); iy+rows > sh {
		rows = max(sh-iy, 0)
	}
	// tview keeps no item out of view: a shift too far comes back.
	for hshift = max(hshift, 0); hshift > 0; {
		widest := 0
		for i := off; i < n && i-off < rows; i++ {
			text, _ := l.GetItemText(i)
			widest = max(widest, min(utf8.RuneCountInString(skipCells(text, hshift)), iw))
		}
		if widest >= iw {
			break
		}
		hshift = max(hshift-(iw-widest), 0)
	}
	for j := range rows {
		i, drawn, st := off+j, 0, listBackground
		if i < n {
			text, _ := l.GetItemText(i)
			if st = listItemStyle; i == cur {
				st = listSelected
			}
			drawn = putString(scr, ix, iy+j, iw, skipCells(text, hshift), st)
			if i != cur {
				st = listBackground
			}
		}
		line(scr, ix+drawn, iy+j, 1, 0, iw-drawn, blank, st)
	}
	l.SetOffset(off, hshift)
}

// skipCells is s without its first n cells (one a rune).
func skipCells(s string, n int) string {
	for ; n > 0 && s != ""; n-- {
		_, size := utf8.DecodeRuneInString(s)
		s = s[size:]
	}
	return s
}
