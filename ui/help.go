package ui

import (
	"poolroids/game/play"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// The keys the help line always shows, at its right end.
var (
	helpHelp  = helpItem{"?", "help"}
	helpQuit  = helpItem{"q", "quit"}
	keyStyle  = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	helpStyle = tcell.StyleDefault.Foreground(tcell.ColorSilver)
)

func (it helpItem) width() int {
	return utf8.RuneCountInString(it.key) + 1 + utf8.RuneCountInString(it.what)
}

// helpLine is the bottom line of key help: "? help" and "q quit" at the
// right end, the other keys from the left as far as they fit.
type helpLine struct {
	*tview.Box
	items func(g *glyphs) []helpItem // the show's keys in g
	g     *glyphs                    // the session's (see session.take)
	keys  keyLine
}

// keyLine is a line of key help, formatted for a width and a set of
// keys, and then drawn as it is.
type keyLine struct {
	l     textLines
	w     int
	items []helpItem // as formatted
}

// draw draws the line of items w cells wide at (x, y), formatting it
// first where the width or the items are new.
func (k *keyLine) draw(scr tcell.Screen, x, y, w int, items []helpItem) {
	if k.l.lines == nil {
		k.l = newTextLines(1)
	}
	if w != k.w || !sameItems(items, k.items) {
		k.w, k.items = w, items
		formatKeys(k.l.next(), w, items)
		k.l.settle()
	}
	k.l.draw(scr, x, y, w, 1)
}

// sameItems tells whether a and b are the same slice.
func sameItems(a, b []helpItem) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (h *helpLine) take(g *glyphs, _ play.ReplayStatus) { h.g = g }

// newHelpLine makes the help line of the keys items gives.
func newHelpLine(items func(g *glyphs) []helpItem) *helpLine {
	return &helpLine{Box: tview.NewBox(), items: items, g: utf8Glyphs}
}

func (h *helpLine) Draw(scr tcell.Screen) {
	x, y, w, _ := h.GetRect()
	h.keys.draw(scr, x, y, w, h.items(h.g))
}

// formatKeys formats a line of key help w cells wide into l: "? help" and
// "q quit" at its right end, items from the left as far as they fit.
func formatKeys(l *textLine, w int, items []helpItem) {
	quit := w - helpQuit.width() - 1
	if quit < 0 {
		blankTo(l, w)
		return
	}
	help := quit - helpHelp.width() - 2
	if help >= 0 {
		x := 1
		for _, it := range items {
			if x+it.width() > help-2 {
				break
			}
			blankTo(l, x)
			it.format(l)
			x += it.width() + 2
		}
		blankTo(l, help)
		helpHelp.format(l)
	}
	blankTo(l, quit)
	helpQuit.format(l)
	blankTo(l, w)
}

func (it helpItem) draw(scr tcell.Screen, x, y int) {
	x += putString(scr, x, y, it.width(), it.key, keyStyle)
	putString(scr, x+1, y, it.width(), it.what, helpStyle)
}

// format appends the item: its key, a blank, what it does.
func (it helpItem) format(l *textLine) {
	l.style(keyStyle).str(it.key).style(tcell.StyleDefault).str(blank).style(helpStyle).str(it.what)
}

// blankTo appends blanks, in the default style, up to cell x of l.
func blankTo(l *textLine, x int) {
	if n := cells(l.b); n < x {
		l.style(tcell.StyleDefault)
		l.b = pad(l.b, len(l.b), x-n)
	}
}
