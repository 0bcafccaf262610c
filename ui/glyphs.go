package ui

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// glyphs are the characters beyond ASCII that the ui's own text uses, in
// two sets: one for screens that show UTF-8, one in ASCII for the rest.
// Every such character the ui draws comes from here, chosen by
// session.ascii, so that a terminal whose locale is not UTF-8 shows the same
// text whether it plays locally (where tcell would print ? or a line-drawing
// character for them) or over SSH (where serve rewrites what is left).
type glyphs struct {
	sep    string // between two figures on a line
	micro  string // the microsecond unit
	times  string // in a size, 80×24
	arrow  string // "strategy → bullets"
	mark   string // beside a strategy in use
	up     string // the arrow keys, in the key help
	left   string
	right  string
	down   string
	arrows string    // the turn and thrust keys together, on the help line
	sparks [8]string // the sparkline's levels, empty to full

	// The box borders.
	h, v, tl, tr, bl, br string

	// Texts built from the above once.
	demoBadge   string     // the arena's bottom border under the title screen
	stressBadge string     // … while the stress autopilot plays
	pauseScreen []string   // the overlay while paused
	helpScreen  []string   // the key help overlay
	arenaHelp   []string   // the same in an arena
	keyLine     []helpItem // the keys on the help line, by importance
	arenaLine   []helpItem // the same without the keys an arena refuses
	guestLine   []helpItem // … and those of the pools, for a seat that does not switch them
	localLine   []helpItem // the same without o, which offers a game over SSH only
}

var (
	utf8Glyphs = newGlyphs(glyphs{
		sep: " · ", micro: "µs", times: "×", arrow: "→", mark: "◂",
		up: "↑", left: "←", right: "→", down: "↓", arrows: "←→↑",
		sparks: [8]string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"},
		h:      "─", v: "│", tl: "┌", tr: "┐", bl: "└", br: "┘",
	})
	plainGlyphs = newGlyphs(glyphs{
		sep: " . ", micro: "us", times: "x", arrow: "->", mark: "<",
		up: "up", left: "left", right: "right", down: "down", arrows: "arrows",
		sparks: [8]string{"_", ".", "-", "~", "=", "+", "*", "#"},
		h:      "-", v: "|", tl: "+", tr: "+", bl: "+", br: "+",
	})
)

func newGlyphs(g glyphs) *glyphs {
	g.demoBadge = " DEMO" + g.sep + "space to play "
	g.stressBadge = " STRESS AUTOPILOT" + g.sep + "x to stop "
	g.pauseScreen = []string{"PAUSED", "", "p: resume" + g.sep + "q: quit"}
	g.helpScreen = helpScreen(&g)
	g.arenaHelp = helpScreen(&g, arenaRefused...)
	g.keyLine = helpLineItems(&g)
	g.arenaLine = without(g.keyLine, arenaRefused...)
	g.guestLine = without(g.arenaLine, "1-0", "b")
	g.localLine = without(g.keyLine, "o")
	return &g
}

// arenaRefused are the keys an arena refuses: it neither pauses nor hides
// from watchers, and the stress autopilot would play (and score, and kill)
// in a world others share. Its key help and help line leave them out.
var arenaRefused = []string{"p", "o", "x"}

// helpScreen is the key help overlay: every key but those in leave, one a
// line, padded to one width so that the overlay, which centres each line,
// shows a column.
func helpScreen(g *glyphs, leave ...string) []string {
	keys := slices.DeleteFunc(helpKeys(g), func(k [2]string) bool { return slices.Contains(leave, k[0]) })
	return keyColumns("KEYS", keys)
}

// helpKeys are every key of a game of one's own and what it does, in the
// key help's order.
func helpKeys(g *glyphs) [][2]string {
	return [][2]string{
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
