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
// a click picks the item it shows. Its items' texts are set through
// setItem, which counts them, so that a frame need not read them.
type strategyList struct {
	*tview.List
	g      *glyphs          // the session's (see session.take)
	listed [2]pool.Strategy // the bullets' and debris' strategies it shows
	title  string
	valid  bool // the items are as listed: a new height scrolls afresh only then
	h      int  // the height at the last draw
	items  int  // counts the items' texts set (setItem)
	texts  []string
	rows   textLines
	rowsOf listRows // what rows were formatted from
	box    box
}

// listRows is what the list's rows show: the items (as set items times)
// from off, the current one, the shift, the width and the rows shown.
type listRows struct {
	off, cur, hshift, w, n, items int
}

// setItem sets item i's text.
func (l *strategyList) setItem(i int, text string) {
	l.SetItemText(i, text, "")
	l.items++
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
	if l.valid && h != l.h {
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
	l.box.draw(scr, l.g, rect{x, y, w, h}, bst, 1, l.title, "", "")

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
	l.format(listRows{off: off, cur: cur, hshift: hshift, w: iw, n: rows, items: l.items})
	l.rows.draw(scr, ix, iy, iw, rows)
	l.SetOffset(off, hshift)
}

// format formats the rows of r, unless they show it already: each item's
// text, then the background (the selected item's line in its style).
func (l *strategyList) format(r listRows) {
	if r == l.rowsOf && l.rows.lines != nil {
		return
	}
	n := l.GetItemCount()
	l.texts = l.texts[:0]
	for i := range n {
		text, _ := l.GetItemText(i)
		l.texts = append(l.texts, text)
	}
	l.rowsOf = r
	if len(l.rows.lines) < r.n {
		l.rows = newTextLines(r.n)
	}
	for j := range r.n {
		row, i := l.rows.next(), r.off+j
		st := listBackground
		if i < n {
			if st = listItemStyle; i == r.cur {
				st = listSelected
			}
			row.style(st).str(skipCells(l.texts[i], r.hshift))
			if i != r.cur {
				st = listBackground
			}
		}
		row.style(st)
		row.b = pad(row.b, 0, r.w)
	}
	l.rows.settle()
}

// skipCells is s without its first n cells (one a rune).
func skipCells(s string, n int) string {
	for ; n > 0 && s != ""; n-- {
		_, size := utf8.DecodeRuneInString(s)
		s = s[size:]
	}
	return s
}
