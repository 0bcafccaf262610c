package serve

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Verb is what an SSH command line asks for.
type Verb uint8

const (
	VerbLobby Verb = iota // no command: the lobby
	VerbJoin              // join NAME: join the arena, or open it if it does not exist
	VerbNew               // new NAME [--pvp]: open an arena
	VerbWatch             // watch NAME: watch a live game
)

var verbNames = [...]string{VerbLobby: "lobby", VerbJoin: "join", VerbNew: "new", VerbWatch: "watch"}

func (v Verb) String() string {
	if int(v) < len(verbNames) {
		return verbNames[v]
	}
	return "Verb(" + strconv.Itoa(int(v)) + ")"
}

// Command is a parsed SSH command line. Its zero value is the lobby.
type Command struct {
	Verb Verb
	Name string // the arena (join, new) or game (watch), valid for [ArenaName]; "" for the lobby
	PvP  bool   // new --pvp: ships' bullets hit other ships
}

// MaxName is the longest arena or player name, in characters (each one
// cell on the screen).
const MaxName = 16

// maxCommand bounds the command lines parsed: the longest valid one,
// "new " + a name + " --pvp", is far shorter.
const maxCommand = 64

// ParseCommand reads the command line of an SSH exec request: "" (or
// blanks) for the lobby, "join NAME", "new NAME [--pvp]" or "watch NAME",
// words separated by blanks, the verb in any case, the name lowercased
// (see [ArenaName]). Anything else is an error of one printable line that
// says what is wrong and shows a command that works, with port in it
// (ports 0 and 22 are left out of it). It allocates only for errors and
// for names given in upper case.
func ParseCommand(line string, port int) (Command, error) {
	if len(line) > maxCommand {
		return Command{}, usageError(port, "command too long (%d bytes)", len(line))
	}
	var words [3]string // the longest command: new NAME --pvp
	n, extra := 0, false
	for w := range strings.FieldsSeq(line) {
		if n == len(words) {
			extra = true
			break
		}
		words[n] = w
		n++
	}
	if n == 0 {
		return Command{}, nil
	}
	var c Command
	switch strings.ToLower(words[0]) {
	case "join":
		c.Verb = VerbJoin
	case "new":
		c.Verb = VerbNew
	case "watch":
		c.Verb = VerbWatch
	default:
		return Command{}, usageError(port, "unknown command %s", quote(words[0]))
	}
	if extra {
		return Command{}, usageError(port, "too many words in %s", quote(line))
	}
	var name string
	for _, w := range words[1:n] {
		switch {
		case c.Verb == VerbNew && w == "--pvp":
			c.PvP = true
		case strings.HasPrefix(w, "-"):
			return Command{}, usageError(port, "%s has no option %s", c.Verb, quote(w))
		case name != "":
			return Command{}, usageError(port, "%s takes one name, not %s and %s", c.Verb, quote(name), quote(w))
		default:
			name = w
		}
	}
	if name == "" {
		return Command{}, usageError(port, "%s needs a name", c.Verb)
	}
	var err error
	if c.Name, err = ArenaName(name); err != nil {
		return Command{}, usageError(port, "%v", err)
	}
	return c, nil
}

// usageError is a parse error followed by a command that works.
func usageError(port int, format string, args ...any) error {
	p := " "
	if port != 0 && port != 22 {
		p = " -p " + strconv.Itoa(port) + " "
	}
	return fmt.Errorf(format+"; try: ssh -t"+p+"host join NAME (or new NAME --pvp, watch NAME, or nothing for the lobby)", args...)
}

// quote shows a word of a client's command in an error: quoted, control
// and bidi characters escaped, at most 20 characters.
func quote(w string) string {
	if utf8.RuneCountInString(w) > 20 {
		w = string([]rune(w)[:20]) + "..."
	}
	return strconv.QuoteToASCII(w)
}

// errArenaName is the rule ArenaName enforces, for its error.
var errArenaName = errors.New("names are 1 to 16 of a-z 0-9 - _, the first a letter or digit")

// ArenaName returns name lowercased (ASCII letters only) when it then is a
// valid arena name: 1 to [MaxName] of a-z, 0-9, '-' and '_', the first a
// letter or digit (so that no name reads as an option). Otherwise the
// error says why and quotes the name.
func ArenaName(name string) (string, error) {
	if name == "" || len(name) > MaxName || name[0] == '-' || name[0] == '_' {
		return "", fmt.Errorf("bad name %s: %w", quote(name), errArenaName)
	}
	upper := false
	for i := range len(name) {
		switch b := name[i]; {
		case 'A' <= b && b <= 'Z':
			upper = true
		case 'a' <= b && b <= 'z', '0' <= b && b <= '9', b == '-', b == '_':
		default:
			return "", fmt.Errorf("bad name %s: %w", quote(name), errArenaName)
		}
	}
	if upper {
		name = strings.ToLower(name)
	}
	return name, nil
}

// CleanName makes a client-chosen player name safe to draw on other
// players' screens and to log: escape sequences (CSI, OSC, ESC x) are
// removed whole, then every rune that is not printable or not one cell
// wide (control and format characters, bidi overrides and isolates,
// combining marks, wide and zero-width runes, invalid UTF-8); blanks at
// either end are trimmed and at most [MaxName] runes kept. Each rune of
// the result is one cell on a screen. A name with nothing left is
// "anonymous".
func CleanName(name string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(name) && n < MaxName; {
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
		return "anonymous"
	}
	return s
}

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

// UniqueName returns name if it is not taken, else the first of name-2,
// name-3, … that is not, name cut so that the whole stays within [MaxName]
// runes. With n names taken it asks taken at most n+1 times: each
// candidate differs from all the others (by its digits after its last
// '-').
func UniqueName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	runes := []rune(name)
	for i := 2; ; i++ {
		suffix := "-" + strconv.Itoa(i)
		base := runes[:min(len(runes), MaxName-len(suffix))]
		if c := string(base) + suffix; !taken(c) {
			return c
		}
	}
}
