// Package displayname cleans the names that strangers choose (an SSH user name,
// or a name in a score table edited by hand) before any other player sees
// them.
//
// A name is drawn on other players' screens, in a column beside other
// names, so [Clean] keeps only what draws as itself in one cell: escape
// sequences (CSI, OSC, ESC x) are removed whole, so that no remains of
// them are left to read ("]0;PWNED"), then every rune that is not
// printable or not one cell wide (control and format characters, bidi
// overrides and isolates, combining marks, wide and zero-width runes,
// invalid UTF-8). Every name a player sees passes this one rule: the
// players of an arena, the high-score table (game/scores), an SSH user name
// (ui/serve).
package displayname

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Anonymous is the name of a player whose name has nothing left once
// cleaned.
const Anonymous = "anonymous"

// Clean returns name cleaned (see the package documentation), blanks at
// either end trimmed and at most max runes kept: each rune of the result
// is one cell on a screen. A name with nothing left is [Anonymous]. Clean
// of a cleaned name returns it unchanged.
func Clean(name string, max int) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(name) && n < max; {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == 0x1b || r == 0x9b || r == 0x9d { // ESC, or C1 CSI / OSC
			i = skipEscape(name, i, r, size)
			continue
		}
		i += size
		if !nameRune(r, size) || (r == ' ' && n == 0) {
			continue
		}
		b.WriteRune(r)
		n++
	}
	s := strings.TrimRight(b.String(), " ")
	if s == "" {
		return Anonymous
	}
	return s
}

// Allowed reports whether r may be in a name: printable, one cell wide.
// A blank may be, though not first or last: Clean trims those.
func Allowed(r rune) bool { return nameRune(r, utf8.RuneLen(r)) }

// nameRune reports whether r (decoded from size bytes) may be in a name.
func nameRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size <= 1:
		return false
	case r < utf8.RuneSelf:
		return ' ' <= r && r < 0x7f
	case !unicode.IsPrint(r) || unicode.Is(unicode.M, r): // IsPrint excludes Cf (bidi controls)
		return false
	}
	var buf [utf8.UTFMax]byte
	return uniseg.StringWidth(string(utf8.AppendRune(buf[:0], r))) == 1
}

// skipEscape returns the index after the escape sequence that starts at i
// with r (size bytes): CSI (ESC [ or 0x9b) runs to a final byte in
// 0x40..0x7e, OSC, DCS, SOS, PM and APC (ESC ] P X ^ _, or 0x9d) to BEL or
// ST (ESC \), any other ESC x is two characters. An unfinished sequence
// runs to the end.
func skipEscape(s string, i int, r rune, size int) int {
	i += size
	kind := byte('[')
	if r == 0x9d {
		kind = ']'
	}
	if r == 0x1b {
		if i == len(s) {
			return i
		}
		kind = s[i]
		i++
	}
	switch kind {
	case '[':
		for ; i < len(s); i++ {
			if 0x40 <= s[i] && s[i] <= 0x7e {
				return i + 1
			}
		}
		return i
	case ']', 'P', 'X', '^', '_':
		for ; i < len(s); i++ {
			switch {
			case s[i] == 0x07:
				return i + 1
			case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			case strings.HasPrefix(s[i:], "\u009c"): // C1 ST
				return i + len("\u009c")
			}
		}
		return i
	}
	return i
}
