package ui

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
	spark  [8]string // the sparkline's levels, empty to full

	// The box borders.
	h, v, tl, tr, bl, br string

	// Texts built from the above once.
	demoBadge   string     // the arena's bottom border under the title screen
	stressBadge string     // … while the stress autopilot plays
	pauseScreen []string   // the overlay while paused
	helpScreen  []string   // the key help overlay
	arenaHelp   []string   // the same in an arena
	helpLine    []helpItem // the keys on the help line, by importance
	arenaLine   []helpItem // the same without the keys an arena refuses
	localLine   []helpItem // the same without o, which offers a game over SSH only
}

var (
	utf8Glyphs = newGlyphs(glyphs{
		sep: " · ", micro: "µs", times: "×", arrow: "→", mark: "◂",
		up: "↑", left: "←", right: "→", down: "↓", arrows: "←→↑",
		spark: [8]string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"},
		h:     "─", v: "│", tl: "┌", tr: "┐", bl: "└", br: "┘",
	})
	plainGlyphs = newGlyphs(glyphs{
		sep: " . ", micro: "us", times: "x", arrow: "->", mark: "<",
		up: "up", left: "left", right: "right", down: "down", arrows: "arrows",
		spark: [8]string{"_", ".", "-", "~", "=", "+", "*", "#"},
		h:     "-", v: "|", tl: "+", tr: "+", bl: "+", br: "+",
	})
)

func newGlyphs(g glyphs) *glyphs {
	g.demoBadge = " DEMO" + g.sep + "space to play "
	g.stressBadge = " STRESS AUTOPILOT" + g.sep + "x to stop "
	g.pauseScreen = []string{"PAUSED", "", "p: resume" + g.sep + "q: quit"}
	g.helpScreen = helpScreen(&g)
	g.arenaHelp = helpScreen(&g, arenaRefused...)
	g.helpLine = helpLineItems(&g)
	g.arenaLine = without(g.helpLine, arenaRefused...)
	g.localLine = without(g.helpLine, "o")
	return &g
}

// glyphs is the session's set: ASCII where the screen is not UTF-8 or
// Options.ASCII asks for it.
func (s *session) glyphs() *glyphs {
	if s.ascii {
		return plainGlyphs
	}
	return utf8Glyphs
}
