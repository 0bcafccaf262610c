package kitty

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// TestScreenEndToEnd builds a real tcell screen on the wrapper, plays the
// terminal's side byte by byte, and checks tcell sees each press once and
// never a release or a game-key repeat, while the held state follows.
// It runs on synctest's clock, as tcell's goroutines do in its bubble.
func TestScreenEndToEnd(t *testing.T) {
	t.Setenv("LANG", "en_US.UTF-8")
	synctest.Test(t, func(t *testing.T) {
		f, tty, s := newScreen(t)
		fini := sync1(s.Fini)
		defer fini()

		out := f.written()
		if !strings.Contains(out, "\x1b[>31u\x1b[?u") || strings.Contains(out, "\x1b[>1u") {
			t.Fatalf("protocol switch not rewritten: %q", out)
		}

		events := make(chan *tcell.EventKey, 64)
		go func() {
			for {
				switch ev := s.PollEvent().(type) {
				case nil:
					close(events)
					return
				case *tcell.EventKey:
					events <- ev
				}
			}
		}()

		send := func(in string) {
			for i := range len(in) {
				f.in <- []byte{in[i]}
			}
		}
		next := func() string {
			select {
			case ev := <-events:
				return describe(ev)
			case <-time.After(5 * time.Second):
				t.Fatal("no key event from tcell")
				return ""
			}
		}

		// The answer comes in one piece; until it has, a lone ESC goes to tcell
		// at once (see TestLoneEsc), so only then is cutting at every byte fair.
		f.in <- []byte(confirm)
		synctest.Wait()
		if !tty.Keys().Active() {
			t.Fatal("confirmation never seen")
		}
		steps := []struct {
			in    string
			event string // what tcell reports; "" for nothing
			held  string
		}{
			{"\x1b[97u", "rune a", "left"},
			{"\x1b[97;1:2u\x1b[97;1:2u", "", "left"},
			{"\x1b[32u", "rune  ", "left fire"},
			{"\x1b[97;1:3u", "", "fire"},
			{"\x1b[32;1:3u", "", ""},
			{"\x1b[1;1:1C", "Right", "right"},
			{"\x1b[1;1:2C\x1b[1;1:3C", "", ""},
			{"\x1b[119;2u", "rune W", "thrust"},
			{"\x1b[119;1:3u", "", ""},
			{"\x1b[104u\x1b[104;1:3u", "rune h", ""},
			{"\x1b[57441;2u\x1b[57441;1:3u", "", ""},
			{"\x1b[9;2u", "Backtab", ""},
			{"\x1b[27u", "Esc", ""},
			{"\x1b[13u", "Enter", ""},
			{"\x1b[51u\x1b[51;1:3u", "rune 3", ""},
			{"\x1b[<0;3;4M\x1b[113u", "rune q", ""},
			{"\x1b[99;5u", "Ctrl+C", ""},
		}
		for _, st := range steps {
			// A sentinel after each step shows tcell delivered everything
			// before it, so "no event" is checked, not assumed.
			send(st.in + "\x1b[122u")
			if st.event != "" {
				if got := next(); got != st.event {
					t.Errorf("%q: tcell reported %s, want %s", st.in, got, st.event)
				}
			}
			if got := next(); got != "rune z" {
				t.Errorf("%q: tcell reported %s, want only %q before the sentinel", st.in, got, st.event)
			}
			if h := held(tty.Keys()); h != st.held {
				t.Errorf("%q: held %q, want %q", st.in, h, st.held)
			}
		}

		fini()
		if n := strings.Count(f.written(), "\x1b[<u"); n != 1 {
			t.Errorf("%d pops written on Fini, want 1", n)
		}
		if f.stopped != 1 || f.closed != 1 {
			t.Errorf("inner stopped %d, closed %d times; want 1, 1", f.stopped, f.closed)
		}
	})
}

// newScreen starts a real xterm-256color tcell screen on the filter over a
// fake terminal.
func newScreen(t testing.TB) (*fakeTty, *Tty, *Screen) {
	t.Helper()
	f := newFakeTty()
	tty := NewTty(f)
	s, err := NewScreen(tty, xterm(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	return f, tty, s
}

// xterm returns the terminfo entry of xterm-256color.
func xterm(t testing.TB) *terminfo.Terminfo {
	t.Helper()
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	return ti
}

// describe names a key event the way the test's table does.
func describe(ev *tcell.EventKey) string {
	if ev.Key() == tcell.KeyRune {
		return fmt.Sprintf("rune %c", ev.Rune())
	}
	if ev.Key() == tcell.KeyCtrlC {
		return "Ctrl+C"
	}
	return ev.Name()
}

// sync1 makes fn safe to call twice (the deferred call after an explicit one).
func sync1(fn func()) func() {
	done := false
	return func() {
		if !done {
			done = true
			fn()
		}
	}
}

// pacedReader is a started screen reader on a Tty over f, whose tcell
// queue holds as many events as queued says.
func pacedReader(t *testing.T, f *fakeTty) (*readerTty, *atomic.Int32) {
	t.Helper()
	queued := new(atomic.Int32)
	r := &readerTty{Tty: NewTty(f), queued: func() int { return int(queued.Load()) }}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	return r, queued
}

// TestPacing: the screen's reader hands tcell small chunks, none while
// its event queue holds maxQueued events, and Drain wakes a Read that
// waits for room.
func TestPacing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeTty()
		r, queued := pacedReader(t, f)
		f.in <- []byte("0123456789abcdefghijklmnopqrstuvwxyz")
		buf := make([]byte, 128)
		if n, err := r.Read(buf); err != nil || n != tcellWindow {
			t.Fatalf("Read = %d, %v; want %d bytes", n, err, tcellWindow)
		}
		queued.Store(maxQueued)
		got := make(chan int, 1)
		go func() {
			n, _ := r.Read(buf)
			got <- n
		}()
		time.Sleep(10 * queuePoll)
		select {
		case n := <-got:
			t.Fatalf("Read returned %d bytes with the queue full", n)
		default:
		}
		queued.Store(maxQueued - 1)
		time.Sleep(queuePoll)
		if n := <-got; n != tcellWindow {
			t.Errorf("Read = %d bytes once the queue drained, want %d", n, tcellWindow)
		}
		queued.Store(maxQueued)
		go func() {
			_, err := r.Read(buf)
			if !errors.Is(err, errDrained) {
				t.Errorf("paced Read after Drain: %v", err)
			}
			got <- 0
		}()
		synctest.Wait() // the Read waits for room in the queue
		r.Drain()
		<-got
	})
}

// TestPacingKeepsEsc: however long tcell's queue keeps the reader
// waiting, an ESC whose sequence's rest the terminal has sent is never
// the Esc key: the filter reads what came as it comes, below the
// pacing. With the pacing below the filter, a flood of arrow keys to a
// busy lobby quit it.
func TestPacingKeepsEsc(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeTty()
		r, queued := pacedReader(t, f)
		// Each read of the terminal ends with the ESC of the next arrow.
		f.in <- []byte("\x1b[A\x1b[B\x1b[C\x1b[D\x1b[A\x1b")
		for range 20 {
			f.in <- []byte("[B\x1b[C\x1b[D\x1b[A\x1b[B\x1b")
		}
		var got []byte
		buf := make([]byte, 128)
		for i := 0; len(got) < 15+20*15; i++ {
			if i%3 == 1 {
				queued.Store(maxQueued)
				time.AfterFunc(200*time.Millisecond, func() { queued.Store(0) }) // a slow frame
			}
			n, err := r.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, buf[:n]...)
		}
		if want := "\x1b[A\x1b[B\x1b[C\x1b[D\x1b[A" + strings.Repeat("\x1b[B\x1b[C\x1b[D\x1b[A\x1b[B", 20); string(got) != want {
			t.Errorf("read %q,\nwant %q: the arrows whole, and no Esc key (%q)", got, want, escKey)
		}
	})
}
