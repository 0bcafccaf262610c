package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/gdamore/tcell/v2"
)

// TestDirectScreen: on an xterm-256color terminal in UTF-8 the session's
// screen writes its frames itself. tcell still redraws its own cells when
// the terminal signals a window change, with or without a new size; they
// are locked, so that redraw sends nothing over the game. Once the session
// hands the screen back, tcell's next redraw sends them all.
func TestDirectScreen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tty, scr := newXterm(t, 80, 24)
		var out strings.Builder
		tty.tap = func(p []byte) { out.Write(p) }
		e := newTerminal(scr, nil)
		if err := e.start(); err != nil {
			t.Fatal(err)
		}
		defer scr.Fini()
		if !e.direct {
			t.Fatal("the screen leaves its frames to tcell")
		}
		sf := newSurface(e)
		sf.resize()
		putString(sf, 3, 2, 80, "poolroids", tcell.StyleDefault.Foreground(tcell.ColorYellow))
		e.Show()
		if !strings.Contains(out.String(), "\x1b[3;4H\x1b[93mpoolroids") {
			t.Fatalf("the frame was sent as %q", out.String())
		}
		if s, _, _ := scr.Get(3, 2); s != " " {
			t.Errorf("tcell's own cell holds %q, want a blank", s)
		}
		redraw := func() int64 {
			synctest.Wait()
			n := tty.n.Load()
			tty.resize()
			synctest.Wait()
			return tty.n.Load() - n
		}
		if n := redraw(); n == 0 || n > 64 {
			t.Errorf("tcell's redraw during the game sent %d bytes, want a few (the cursor's)", n)
		}
		e.Show()
		if n := redraw(); n > 64 {
			t.Errorf("tcell's redraw during the game sent %d bytes, want a few", n)
		}
		e.release()
		if n := redraw(); n < 80*24 {
			t.Errorf("tcell's redraw once the screen is handed back sent %d bytes, want every cell", n)
		}
	})
}

// startTerm starts the terminal of s, a session's own, as its run would,
// and finalises it when the test ends.
func startTerm(t testing.TB, s *session) {
	t.Helper()
	term := s.term.(*terminal)
	if err := term.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		term.release()
		term.dev.Fini()
	})
}

// startedTerminal is the terminal of scr, started, as PlayLobby makes
// one for a connection's lobbies and games.
func startedTerminal(t testing.TB, scr tcell.Screen) *terminal {
	t.Helper()
	term := newTerminal(scr, nil)
	if err := term.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(term.release)
	return term
}
