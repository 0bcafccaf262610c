package serve

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"poolroids/game/displayname"
	"poolroids/game/hub"
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
	Name string // the arena (join, new) or game (watch), valid for [hub.ParseName]; "" for the lobby
	PvP  bool   // new --pvp: ships' bullets hit other ships
}

// MaxName is the longest arena or player name, in characters (each one
// cell on the screen): the hub's.
const MaxName = hub.MaxName

// maxCommand bounds the command lines parsed: the longest valid one,
// "new " + a name + " --pvp", is far shorter.
const maxCommand = 64

// ParseCommand reads the command line of an SSH exec request: "" (or
// blanks) for the lobby, "join NAME", "new NAME [--pvp]" or "watch NAME",
// words separated by blanks, the verb in any case, the name lowercased
// (see [hub.ParseName]). Anything else is an error of one printable line that
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
	if c.Name, err = hub.ParseName(name); err != nil {
		return Command{}, usageError(port, "bad name %s: %v", quote(name), err)
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

// CleanName makes a client-chosen player name safe to draw on other
// players' screens and to log, by the rule of package displayname: at most
// [MaxName] runes, each one cell on a screen, "anonymous" when nothing is
// left.
func CleanName(name string) string { return displayname.Clean(name, MaxName) }
