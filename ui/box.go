package ui

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/ui/vt"
)

// A widget draws all of itself every frame, and the buffer sends only
// what changed: what drawing costs is then making and comparing cells.
// So the parts drawn the same frame after frame (a box's border and
// title, the overlay's lines) are made once, when they change, as rows
// of the buffer's own cells (textLine), and set as they are; and a box
// whose sides the buffer holds as it drew them (vt.Frame.Holds) draws
// nothing.

// box is a widget's single-line border, with text on its top row (a
// title, and one at its right end) and on its bottom row (a badge).
type box struct {
	top, bottom edge
	left, right cellOf // the sides' cell

	// The box as last drawn on a surface's buffer (on), its four sides
	// stamped key there (see vt.Frame.Stamp).
	made boxOf
	on   *vt.Frame
	key  vt.Key
}

// boxOf is what a box shows.
type boxOf struct {
	g                   *glyphs
	r                   rect
	st                  tcell.Style
	at                  int
	title, right, badge string
}

// draw draws the box r in style st: title (in titleStyle) from the
// column at cells right of the corner, right (likewise) ending one cell
// before the other corner, badge (in badgeStyle) where title would be on
// the bottom row. Each is cut to fit. A box whose sides hold it as it
// was drawn last draws nothing.
func (b *box) draw(scr tcell.Screen, g *glyphs, r rect, st tcell.Style, at int, title, right, badge string) {
	if r.w < 2 || r.h < 2 {
		putString(scr, r.x+at, r.y, r.w-2*at, title, titleStyle)
		return
	}
	m := boxOf{g, r, st, at, title, right, badge}
	sf, _ := scr.(*surface)
	if sf != nil && sf.f == b.on && m == b.made && b.sides(sf.f.Holds) {
		return
	}
	b.top.draw(scr, r.x, r.y, edgeOf{g, r.w, at, g.tl, g.tr, title, right, st, titleStyle})
	b.bottom.draw(scr, r.x, r.y+r.h-1, edgeOf{g, r.w, at, g.bl, g.br, badge, "", st, badgeStyle})
	b.left.line(scr, r.x, r.y+1, 0, 1, r.h-2, g.v, st)
	b.right.line(scr, r.x+r.w-1, r.y+1, 0, 1, r.h-2, g.v, st)
	if sf != nil {
		b.made, b.on, b.key = m, sf.f, sf.f.NewKey()
		b.sides(func(x, y, w, h int, k vt.Key) bool { sf.f.Stamp(x, y, w, h, k); return true })
	}
}

// sides calls do with each side of the box as made, as an area and the
// box's key, while it returns true, and tells whether it did for all.
func (b *box) sides(do func(x, y, w, h int, k vt.Key) bool) bool {
	r := b.made.r
	return do(r.x, r.y, r.w, 1, b.key) && do(r.x, r.y+r.h-1, r.w, 1, b.key) &&
		(r.h == 2 || do(r.x, r.y+1, 1, r.h-2, b.key) && do(r.x+r.w-1, r.y+1, 1, r.h-2, b.key))
}

// edge is a box's top or bottom row, formatted when what it shows
// changes.
type edge struct {
	l    textLine
	made edgeOf
}

// edgeOf is what an edge shows: w cells in st from corner cl to corner
// cr, left (in tst) from the column at, right (in tst) ending one cell
// before cr.
type edgeOf struct {
	g                   *glyphs
	w, at               int
	cl, cr, left, right string
	st, tst             tcell.Style
}

// draw draws the edge m at (x, y), formatting it first where it showed
// other text.
func (e *edge) draw(scr tcell.Screen, x, y int, m edgeOf) {
	if m != e.made {
		e.made = m
		l, g := &e.l, m.g
		l.reset()
		l.style(m.st).str(m.cl)
		n := 1 // the cells formatted
		for ; n < min(m.at, m.w-1); n++ {
			l.str(g.h)
		}
		left := cutCells(m.left, m.w-2*m.at)
		l.style(m.tst).str(left).style(m.st)
		n += utf8.RuneCountInString(left)
		if m.right != "" {
			for ; n < m.w-2-utf8.RuneCountInString(m.right); n++ {
				l.str(g.h)
			}
			right := cutCells(m.right, m.w-2-n)
			l.style(m.tst).str(right).style(m.st)
			n += utf8.RuneCountInString(right)
		}
		for ; n < m.w-1; n++ {
			l.str(g.h)
		}
		l.str(m.cr).settle()
	}
	e.l.draw(scr, x, y, m.w)
}

// cutCells is s cut to n cells, one a rune.
func cutCells(s string, n int) string {
	for i := range s {
		if n <= 0 {
			return s[:i]
		}
		n--
	}
	return s
}
