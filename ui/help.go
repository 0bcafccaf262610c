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

func (it helpItem) draw(scr tcell.Screen, x, y int) {
	x += putString(scr, x, y, it.width(), it.key, keyStyle)
	putString(scr, x+1, y, it.width(), it.what, helpStyle)
}

// helpLine is the bottom line of key help: "? help" and "q quit" at the
// right end, the other keys from the left as far as they fit.
type helpLine struct {
	*tview.Box
	items func(g *glyphs) []helpItem // the show's keys in g
	g     *glyphs                    // the session's (see session.take)
	shown shown
	drawn *glyphs    // as last drawn
	list  []helpItem // likewise
}

func (h *helpLine) take(g *glyphs, _ play.ReplayStatus) { h.g = g }

// newHelpLine makes the help line of the keys items gives.
func newHelpLine(items func(g *glyphs) []helpItem) *helpLine {
	return &helpLine{Box: tview.NewBox(), items: items, g: utf8Glyphs}
}

func (h *helpLine) Draw(scr tcell.Screen) {
	x, y, w, ht := h.GetRect()
	items := h.items(h.g)
	if keep(scr, &h.shown, rect{x, y, w, ht}) && h.drawn == h.g && len(items) == len(h.list) && (len(items) == 0 || &items[0] == &h.list[0]) {
		return // the same keys: its last frame stays
	}
	h.drawn, h.list = h.g, items
	drawKeys(scr, x, y, w, items)
}

// drawKeys draws a line of key help w cells wide: "? help" and "q quit" at
// its right end, items from the left as far as they fit.
func drawKeys(scr tcell.Screen, x, y, w int, items []helpItem) {
	for i := range w {
		scr.Put(x+i, y, blank, tcell.StyleDefault)
	}
	end := x + w - helpQuit.width() - 1
	if end < x {
		return
	}
	helpQuit.draw(scr, end, y)
	if end -= helpHelp.width() + 2; end < x {
		return
	}
	helpHelp.draw(scr, end, y)
	x++
	for _, it := range items {
		if x+it.width() > end-2 {
			break
		}
		it.draw(scr, x, y)
		x += it.width() + 2
	}
}
