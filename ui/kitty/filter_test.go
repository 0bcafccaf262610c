package kitty

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"
)

// confirm is the terminal's answer to our query with all our flags in force.
const confirm = "\x1b[?31u"

// readAll reads t to EOF in tcell's 128-byte reads.
func readAll(t testing.TB, tty *Tty) string {
	t.Helper()
	var out []byte
	p := make([]byte, 128)
	for {
		n, err := tty.Read(p)
		out = append(out, p[:n]...)
		if errors.Is(err, io.EOF) {
			return string(out)
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if n == 0 {
			t.Fatal("Read returned 0 bytes and no error")
		}
	}
}

// held lists the game keys k holds, e.g. "left fire".
func held(k *Keys) string {
	var names []string
	for key := range numKeys {
		if k.Held(key) {
			names = append(names, key.String())
		}
	}
	return strings.Join(names, " ")
}

// splits returns ways to cut in into reads: whole, in two at every byte
// boundary, and one byte per read.
func splits(in string) map[string][][]byte {
	ways := map[string][][]byte{"whole": {[]byte(in)}}
	for i := 1; i < len(in); i++ {
		ways[fmt.Sprintf("split@%d", i)] = [][]byte{[]byte(in[:i]), []byte(in[i:])}
	}
	var bytewise [][]byte
	for i := range len(in) {
		bytewise = append(bytewise, []byte{in[i]})
	}
	ways["bytewise"] = bytewise
	return ways
}

// filterCase is recorded terminal input and what tcell and the game must get.
type filterCase struct {
	name string
	in   string
	out  string // bytes tcell receives
	held string // game keys held at the end
}

var filterCases = []filterCase{
	{"press a", "\x1b[97u", "a", "left"},
	{"press repeat release a", "\x1b[97u\x1b[97;1:2u\x1b[97;1:2u\x1b[97;1:3u", "a", ""},
	{"shift+a with shifted key", "\x1b[97:65;2u", "A", "left"},
	{"shift+a then release without shift", "\x1b[97:65;2u\x1b[97;1:3u", "A", ""},
	{"shift+a without shifted key", "\x1b[97;2u", "A", "left"},
	{"shift+a with associated text", "\x1b[97:65;2;65u", "A", "left"},
	{"shift+1 with shifted key", "\x1b[49:33;2u", "!", ""},
	{"caps lock on", "\x1b[113;65u\x1b[113;65:3u", "Q", ""},
	{"space press and repeat", "\x1b[32u\x1b[32;1:2u", " ", "fire"},
	{"space press repeat release", "\x1b[32u\x1b[32;1:2u\x1b[32;1:3u", " ", ""},
	{"wasd and h held together", "\x1b[119u\x1b[100u\x1b[104u", "wdh", "right thrust hyper"},
	{"hyper tapped", "\x1b[104u\x1b[104;1:3u", "h", ""},
	{"left arrow press", "\x1b[D", "\x1b[D", "left"},
	{"left arrow repeat release", "\x1b[D\x1b[1;1:2D\x1b[1;1:3D", "\x1b[D", ""},
	{"up arrow typed press", "\x1b[1;1:1A", "\x1b[A", "thrust"},
	{"shift+right typed press", "\x1b[1;2:1C", "\x1b[1;2C", "right"},
	{"ctrl+right untyped press", "\x1b[1;5C", "\x1b[1;5C", "right"},
	{"down arrow repeats as presses", "\x1b[B\x1b[1;1:2B\x1b[1;1:2B\x1b[1;1:3B", "\x1b[B\x1b[B\x1b[B", ""},
	{"arrow and letter for one key", "\x1b[D\x1b[97u\x1b[1;1:3D", "\x1b[Da", "left"},
	{"keypad arrows", "\x1b[57417u\x1b[57419u\x1b[57417;1:3u", "\x1b[57417u\x1b[57419u", "thrust"},
	{"ctrl+c", "\x1b[99;5u\x1b[99;5:3u", "\x1b[99;5u", ""},
	{"enter tab backspace esc", "\x1b[13u\x1b[9u\x1b[127u\x1b[27u\x1b[27;1:3u", "\x1b[13u\x1b[9u\x1b[127u\x1b[27u", ""},
	{"shift+tab", "\x1b[9;2u\x1b[9;2:3u", "\x1b[Z", ""},
	{"delete typed", "\x1b[3;1:1~\x1b[3;1:2~\x1b[3;1:3~", "\x1b[3~\x1b[3~", ""},
	{"ctrl+delete typed", "\x1b[3;5:1~", "\x1b[3;5~", ""},
	{"modifier keys dropped", "\x1b[57441;2u\x1b[57442;6u\x1b[57442;2:3u\x1b[57441;1:3u", "", ""},
	{"lock keys dropped", "\x1b[57358u\x1b[57358;65:3u", "", ""},
	{"media key dropped", "\x1b[57428u\x1b[57428;1:3u", "", ""},
	{"F13 kept", "\x1b[57376u", "\x1b[57376u", ""},
	{"non-ascii key", "\x1b[233u\x1b[233;1:3u", "é", ""},
	{"text of several code points", "\x1b[0;;101:769u", "e\u0301", ""},
	{"alt+x", "\x1b[120;3u", "\x1b[120;3u", ""},
	{"digits", "\x1b[49u\x1b[49;1:3u\x1b[48u", "10", ""},
	{"focus out forgets held keys", "\x1b[97u\x1b[32u\x1b[O", "a \x1b[O", ""},
	{
		"mixed with mouse paste focus and text",
		"x\x1b[<0;10;5M\x1b[104u\x1b[<0;10;5m\x1b[200~hi\x1b[201~\x1b[I\x1b[104;1:3uy",
		"x\x1b[<0;10;5Mh\x1b[<0;10;5mhi\x1b[Iy",
		"",
	},
	{"x10 mouse", "\x1b[M !!\x1b[97u", "\x1b[M !!a", "left"},
	{"osc reply", "\x1b]52;c;aGk=\x1b\\\x1b[97u", "a", "left"},
	{"ss3 arrow", "\x1bOD", "\x1bOD", ""},
	{"alt prefix", "\x1bx\x1b\x1b[97u", "\x1bxa", "left"},
	{"cursor position report", "\x1b[12;40R", "\x1b[12;40R", ""},
	{"xterm modifyOtherKeys", "\x1b[27;5;97~", "\x1b[27;5;97~", ""},
	{"private csi", "\x1b[?2026;2$y", "\x1b[?2026;2$y", ""},
	{"control byte inside csi", "\x1b[97\x01u", "\x01u", ""},
	{"esc inside csi", "\x1b[9\x1b[97u", "a", "left"},
	{"bad event type", "\x1b[97;1:4u", "\x1b[97;1:4u", ""},
	{"too long sequence", "\x1b[" + strings.Repeat("0", 70) + "97ux", "x", ""},
	{"leading zeros", "\x1b[0097;01:03u", "", ""},
	{"utf-8 text passes", "héllo ✓ 😀", "héllo ✓ 😀", ""},

	// What tcell's parser cannot take (see filter.run).
	{"invalid utf-8 dropped", "a\xffb\xe9c\xed\xa0\x80d\xf4\x90\x80\x80e\xc3", "abcde", ""},
	{"encoded U+FFFD passes", "\xef\xbf\xbd", "\ufffd", ""},
	{"sos pm apc dropped", "\x1bXa\x07\x1b^b\x1b\\\x1b_c\x1b\x1b\x1bx\x1b\\d", "d", ""},
	{"osc ended by bel", "\x1b]0;title\x07q", "q", ""},
	{"ss2 dropped", "\x1bNxa", "a", ""},
	{"ss3 needs a key", "\x1bO\x01a", "\x01a", ""},
	{"doubled esc", "\x1b\x1bx", "\x1bx", ""},
	{"esc before a rune", "\x1bé", "é", ""},
	{"orphan string terminator", "\x1b\\a", "a", ""},
	{"alt+ctrl", "\x1b\x01\x1b\t", "\x1b\x01\x1b\t", ""},
	{"linux console F1", "\x1b[[A", "\x1b[[A", ""},
	{"linux console prefix broken", "\x1b[[\x1bx", "\x1bx", ""},
	{"del ends no csi", "\x1b[1\x7fa", "\x7fa", ""},
	{"paste markers dropped", "\x1b[200~hi\x1b[201~\x1b[<200;5~\x1b[0201~", "hi", ""},
	{"other tilde keys pass", "\x1b[3~\x1b[2000~", "\x1b[3~\x1b[2000~", ""},
	{"win32 key passes", "\x1b[65;30;97;1;0;1_", "\x1b[65;30;97;1;0;1_", ""},
	{"win32 huge repeat dropped", "\x1b[65;30;97;1;0;2000000000_q", "q", ""},
	{"win32 nested esc dropped", "\x1b[0;0;27;1;0;1_\x1b[0;0;93;1;0;1_", "\x1b[0;0;93;1;0;1_", ""},
	{"huge csi dropped", "\x1b[" + strings.Repeat("9", 300) + "mq", "q", ""},
	{"huge csi broken", "\x1b[" + strings.Repeat("9", 300) + "\x01q", "\x01q", ""},
}

// TestFilter feeds every case, after the terminal's confirmation, cut at
// every byte boundary, and checks what tcell receives and what is held. It
// runs on synctest's clock, where the reads come with no pause between
// them (a pause ends an unfinished sequence: see TestPause).
func TestFilter(t *testing.T) {
	synctest.Test(t, testFilter)
}

func testFilter(t *testing.T) {
	for _, tc := range filterCases {
		for way, reads := range splits(tc.in) {
			tty := NewTty(chunks(append([][]byte{[]byte(confirm)}, reads...)...))
			got := readAll(t, tty)
			if got != tc.out {
				t.Errorf("%s, %s: tcell got %q, want %q", tc.name, way, got, tc.out)
			}
			if !tty.Keys().Active() {
				t.Errorf("%s, %s: not active after confirmation", tc.name, way)
			}
			if h := held(tty.Keys()); h != tc.held {
				t.Errorf("%s, %s: held %q, want %q", tc.name, way, h, tc.held)
			}
		}
	}
}

// TestConfirmation checks the answer to the support query, cut anywhere
// after its ESC, is swallowed and sets Active only for the flags we need.
func TestConfirmation(t *testing.T) {
	cases := []struct {
		reply  string
		active bool
	}{
		{"\x1b[?31u", true},
		{"\x1b[?11u", true},
		{"\x1b[?3u", false}, // no flag 8: text keys report no release
		{"\x1b[?1u", false},
		{"\x1b[?0u", false},
	}
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range cases {
			in := tc.reply + "\x1b[97u"
			for i := 2; i <= len(tc.reply); i++ {
				tty := NewTty(chunks([]byte(in[:i]), []byte(in[i:])))
				got := readAll(t, tty)
				if got != "a" {
					t.Errorf("%q split@%d: tcell got %q, want %q", tc.reply, i, got, "a")
				}
				if tty.Keys().Active() != tc.active {
					t.Errorf("%q split@%d: Active %v, want %v", tc.reply, i, !tc.active, tc.active)
				}
				if h := held(tty.Keys()); tc.active != (h == "left") {
					t.Errorf("%q split@%d: held %q", tc.reply, i, h)
				}
			}
		}
	})
}

// TestLoneEsc checks a trailing ESC is held for the next read: what comes
// at once completes it (here Alt+q). When nothing comes it is the Esc key,
// passed on at once as CSI 27 u, so that tcell never waits on it and Esc
// does not wait for the next key: after escWait for an ESC that came
// alone, as a key pressed does, after burstWait for one that ended a
// burst (a flood of arrows cut by the SSH window ended lobbies). With the
// protocol on (where Esc arrives as CSI 27 u) a stale lone ESC is dropped.
func TestLoneEsc(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeTty()
		tty := NewTty(f)
		p := make([]byte, 128)
		// read sends in (if any) after pause, and checks what Read returns
		// and how long it took.
		read := func(in, want, why string, pause, took time.Duration) {
			t.Helper()
			go func() {
				time.Sleep(pause)
				if in != "" {
					f.in <- []byte(in)
				}
			}()
			start := time.Now()
			if n, err := tty.Read(p); err != nil || string(p[:n]) != want {
				t.Fatalf("%s: Read = %q, %v; want %q", why, p[:n], err, want)
			}
			if d := time.Since(start); d != took {
				t.Errorf("%s: Read took %v, want %v", why, d, took)
			}
		}
		stale := staleAfter + time.Millisecond
		read("z\x1b", "z", "ESC held", 0, 0)
		read("q", "\x1bq", "ESC and q at once", 0, 0)
		read("\x1b", "\x1b[27u", "ESC alone then nothing: the Esc key after escWait", 0, escWait)
		read("q", "q", "the key after it", stale, stale)
		read("z\x1b", "z", "ESC after a key: held", 0, 0)
		read("", "\x1b[27u", "then nothing: the Esc key after burstWait", 0, burstWait)
		read("q", "q", "the key after it", stale, stale)
		f.in <- []byte("\x1b")
		read("[A", "\x1b[A", "ESC alone, the rest within escWait", escWait-time.Millisecond, escWait-time.Millisecond)
		read("z\x1b", "z", "ESC after a key: held", 0, 0)
		read("[A", "\x1b[A", "the rest after escWait, within burstWait", escWait+20*time.Millisecond, escWait+20*time.Millisecond)
		read("z\x1b", "z", "ESC held", 0, 0)
		f.in <- []byte("[A")
		time.Sleep(staleAfter + time.Millisecond) // tcell is slow to ask; the rest waits
		read("", "\x1b[A", "the rest waiting through a pause on tcell's side", 0, 0)

		read(confirm+"z\x1b", "z", "active: ESC held", 0, 0)
		f.in <- []byte("[97;1:3u")
		f.in <- []byte("\x1b")
		read("[32u", " ", "active: the release dropped, then space", 0, 0)
		f.in <- []byte("\x1b")
		read("q", "q", "active: ESC alone then a pause", stale, stale)
		read("z\x1b", "z", "active: ESC after a key: held", 0, 0)
		read("q", "q", "active: then a pause of burstWait", burstWait+time.Millisecond, burstWait+time.Millisecond)
		close(f.in)
		if n, err := tty.Read(p); !errors.Is(err, io.EOF) {
			t.Fatalf("at EOF: Read = %q, %v", p[:n], err)
		}
	})
}

// TestPause checks a pause ends whatever sequence the input was inside, so
// the key typed after it is read as a key: a pause of staleAfter for a
// sequence that came alone, of burstWait for one that ended a burst.
func TestPause(t *testing.T) {
	cases := []struct{ in, atOnce string }{
		{"\x1b[", "\x1b[q"},
		{"\x1b[12;", "\x1b[12;q"},
		{"\x1b]0;no end", ""},
		{"\x1b]0;\x1b", ""},
		{"\x1b[" + strings.Repeat("1", 100), ""},
		{"\x1bO", "\x1bOq"},
		{"\x1b[[", "\x1b[[q"},
		{"\xe9", "q"},
		{"\xf0\x9f", "q"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tty := NewTty(chunks([]byte(confirm+tc.in), []byte("q")))
				if got := readAll(t, tty); got != tc.atOnce {
					t.Errorf("%q then q at once: got %q, want %q", tc.in, got, tc.atOnce)
				}
				for _, c := range []struct {
					reads []string
					pause time.Duration
				}{
					{[]string{confirm, tc.in}, staleAfter},
					{[]string{confirm + "z" + tc.in}, burstWait},
				} {
					f := newFakeTty()
					tty = NewTty(f)
					for _, r := range c.reads {
						f.in <- []byte(r)
					}
					go func() {
						time.Sleep(c.pause + time.Millisecond)
						f.in <- []byte("q")
						close(f.in)
					}()
					want := "q"
					if len(c.reads) == 1 {
						want = "zq"
					}
					if got := readAll(t, tty); got != want {
						t.Errorf("%q, a pause of %v, then q: got %q, want %q", c.reads, c.pause, got, want)
					}
				}
			})
		})
	}
}

// TestUnfinishedDroppedAtEOF checks an unfinished sequence at the end of
// the input is dropped, not passed to tcell.
func TestUnfinishedDroppedAtEOF(t *testing.T) {
	for _, in := range []string{"a\x1b", "a\x1b[", "a\x1b[97;1:", "a\xe9", "a\x1b]0;title"} {
		tty := NewTty(chunks([]byte(confirm), []byte(in)))
		if got := readAll(t, tty); got != "a" {
			t.Errorf("%q: got %q, want %q", in, got, "a")
		}
	}
}

// TestNotConfirmed checks that without the terminal's answer presses still
// reach tcell, but nothing reads as held: press-only mode.
func TestNotConfirmed(t *testing.T) {
	tty := NewTty(chunks([]byte("\x1b[97u\x1b[D\x1b[32;1:2u")))
	if got := readAll(t, tty); got != "a\x1b[D" {
		t.Errorf("got %q", got)
	}
	k := tty.Keys()
	if k.Active() || held(k) != "" || k.Poll() != 0 {
		t.Errorf("Active %v, held %q, Poll %b; want nothing", k.Active(), held(k), k.Poll())
	}
	var nilKeys *Keys
	if nilKeys.Active() || nilKeys.Held(Fire) || nilKeys.Poll() != 0 {
		t.Error("nil *Keys must read as inactive and empty")
	}
}

// TestPollCountsTaps checks a press and its release within one read still
// shows in the next Poll, once.
func TestPollCountsTaps(t *testing.T) {
	f := newFakeTty()
	tty := NewTty(f)
	p := make([]byte, 128)
	f.in <- []byte(confirm + "\x1b[32u\x1b[32;1:3u\x1b[D.")
	for got := ""; !strings.HasSuffix(got, "."); { // one read of the terminal, in chunks
		n, err := tty.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		got += string(p[:n])
	}
	k := tty.Keys()
	if k.Held(Fire) {
		t.Error("fire held after its release")
	}
	if s := k.Poll(); !s.Has(Fire) || !s.Has(Left) || s.Has(Right) {
		t.Errorf("first Poll = %b, want fire and left", s)
	}
	if s := k.Poll(); s.Has(Fire) || !s.Has(Left) {
		t.Errorf("second Poll = %b, want left only (still held)", s)
	}
}

// TestHyperKeys checks h and s are both hyperspace, held while either is.
func TestHyperKeys(t *testing.T) {
	f := newFakeTty()
	tty := NewTty(f)
	p := make([]byte, 128)
	k := tty.Keys()
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{confirm + "\x1b[115u", true}, // s down
		{"\x1b[104u", true},           // h down too
		{"\x1b[115;1:3u.", true},      // s up, h still down (. for a byte to read)
		{"\x1b[104;1:3u.", false},     // h up
	} {
		f.in <- []byte(tc.in)
		if _, err := tty.Read(p); err != nil {
			t.Fatal(err)
		}
		if got := k.Held(Hyper); got != tc.want {
			t.Errorf("after %q: hyperspace held %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestReadAllocs checks the filter allocates nothing per read.
func TestReadAllocs(t *testing.T) {
	chunk := []byte(confirm + "x\x1b[97u\x1b[97;1:2u\x1b[<0;10;5M\x1b[97;1:3u\x1b[1;2:1C\x1b[9;2u\x1b[97:65;2;65u")
	tty := NewTty(&loopTty{fakeTty: newFakeTty(), chunk: chunk})
	p := make([]byte, 128)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := tty.Read(p); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Read allocates %v times per call, want 0", allocs)
	}
}

// FuzzFilter checks, for any input: no panic; rewriting only ever shrinks;
// cutting the input into reads anywhere changes nothing; what tcell gets is
// whole units its parser ends in its ground state after (wholeUnits); and
// UTF-8 text without ESC passes through byte for byte.
func FuzzFilter(f *testing.F) {
	for _, tc := range filterCases {
		f.Add([]byte(tc.in))
	}
	for _, w := range wedges {
		f.Add([]byte(w))
	}
	f.Add([]byte("\x1b[?31u\x1b[97u\x1b"))
	f.Add([]byte("\x1b\x1b[\x1b[1;\x1b[1;1:\x1b[1;1:3"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 512 {
			t.Skip()
		}
		synctest.Test(t, func(t *testing.T) {
			whole := readAll(t, NewTty(chunks([]byte(confirm), in)))
			if len(whole) > len(in) {
				t.Fatalf("output %q longer than input %q", whole, in)
			}
			if err := wholeUnits(whole); err != nil {
				t.Fatalf("%q gave %q: %v", in, whole, err)
			}
			for way, reads := range splits(string(in)) {
				got := readAll(t, NewTty(chunks(append([][]byte{[]byte(confirm)}, reads...)...)))
				if got != whole {
					t.Fatalf("%s: %q, whole: %q", way, got, whole)
				}
			}
			plain := strings.ToValidUTF8(strings.ReplaceAll(string(in), "\x1b", "^"), "?")
			if got := readAll(t, NewTty(chunks([]byte(plain)))); got != plain {
				t.Fatalf("plain input changed: %q -> %q", plain, got)
			}
		})
	})
}

// wholeUnits runs tcell v2.13's input state machine (input.go) over out
// and reports an error unless out is UTF-8 that leaves it in its ground
// state, having passed through no state that swallows what follows (the
// strings, SS2, a doubled ESC).
func wholeUnits(out string) error {
	if !utf8.ValidString(out) {
		return errors.New("not UTF-8")
	}
	const (
		ground = iota
		escape
		csi
		ss3
		linuxKey
	)
	state := ground
	for i, r := range out {
		bad := fmt.Errorf("byte %d (%q) in state %d", i, r, state)
		switch state {
		case ground:
			if r == esc {
				state = escape
			}
		case escape:
			switch {
			case r == '[':
				state = csi
			case r == 'O':
				state = ss3
			case r == esc || r >= utf8.RuneSelf || strings.ContainsRune("]NX^_\\", r):
				return bad
			default:
				state = ground
			}
		case csi:
			switch {
			case r >= 0x20 && r <= 0x3f:
			case r == '[':
				state = linuxKey
			case r >= 0x40 && r <= 0x7e:
				state = ground
			default:
				return bad
			}
		case ss3, linuxKey:
			if r < 0x20 || r > 0x7e {
				return bad
			}
			state = ground
		}
	}
	if state != ground {
		return fmt.Errorf("ends in state %d", state)
	}
	return nil
}

// BenchmarkRead measures filtering a busy stream (held keys repeating,
// releases, mouse motion) as tcell reads it, 128 bytes at a time.
func BenchmarkRead(b *testing.B) {
	chunk := []byte(strings.Repeat("\x1b[97;1:2u\x1b[32;1:2u\x1b[<35;10;5M\x1b[1;1:2D\x1b[119u\x1b[119;1:3ux", 32))
	inner := &loopTty{fakeTty: newFakeTty(), chunk: chunk}
	tty := NewTty(inner)
	p := make([]byte, 128)
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		// One op: everything tcell gets from one inner read.
		for r := inner.reads; inner.reads == r; {
			if _, err := tty.Read(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// sinkLog records what Forward sends.
type sinkLog struct {
	mu  sync.Mutex
	got []string
}

func (s *sinkLog) Down(k Key) { s.add("+" + k.String()) }
func (s *sinkLog) Up(k Key)   { s.add("-" + k.String()) }

func (s *sinkLog) add(e string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, e)
}

func (s *sinkLog) take() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := strings.Join(s.got, " ")
	s.got = nil
	return got
}

// TestForward: a game key's held state goes to the sink as it changes:
// Down for its first physical key, Up for its last; Up for every key held
// at a focus loss and when the protocol stops; nothing before the
// protocol is confirmed, and nothing once the sink is taken away.
func TestForward(t *testing.T) {
	f := newFakeTty()
	tty := NewTty(f)
	k := tty.Keys()
	var log sinkLog
	k.Forward(&log)
	p := make([]byte, 128)
	for _, tc := range []struct{ in, want string }{
		{"\x1b[97u.", ""},                         // a, not confirmed: press-only
		{"\x1b[97;1:3u.", ""},                     // and let go
		{confirm + "\x1b[97u", "+left"},           // a
		{"\x1b[1;1:1D", ""},                       // ← too: left is held already
		{"\x1b[97;1:2u\x1b[97;1:3u.", ""},         // a repeats, then is let go: ← holds
		{"\x1b[1;1:3D.", "-left"},                 // ← let go
		{"\x1b[32u\x1b[32;1:3u.", "+fire -fire"},  // a tap within one read
		{"\x1b[119u\x1b[115u.", "+thrust +hyper"}, // w, s
		{"\x1b[O.", "-thrust -hyper"},             // focus lost
		{"\x1b[100u.", "+right"},                  // d
	} {
		f.in <- []byte(tc.in)
		if _, err := tty.Read(p); err != nil {
			t.Fatal(err)
		}
		if got := log.take(); got != tc.want {
			t.Errorf("after %q: forwarded %q, want %q", tc.in, got, tc.want)
		}
	}
	if _, err := tty.Write(tcellPop); err != nil {
		t.Fatal(err)
	}
	if got := log.take(); got != "-right" {
		t.Errorf("the protocol stopped: forwarded %q, want -right", got)
	}
	k.Forward(nil)
	f.in <- []byte(confirm + "\x1b[100u.")
	if _, err := tty.Read(p); err != nil {
		t.Fatal(err)
	}
	if got := log.take(); got != "" {
		t.Errorf("without a sink: forwarded %q", got)
	}
}
