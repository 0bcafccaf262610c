package serve

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// asciiWriter sends a client whose locale is not UTF-8 only ASCII. tcell
// encodes every session's output by the server's own locale, which is UTF-8
// (see [scrubServerEnv]), and the game's ASCII mode covers the arena but
// not tview's borders or a player's name. So every rune beyond ASCII is
// replaced on the way out: lines by - and |, corners and joints by +, the
// few symbols the panel uses (· µ × dashes) by their nearest ASCII, anything
// else by one ? per column it takes, so that what follows stays in the
// column tcell put it in.
type asciiWriter struct {
	mu   sync.Mutex
	w    io.Writer
	rest []byte // an incomplete rune at the end of the last Write
	out  []byte
}

func (a *asciiWriter) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.out[:0]
	b := p
	if len(a.rest) > 0 {
		b = append(a.rest, p...)
		a.rest = nil
	}
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			out = append(out, b[0])
			b = b[1:]
			continue
		}
		if !utf8.FullRune(b) {
			a.rest = append([]byte(nil), b...)
			break
		}
		r, n := utf8.DecodeRune(b)
		out = append(out, asciiFor(r)...)
		b = b[n:]
	}
	a.out = out
	if _, err := a.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// asciiFor is the ASCII that stands for r, as wide as r is on a terminal.
func asciiFor(r rune) string {
	switch {
	case strings.ContainsRune("─━═╌╍┄┅┈┉", r):
		return "-"
	case strings.ContainsRune("│┃║╎╏┆┇┊┋", r):
		return "|"
	case r >= 0x250c && r <= 0x257f: // the box-drawing corners, joints and crosses
		return "+"
	case r == '·' || r == '•':
		return "."
	case r == 'µ':
		return "u"
	case r == '×':
		return "x"
	case r == '–' || r == '—' || r == '−':
		return "-"
	}
	return strings.Repeat("?", uniseg.StringWidth(string(r)))
}
