package kitty

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// tcellEnable and tcellDisable are what tcell v2.13 writes, each in one
// Write, for xterm-like terminals.
const (
	tcellEnable  = "\x1b[>4;2m\x1b[>1u\x1b[?9001h"
	tcellDisable = "\x1b[?9001l\x1b[<u\x1b[>4;0m"
)

// TestWriteRewritesPush checks the protocol switch going out.
func TestWriteRewritesPush(t *testing.T) {
	cases := []struct {
		name, in, out string
	}{
		{"tcell enable", tcellEnable, "\x1b[>4;2m\x1b[>31u\x1b[?u\x1b[?9001h"},
		{"push alone", "\x1b[>1u", "\x1b[>31u\x1b[?u"},
		{"tcell disable", tcellDisable, tcellDisable},
		{"frame", "\x1b[H\x1b[38;5;2mhello\x1b[<", "\x1b[H\x1b[38;5;2mhello\x1b[<"},
		{"other push", "\x1b[>3u", "\x1b[>3u"},
	}
	for _, tc := range cases {
		f := newFakeTty()
		tty := NewTty(f)
		n, err := tty.Write([]byte(tc.in))
		if err != nil || n != len(tc.in) {
			t.Errorf("%s: Write = %d, %v; want %d, nil", tc.name, n, err, len(tc.in))
		}
		if got := f.written(); got != tc.out {
			t.Errorf("%s: terminal got %q, want %q", tc.name, got, tc.out)
		}
	}
}

// TestPopOnExit checks the protocol is switched off exactly once however
// the program leaves: tcell's own pop, or Stop or Close without one.
func TestPopOnExit(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		exit   func(*Tty) error
		pops   int
	}{
		{"tcell pops then Stop", []string{tcellEnable, "frame", tcellDisable}, (*Tty).Stop, 1},
		{"Stop without tcell's pop", []string{tcellEnable, "frame"}, (*Tty).Stop, 1},
		{"Close without tcell's pop", []string{tcellEnable}, (*Tty).Close, 1},
		{"Stop then Close", []string{tcellEnable}, func(t *Tty) error { _ = t.Stop(); return t.Close() }, 1},
		{"never pushed", []string{"frame"}, (*Tty).Close, 0},
		{"resume pushes again", []string{tcellEnable, tcellDisable, tcellEnable}, (*Tty).Stop, 2},
	}
	for _, tc := range cases {
		f := newFakeTty()
		tty := NewTty(f)
		for _, w := range tc.writes {
			if _, err := tty.Write([]byte(w)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tc.exit(tty); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if got := strings.Count(f.written(), "\x1b[<u"); got != tc.pops {
			t.Errorf("%s: %d pops written, want %d (%q)", tc.name, got, tc.pops, f.written())
		}
		if tty.Keys().Active() {
			t.Errorf("%s: still active after exit", tc.name)
		}
	}
}

// TestPopForgetsKeys checks that once the protocol is off nothing stays held
// (no release will come) and Active waits for a new confirmation.
func TestPopForgetsKeys(t *testing.T) {
	f := newFakeTty()
	tty := NewTty(f)
	f.in <- []byte(confirm + "\x1b[32u")
	p := make([]byte, 128)
	if _, err := tty.Read(p); err != nil {
		t.Fatal(err)
	}
	if !tty.Keys().Held(Fire) {
		t.Fatal("fire not held after its press")
	}
	if _, err := tty.Write([]byte(tcellDisable)); err != nil {
		t.Fatal(err)
	}
	k := tty.Keys()
	if k.Active() || k.down.Load() != 0 {
		t.Errorf("after pop: Active %v, down %b; want inactive, nothing down", k.Active(), k.down.Load())
	}
}

// TestDrainWakesRead checks a Read blocked on a silent terminal returns once
// Drain is called: Read holds no lock Drain would wait for.
func TestDrainWakesRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeTty()
		tty := NewTty(f)
		done := make(chan error, 1)
		go func() {
			_, err := tty.Read(make([]byte, 128))
			done <- err
		}()
		synctest.Wait() // Read blocks
		if err := tty.Drain(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if !errors.Is(err, errFakeDrained) {
				t.Errorf("Read returned %v, want the inner Tty's drain error", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Read still blocked after Drain")
		}
	})
}

// TestStartForgetsCarriedInput checks bytes held back before a Stop do not
// leak into the input after the next Start.
func TestStartForgetsCarriedInput(t *testing.T) {
	f := newFakeTty()
	tty := NewTty(f)
	p := make([]byte, 128)
	f.in <- []byte(confirm + "a\x1b[97")
	if n, err := tty.Read(p); err != nil || string(p[:n]) != "a" {
		t.Fatalf("Read = %q, %v", p[:n], err)
	}
	if err := tty.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := tty.Start(); err != nil {
		t.Fatal(err)
	}
	f.in <- []byte("b")
	if n, err := tty.Read(p); err != nil || string(p[:n]) != "b" {
		t.Errorf("Read after restart = %q, %v; want %q", p[:n], err, "b")
	}
	if f.started != 1 || f.stopped != 1 {
		t.Errorf("inner started %d, stopped %d; want 1, 1", f.started, f.stopped)
	}
}

// TestDelegates checks the calls tcell makes reach the inner Tty.
func TestDelegates(t *testing.T) {
	f := newFakeTty()
	tty := NewTty(f)
	ws, err := tty.WindowSize()
	if err != nil || ws.Width != 80 || ws.Height != 24 {
		t.Errorf("WindowSize = %+v, %v", ws, err)
	}
	tty.NotifyResize(func() {})
	if err := tty.Close(); err != nil || f.closed != 1 {
		t.Errorf("Close = %v, inner closed %d times", err, f.closed)
	}
}

// TestTcellNeverHeldOnEsc: what a Read hands tcell is at most tcellWindow
// bytes and never ends with an ESC. tcell decodes its input tcellWindow
// bytes at a time, and an ESC that ends such a window starts its escape
// timer: on a busy machine the next window came more than 60 ms later,
// and an arrow's ESC was the Esc key (a flood of arrows quit lobbies).
func TestTcellNeverHeldOnEsc(t *testing.T) {
	flood := strings.Repeat("\x1b[A\x1b[B\x1b[C\x1b[Dx\x1b[1;5C\x1b[<35;120;40M", 20)
	tty := NewTty(chunks([]byte(flood)))
	var got []byte
	p := make([]byte, 128)
	for {
		n, err := tty.Read(p)
		if n > tcellWindow || n > 0 && p[n-1] == esc {
			t.Fatalf("Read handed tcell %q", p[:n])
		}
		got = append(got, p[:n]...)
		if err != nil {
			break
		}
	}
	if string(got) != flood {
		t.Errorf("read %q, want the flood whole", got)
	}
}
