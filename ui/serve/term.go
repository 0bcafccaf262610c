package serve

import (
	"os"
	"strings"
	"sync"

	"github.com/gdamore/tcell/v2/terminfo"
)

// Window sizes are clamped to these bounds. tcell keeps about 192 bytes per
// cell, so the largest screen costs 320×100×192 ≈ 6 MiB; an unclamped
// 65535×65535 request would ask for 800 GiB. The arena scales to the
// window, so a bigger screen would add nothing but cost.
const (
	MinWidth, MaxWidth   = 20, 320
	MinHeight, MaxHeight = 10, 100
	// A zero dimension means the client does not know its size (RFC 4254
	// 6.2); the screen then gets the classic 80×24.
	defaultWidth, defaultHeight = 80, 24
)

// clampSize turns the window size a client asked for into the one its
// screen gets.
func clampSize(cols, rows uint32) (w, h int) {
	return clampDim(cols, defaultWidth, MinWidth, MaxWidth),
		clampDim(rows, defaultHeight, MinHeight, MaxHeight)
}

func clampDim(v uint32, def, lo, hi int) int {
	if v == 0 {
		return def
	}
	return int(min(max(v, uint32(lo)), uint32(hi)))
}

// fallbackTerm is used when the client's TERM is unknown or empty: every
// terminal an SSH client runs in today understands it.
const fallbackTerm = "xterm-256color"

// serverEnv lists the variables through which tcell would read the server's
// own terminal settings: the terminal type and its colours (TERM,
// COLORTERM, TCELL_TRUECOLOR, NO_COLOR), the character set (LC_ALL,
// LC_CTYPE, LANG) and the size (LINES, COLUMNS). tcell consults them for
// every screen it makes, but a server has no terminal of its own: each
// session's come from its client.
var serverEnv = []string{
	"TERM", "COLORTERM", "TCELL_TRUECOLOR", "NO_COLOR",
	"LC_ALL", "LC_CTYPE", "LANG", "LINES", "COLUMNS",
}

// scrubServerEnv removes serverEnv from the process environment. With no
// locale set tcell assumes UTF-8; a client whose locale is not UTF-8 gets
// the ASCII arena instead (see [clientTerm.utf8]).
func scrubServerEnv() {
	for _, k := range serverEnv {
		_ = os.Unsetenv(k)
	}
}

// clientTerm is what a session's client told about its terminal.
type clientTerm struct {
	term string
	// Locale and colour variables the client sent (ssh's SendEnv).
	lcAll, lcCtype, lang, colorTerm string
}

// setEnv records one "env" request; it reports whether the variable is one
// the server uses. Values are bounded, as everything a client sends.
func (c *clientTerm) setEnv(key, value string) bool {
	if len(value) > 64 {
		return false
	}
	switch key {
	case "LC_ALL":
		c.lcAll = value
	case "LC_CTYPE":
		c.lcCtype = value
	case "LANG":
		c.lang = value
	case "COLORTERM":
		c.colorTerm = value
	default:
		return false
	}
	return true
}

// env returns the variables the client sent, as KEY=value.
func (c *clientTerm) env() []string {
	var env []string
	for _, kv := range [...][2]string{{"LC_ALL", c.lcAll}, {"LC_CTYPE", c.lcCtype}, {"LANG", c.lang}, {"COLORTERM", c.colorTerm}} {
		if kv[1] != "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env
}

// utf8 reports whether the client's locale is UTF-8, reading the variables
// in POSIX order as tcell does for a local terminal. A client that sent no
// locale is assumed to be UTF-8, as every current terminal is.
func (c *clientTerm) utf8() bool {
	locale := c.lcAll
	if locale == "" {
		locale = c.lcCtype
	}
	if locale == "" {
		locale = c.lang
	}
	if locale == "" {
		return true
	}
	if locale == "C" || locale == "POSIX" {
		return false
	}
	locale, _, _ = strings.Cut(locale, "@")
	_, charset, found := strings.Cut(locale, ".")
	if !found {
		return true
	}
	charset = strings.ToLower(charset)
	return charset == "utf-8" || charset == "utf8"
}

// lookupMu serialises terminfo lookups: LookupTerminfo may amend the shared
// entry it returns (adding 24-bit colour sequences), which must not race
// with another session copying it.
var lookupMu sync.Mutex

// terminfo returns a private copy of the terminfo entry for the client's
// TERM (fallbackTerm when unknown) and the name it was found under. The copy
// is the session's own because tcell writes to the entry it is given.
// Only the built-in database is searched: running infocmp for a name a
// client chose would let it start processes on the server.
func (c *clientTerm) terminfo() (*terminfo.Terminfo, string) {
	lookupMu.Lock()
	defer lookupMu.Unlock()
	name := c.term
	ti, err := terminfo.LookupTerminfo(name)
	if err != nil {
		name = fallbackTerm
		ti, err = terminfo.LookupTerminfo(name)
		if err != nil {
			panic("serve: tcell's built-in terminfo lacks " + fallbackTerm)
		}
	}
	own := *ti
	// Without a pad character tcell drops the padding delays of old
	// entries (vt100's 5 ms a cursor move) instead of sleeping them.
	own.PadChar = ""
	switch c.colorTerm {
	case "truecolor", "24bit", "24-bit":
		if own.SetFgRGB == "" && own.SetBgRGB == "" && own.SetFgBgRGB == "" {
			// The ISO 8613-6 sequences, as tcell adds for a local COLORTERM.
			own.SetFgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%dm"
			own.SetBgRGB = "\x1b[48;2;%p1%d;%p2%d;%p3%dm"
			own.SetFgBgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%d;48;2;%p4%d;%p5%d;%p6%dm"
		}
	}
	return &own, name
}
