package serve

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"poolroids/game/daily"
	"poolroids/game/displayname"
	"poolroids/game/hub"
)

// Verb is what an SSH command line asks for.
type Verb uint8

const (
	VerbLobby  Verb = iota // no command: the lobby
	VerbJoin               // join NAME: join the arena, or open it if it does not exist
	VerbNew                // new NAME [--pvp]: open an arena
	VerbWatch              // watch NAME: watch a live game
	VerbPost               // post: prove and rank the daily game's replay sent as input; no terminal
	VerbScores             // scores [BOARD [DAY]]: print a board; no terminal
	VerbReplay             // a browser's /replay/NAME: play a replay of the boards (no SSH command)
)

var verbNames = [...]string{VerbLobby: "lobby", VerbJoin: "join", VerbNew: "new", VerbWatch: "watch", VerbPost: "post", VerbScores: "scores", VerbReplay: "replay"}

// Terminal reports whether the command plays on a terminal (the lobby,
// join, new and watch, and a replay in a browser); post and scores
// answer and end, with or without one.
func (v Verb) Terminal() bool { return v <= VerbWatch || v == VerbReplay }

// Boards are the boards scores prints: the day's daily game (the
// default), and the boards of today, this week and all time.
var Boards = [...]string{"daily", "today", "week", "all"}

func (v Verb) String() string {
	if int(v) < len(verbNames) {
		return verbNames[v]
	}
	return "Verb(" + strconv.Itoa(int(v)) + ")"
}

// Command is a parsed SSH command line. Its zero value is the lobby.
type Command struct {
	Verb Verb
	// Name is the arena (join, new) or game (watch), valid for
	// [hub.ParseName], or the board (scores: one of [Boards]); "" for the
	// lobby and post.
	Name string
	PvP  bool      // new --pvp: ships' bullets hit other ships
	Day  daily.Day // scores daily DAY: the day's board; 0 (1970-01-01, which had none): today's
}

// MaxName is the longest arena or player name, in characters (each one
// cell on the screen): the hub's.
const MaxName = hub.MaxName

// maxCommand bounds the command lines parsed: the longest valid one,
// "new " + a name + " --pvp", is far shorter.
const maxCommand = 64

// ParseCommand reads the command line of an SSH exec request: "" (or
// blanks) for the lobby, "join NAME", "new NAME [--pvp]" or "watch NAME",
// "post", or "scores [BOARD [DAY]]" (BOARD one of [Boards], DAY as
// 2025-06-14 after daily), words separated by blanks, the verb and board
// in any case, the name lowercased (see [hub.ParseName]). Anything else is
// an error of one printable line that says what is wrong and shows a
// command that works, with port in it (ports 0 and 22 are left out of
// it). It allocates only for errors, scores and names given in upper
// case.
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
	case "post":
		c.Verb = VerbPost
	case "scores":
		c.Verb = VerbScores
	default:
		return Command{}, usageError(port, "unknown command %s", quote(words[0]))
	}
	if extra {
		return Command{}, usageError(port, "too many words in %s", quote(line))
	}
	switch c.Verb {
	case VerbPost:
		if n > 1 {
			return Command{}, usageError(port, "post takes no words, the replay comes as input: ssh host post < game.prpl")
		}
		return c, nil
	case VerbScores:
		return parseScores(port, words[1:n])
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

// parseScores reads the words after scores: [BOARD [DAY]].
func parseScores(port int, words []string) (Command, error) {
	c := Command{Verb: VerbScores, Name: Boards[0]}
	if len(words) > 0 {
		c.Name = ""
		for _, b := range Boards {
			if strings.EqualFold(words[0], b) {
				c.Name = b
			}
		}
		if c.Name == "" {
			return Command{}, usageError(port, "scores has no board %s: want %s", quote(words[0]), strings.Join(Boards[:], ", "))
		}
	}
	if len(words) > 1 {
		if c.Name != Boards[0] {
			return Command{}, usageError(port, "scores %s takes no day: only scores daily DAY", c.Name)
		}
		d, err := daily.ParseDay(words[1])
		if err != nil || d == 0 {
			return Command{}, usageError(port, "scores daily %s: want a day as 2025-06-14", quote(words[1]))
		}
		c.Day = d
	}
	return c, nil
}

// usageError is a parse error followed by a command that works.
func usageError(port int, format string, args ...any) error {
	p := " "
	if port != 0 && port != 22 {
		p = " -p " + strconv.Itoa(port) + " "
	}
	return fmt.Errorf(format+"; try: ssh -t"+p+"host join NAME (or new NAME --pvp, watch NAME, or nothing for the lobby), or ssh"+p+"host post < game.prpl, or scores daily", args...)
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
