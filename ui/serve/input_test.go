package serve

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/ui/kitty"
)

// TestBadInputThenQuit plays the real game over SSH, sends bytes tcell's
// parser cannot take, then q: the session ends with status 0. tcell v2.13
// alone spins for ever on a byte that is not UTF-8 and swallows every key
// after an unfinished OSC string; the kitty filter every session reads
// through drops them. The OSC case pauses before the q, as a player would:
// a pause is what ends an unfinished sequence. It pauses on a synctest
// bubble's clock, the server in memory; the others are over TCP, where a
// spinning parser fails the test rather than stopping the bubble's clock.
func TestBadInputThenQuit(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"invalid byte", "\xff"},
		{"lead byte and no continuation", "\xe9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typeThenQuit(t, startServer(t, Config{Play: uiPlay}), tc.in, func() {})
		})
	}
	t.Run("unfinished OSC string", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			pause := func() { time.Sleep(300 * time.Millisecond) } // longer than the filter's 100 ms
			typeThenQuit(t, startPipeServer(t, Config{Play: uiPlay}), "\x1b]0;no end", pause)
		})
	})
}

// typeThenQuit plays on ts, types in, pauses, types q and checks the
// session ends with status 0.
func typeThenQuit(t *testing.T, ts *testServer, in string, pause func()) {
	t.Helper()
	p := play(t, ts.mustDial(t, "kim", nil), ptyOpts{w: 100, h: 30})
	p.waitScreen(t, "pools", "│strategy ")
	p.keys(t, in)
	pause()
	p.keys(t, "q")
	if st := p.exit(t); st != 0 {
		t.Errorf("exit status after %q and q = %d, want 0", in, st)
	}
	waitLog(t, ts, "msg=disconnect", "user=kim", "reason=quit")
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

// TestEveryTermDrawsWithoutDelay draws a frame on a session's screen for
// every entry in tcell's built-in terminfo database, on synctest's clock:
// the frame must take no time. tcell sleeps the padding of entries such as
// vt100's (5 ms a cursor move, 2 ms a style change), which made a frame
// take seconds and q take 16 s.
func TestEveryTermDrawsWithoutDelay(t *testing.T) {
	names := []string{
		"aixterm", "alacritty", "ansi", "cygwin", "dtterm", "eterm", "eterm-color",
		"foot", "gnome", "gnome-256color", "konsole", "konsole-256color", "kterm",
		"linux", "pcansi", "rxvt", "rxvt-256color", "rxvt-88color", "rxvt-unicode",
		"rxvt-unicode-256color", "screen", "screen-256color", "st", "st-256color",
		"sun", "sun-color", "tmux", "tmux-256color", "vt100", "vt102", "vt220",
		"vt320", "vt400", "vt420", "xfce", "xterm", "xterm-88color",
		"xterm-256color", "xterm-ghostty", "xterm-kitty",
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ti, got := (&clientTerm{term: name}).terminfo()
				if got != name {
					t.Fatalf("TERM=%s: got the entry for %s", name, got)
				}
				in, client := io.Pipe()
				raw := newTty(in, io.Discard, 80, 24, nil)
				scr, err := kitty.NewScreen(kitty.NewTty(raw), ti)
				if err != nil {
					t.Fatal(err)
				}
				if err := scr.Init(); err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				// Every other cell, in styles that alternate: a cursor move
				// and a style change for each.
				styles := []tcell.Style{tcell.StyleDefault.Bold(true), tcell.StyleDefault.Reverse(true)}
				for y := range 24 {
					for x := 0; x < 80; x += 2 {
						scr.SetContent(x, y, '#', nil, styles[(x/2+y)%2])
					}
				}
				scr.Show()

				if d := time.Since(start); d != 0 {
					t.Errorf("TERM=%s: a frame took %v of sleeps", name, d)
				}
				scr.Fini()
				client.Close()
				raw.Close()
				<-raw.pumped
			})
		})
	}
}

// TestArrowFloodNoEsc: a flood of arrow keys to a game slow to take them
// never becomes the Esc key. 2 to 4 of 8 lobbies under such a flood used
// to quit: the input was paced by the screen's event queue below the
// kitty filter, and held back bytes that had come, the start of an
// arrow's sequence among them, while the filter timed the wait as the
// terminal's pause and took the lone ESC for the key. The game here
// takes a 60 ms break every 40 keys, as a busy machine's would; on
// synctest's clock.
func TestArrowFloodNoEsc(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ts := startPipeServer(t, Config{Play: slowPlay})
		p := play(t, ts.mustDial(t, "kim", nil), ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "keys 0")
		// 16 bytes a unit (four arrows and Insert) after 15 to start: the
		// input used to be handed on 16 bytes at a time, each of which
		// then ended with an ESC.
		p.keys(t, "\x1b[A\x1b[B\x1b[C\x1b[D\x1b[D"+strings.Repeat("\x1b[A\x1b[B\x1b[C\x1b[D\x1b[2~", 400))
		p.keys(t, "q")
		if st := p.exit(t); st != 0 {
			t.Errorf("exit status %d, want 0; the game said %q", st, tail(p.output()))
		}
		waitLog(t, ts, "msg=disconnect", "score=2005") // every key, and no other
	})
}

// slowPlay counts the keys it gets, shown as "keys N" every 40, with a
// 60 ms break after each showing; q ends it, and so does Esc, with a
// refusal.
func slowPlay(ctx context.Context, scr tcell.Screen, s Session) (int, error) {
	if err := scr.Init(); err != nil {
		return 0, err
	}
	defer scr.Fini()
	n := 0
	show := func() { showLine(scr, fmt.Sprintf("keys %d", n)) }
	show()
	for {
		switch ev := scr.PollEvent().(type) {
		case nil:
			return n, nil
		case *tcell.EventKey:
			switch {
			case ev.Key() == tcell.KeyEscape:
				return n, &RefusedError{Message: fmt.Sprintf("Esc after %d keys", n)}
			case ev.Rune() == 'q':
				return n, nil
			}
			if n++; n%40 == 0 {
				show()
				time.Sleep(60 * time.Millisecond)
			}
		}
	}
}
