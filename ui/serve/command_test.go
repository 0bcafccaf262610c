package serve

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"poolroids/game/hub"
)

func TestParseCommand(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line string
		want Command
	}{
		{"", Command{}},
		{" \t ", Command{}},
		{"join alpha", Command{Verb: VerbJoin, Name: "alpha"}},
		{"  join   alpha  ", Command{Verb: VerbJoin, Name: "alpha"}},
		{"JOIN Alpha-1_x", Command{Verb: VerbJoin, Name: "alpha-1_x"}},
		{"new b", Command{Verb: VerbNew, Name: "b"}},
		{"new b --pvp", Command{Verb: VerbNew, Name: "b", PvP: true}},
		{"new --pvp b", Command{Verb: VerbNew, Name: "b", PvP: true}},
		{"watch 0123456789abcdef", Command{Verb: VerbWatch, Name: "0123456789abcdef"}},
		{"post", Command{Verb: VerbPost}},
		{" Post ", Command{Verb: VerbPost}},
		{"scores", Command{Verb: VerbScores, Name: "daily"}},
		{"scores WEEK", Command{Verb: VerbScores, Name: "week"}},
		{"scores today", Command{Verb: VerbScores, Name: "today"}},
		{"scores all", Command{Verb: VerbScores, Name: "all"}},
		{"scores daily 2025-06-14", Command{Verb: VerbScores, Name: "daily", Day: 20253}},
	} {
		got, err := ParseCommand(tt.line, 2222)
		if err != nil || got != tt.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	t.Parallel()
	const hint = "; try: ssh -t -p 2222 host join NAME (or new NAME --pvp, watch NAME, or nothing for the lobby), or ssh -p 2222 host post < game.prpl, or scores daily"
	for _, tt := range []struct{ line, want string }{
		{"ls", `unknown command "ls"`},
		{"sh -c 'rm -rf /'", `unknown command "sh"`},
		{"\x1b[2Jx", `unknown command "\x1b[2Jx"`},
		{"join", "join needs a name"},
		{"watch --pvp", `watch has no option "--pvp"`},
		{"join a --pvp", `join has no option "--pvp"`},
		{"new a --coop", `new has no option "--coop"`},
		{"join a b", `join takes one name, not "a" and "b"`},
		{"new a b --pvp", `too many words in "new a b --pvp"`},
		{"join Foo!", `bad name "Foo!": names are 1 to 16 of a-z 0-9 - _, the first a letter or digit`},
		{"join _a", `bad name "_a"`},
		{"join 0123456789abcdefg", `bad name "0123456789abcdefg"`},
		{"join caf\u00e9", `bad name "caf\u00e9"`},
		{"join " + strings.Repeat("a", 70), "command too long (75 bytes)"},
		{"post game.prpl", "post takes no words, the replay comes as input: ssh host post < game.prpl"},
		{"scores best", `scores has no board "best": want daily, today, week, all`},
		{"scores week 2025-06-14", "scores week takes no day: only scores daily DAY"},
		{"scores daily 14/06/2025", `scores daily "14/06/2025": want a day as 2025-06-14`},
		{"scores daily 1970-01-01", `scores daily "1970-01-01": want a day`},
		{"scores daily 2025-06-14 x", `too many words`},
	} {
		_, err := ParseCommand(tt.line, 2222)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.HasSuffix(err.Error(), hint) {
			t.Errorf("ParseCommand(%q) error = %v; want %q…%q", tt.line, err, tt.want, hint)
		}
	}
	for port, want := range map[int]string{0: "try: ssh -t host join", 22: "try: ssh -t host join", 2022: "try: ssh -t -p 2022 host join"} {
		if _, err := ParseCommand("x", port); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("port %d: error %v; want it to contain %q", port, err, want)
		}
	}
}

func TestParseCommandAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseCommand("new alpha --pvp", 2222) }); n != 0 {
		t.Errorf("ParseCommand allocates %v times; want 0", n)
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"", "join a", "new B --pvp", "watch x y", "new --pvp", "ls -l", "join \x1b[31m", "post", "scores daily 2025-06-14", "scores week"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line, 2222)
		if err != nil {
			msg := err.Error()
			if c != (Command{}) || strings.ContainsAny(msg, "\r\n\x1b") || !utf8.ValidString(msg) || !strings.Contains(msg, "try: ssh -t -p 2222") {
				t.Fatalf("ParseCommand(%q) = %+v, %q", line, c, msg)
			}
			for _, r := range msg {
				if !unicode.IsPrint(r) {
					t.Fatalf("ParseCommand(%q): error %q holds %U", line, msg, r)
				}
			}
			return
		}
		if c.Verb > VerbScores || (c.Verb == VerbLobby || c.Verb == VerbPost) != (c.Name == "") || (c.PvP && c.Verb != VerbNew) ||
			(c.Day != 0) && (c.Verb != VerbScores || c.Name != "daily") {
			t.Fatalf("ParseCommand(%q) = %+v", line, c)
		}
		if c.Name != "" && c.Verb != VerbScores {
			if n, err := hub.ParseName(c.Name); n != c.Name || err != nil {
				t.Fatalf("ParseCommand(%q) = %+v: not a clean name (%v)", line, c, err)
			}
		}
	})
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"alice", "\x1b[31mred", "\u202eevil", "\u5f20\u4e09", "a\u0301", "\x1b]0;t\x07", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := CleanName(in)
		n := utf8.RuneCountInString(got)
		if !utf8.ValidString(got) || n < 1 || n > MaxName || got != strings.TrimSpace(got) {
			t.Fatalf("CleanName(%q) = %q", in, got)
		}
		for _, r := range got {
			if r < ' ' || r == 0x7f || !unicode.IsPrint(r) || unicode.Is(unicode.M, r) || uniseg.StringWidth(string(r)) != 1 {
				t.Fatalf("CleanName(%q) = %q, which holds %U", in, got, r)
			}
		}
		if again := CleanName(got); again != got {
			t.Fatalf("CleanName(%q) = %q, but CleanName(%q) = %q", in, got, got, again)
		}
		// The first k names asked are taken: UniqueName must ask for k+1.
		k, seen := len(in)%12, map[string]bool{}
		u := hub.UniqueName(got, func(s string) bool {
			if seen[s] {
				t.Fatalf("UniqueName(%q) asked for %q twice", got, s)
			}
			seen[s] = true
			return len(seen) <= k
		})
		if len(seen) != k+1 || utf8.RuneCountInString(u) > MaxName || !utf8.ValidString(u) || (k > 0) != (u != got) {
			t.Fatalf("UniqueName(%q) with %d taken = %q after %d questions", got, k, u, len(seen))
		}
	})
}
