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
		tty, scr := newTerminal(t, 80, 24)
		var out strings.Builder
		tty.tap = func(p []byte) { out.Write(p) }
		e := &appScreen{Screen: scr, epoch: 1}
		if err := e.Init(); err != nil {
			t.Fatal(err)
		}
		defer e.Fini()
		if e.frame == nil {
			t.Fatal("the screen leaves its frames to tcell")
		}
		e.resize()
		putString(e, 3, 2, 80, "poolroids", tcell.StyleDefault.Foreground(tcell.ColorYellow))
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
