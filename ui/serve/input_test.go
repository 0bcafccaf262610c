package serve

import (
	"testing"
	"time"
)

// TestBadInputThenQuit plays the real game over SSH, sends bytes tcell's
// parser cannot take, then q: the session ends with status 0. tcell v2.13
// alone spins for ever on a byte that is not UTF-8 and swallows every key
// after an unfinished OSC string; the kitty filter every session reads
// through drops them. The OSC case pauses before the q, as a player would:
// a pause is what ends an unfinished sequence.
func TestBadInputThenQuit(t *testing.T) {
	cases := []struct {
		name, in string
		pause    bool
	}{
		{"invalid byte", "\xff", false},
		{"lead byte and no continuation", "\xe9", false},
		{"unfinished OSC string", "\x1b]0;no end", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, Config{Play: uiPlay})
			p := play(t, ts.mustDial(t, "kim", nil), ptyOpts{w: 100, h: 30})
			p.waitScreen(t, "pools", "│strategy ")
			p.keys(t, tc.in)
			if tc.pause {
				// Not a wait for anything: the player's pause itself,
				// longer than the filter's 100 ms.
				time.Sleep(300 * time.Millisecond)
			}
			p.keys(t, "q")
			if st := p.exit(t); st != 0 {
				t.Errorf("exit status after %q and q = %d, want 0", tc.in, st)
			}
			waitLog(t, ts, "msg=disconnect", "user=kim", "reason=quit")
		})
	}
}

// TestBadInputThenHangUp checks a session that got an invalid byte still
// ends, and logs it, when the client hangs up.
func TestBadInputThenHangUp(t *testing.T) {
	ts := startServer(t, Config{Play: uiPlay})
	c := ts.mustDial(t, "lee", nil)
	p := play(t, c, ptyOpts{w: 100, h: 30})
	p.waitScreen(t, "pools", "│strategy ")
	p.keys(t, "\xff")
	c.Close()
	waitLog(t, ts, "msg=disconnect", "user=lee")
}

// TestTerminfoNoPadding checks a session's terminfo entry asks for no
// padding: tcell sleeps the delays of entries such as vt100's (5 ms a
// cursor move), which made a frame take seconds and q take 16 s.
func TestTerminfoNoPadding(t *testing.T) {
	for _, name := range []string{"vt100", "vt102", "vt220", "vt400", "vt420", "xterm-256color"} {
		c := clientTerm{term: name}
		ti, got := c.terminfo()
		if got != name {
			t.Fatalf("TERM=%s: got the entry for %s", name, got)
		}
		if ti.PadChar != "" {
			t.Errorf("TERM=%s: pad character %q: tcell will sleep its padding", name, ti.PadChar)
		}
	}
}
