package ui

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// arenaRefused are the keys an arena refuses: it neither pauses nor hides
// from watchers, and the stress autopilot would play (and score, and kill)
// in a world others share. Its key help and help line leave them out.
var arenaRefused = []string{"p", "o", "x"}

// helpScreen is the key help overlay: every key but those in leave, one a
// line, padded to one width so that the overlay, which centres each line,
// shows a column.
func helpScreen(g *glyphs, leave ...string) []string {
	keys := [][2]string{
		{g.left + " " + g.right + " / a d", "turn"},
		{g.up + " / w", "thrust"},
		{"space", "fire; play, from the title"},
		{"h / s", "hyperspace"},
		{"p", "pause"},
		{"x", "stress autopilot; leaves your game"},
		{"1-0", "pools' strategy (or click one)"},
		{"b", "which pools 1-0 switch"},
		{"tab", "strategy list: " + g.up + " " + g.down + " enter"},
		{"v", "panel: full, compact, hidden"},
		{"o", "open to watchers, or hide (over SSH)"},
		{"?", "this help"},
		{"q", "quit; in a game, asks first"},
		{"ctrl-c", "quit at once"},
	}
	keys = slices.DeleteFunc(keys, func(k [2]string) bool { return slices.Contains(leave, k[0]) })
	return keyColumns("KEYS", keys)
}

// keyColumns is a key help overlay: title, then each key and what it
// does in two columns.
func keyColumns(title string, keys [][2]string) []string {
	kw, dw := 0, 0
	for _, k := range keys {
		kw = max(kw, utf8.RuneCountInString(k[0]))
		dw = max(dw, utf8.RuneCountInString(k[1]))
	}
	lines := []string{title, ""}
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("%-*s  %-*s", kw, k[0], dw, k[1]))
	}
	return append(lines, "", "any key closes this help")
}

// helpItem is a key on the help line and what it does.
type helpItem struct{ key, what string }

// helpLineItems are the keys the help line shows from the left, as far as
// they fit; the help overlay lists them all.
func helpLineItems(g *glyphs) []helpItem {
	return []helpItem{
		{g.arrows + "/wasd", "move"}, {"space", "fire"}, {"h/s", "hyperspace"}, {"p", "pause"},
		{"1-0", "strategy"}, {"b", "pool"}, {"x", "stress"}, {"v", "panel"}, {"tab", "list"}, {"o", "watchers"},
	}
}

// without returns items less those of keys.
func without(items []helpItem, keys ...string) []helpItem {
	return slices.DeleteFunc(slices.Clone(items), func(it helpItem) bool { return slices.Contains(keys, it.key) })
}

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
	s     *session
	items func(g *glyphs) []helpItem // the show's keys in g
	shown shown
	g     *glyphs // as last drawn
}

// newHelpLine makes the help line of the keys items gives.
func newHelpLine(s *session, items func(g *glyphs) []helpItem) *helpLine {
	return &helpLine{Box: tview.NewBox(), s: s, items: items}
}

func (h *helpLine) Draw(scr tcell.Screen) {
	defer h.s.guard()
	x, y, w, ht := h.GetRect()
	g := h.s.glyphs()
	if h.s.keep(scr, &h.shown, rect{x, y, w, ht}) && h.g == g {
		return // it never changes: its last frame stays
	}
	h.g = g
	drawKeys(scr, x, y, w, h.items(g))
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
