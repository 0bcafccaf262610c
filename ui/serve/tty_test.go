package serve

import (
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestTtyDrain is the trap tcell's Stop falls into with a Tty whose Drain
// does not wake a blocked Read: Fini would hang until the player typed.
// The Tty's tests run on synctest's clock: its pump and timers are in the
// bubble.
func TestTtyDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tty, feed := pipedTty(t, 80, 24)
		got := make(chan error, 1)
		read := func() {
			buf := make([]byte, 16)
			_, err := tty.Read(buf)
			got <- err
		}
		go read()
		synctest.Wait() // the Read blocks
		if err := tty.Drain(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-got:
			if !errors.Is(err, errDrained) {
				t.Errorf("Read after Drain: %v, want errDrained", err)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("Drain did not wake a blocked Read")
		}
		// Started again, the Tty reads again, and input split over Reads
		// comes out whole.
		if err := tty.Start(); err != nil {
			t.Fatal(err)
		}
		go feed.Write([]byte("hello"))
		var out []byte
		for len(out) < 5 {
			buf := make([]byte, 2)
			n, err := tty.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, buf[:n]...)
		}
		if string(out) != "hello" {
			t.Errorf("read %q, want hello", out)
		}
	})
}

func TestTtyEOF(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, feed := io.Pipe()
		eof := make(chan struct{})
		tty := newTty(in, io.Discard, 80, 24, func() { close(eof) })
		defer tty.Close()
		feed.Close()
		if _, err := tty.Read(make([]byte, 8)); err != io.EOF {
			t.Errorf("Read at the end of input: %v, want io.EOF", err)
		}
		select {
		case <-eof:
		case <-time.After(2 * time.Second):
			t.Fatal("onEOF not called")
		}
		<-tty.pumped
	})
}

func TestTtyResizeAndIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tty, feed := pipedTty(t, 0, 0)
		if ws, _ := tty.WindowSize(); ws.Width != defaultWidth || ws.Height != defaultHeight {
			t.Errorf("size for a 0×0 pty = %dx%d, want %dx%d", ws.Width, ws.Height, defaultWidth, defaultHeight)
		}
		var calls atomic.Int32
		tty.NotifyResize(func() { calls.Add(1) })
		tty.resize(100, 30) // passed on at once
		tty.resize(100, 30) // unchanged: not passed on
		for i := range 100 {
			tty.resize(uint32(200+i), 50) // a flood within resizeGap: one notice later
		}
		tty.resize(65535, 65535)
		if n := calls.Load(); n != 1 {
			t.Errorf("%d resize notices at once, want 1", n)
		}
		if ws, _ := tty.WindowSize(); ws.Width != MaxWidth || ws.Height != MaxHeight {
			t.Errorf("size %dx%d, want %dx%d", ws.Width, ws.Height, MaxWidth, MaxHeight)
		}
		time.Sleep(3 * resizeGap)
		if n := calls.Load(); n != 2 {
			t.Errorf("%d resize notices after the gap, want 2", n)
		}

		time.Sleep(30 * time.Millisecond)
		if d := tty.idleFor(); d != 3*resizeGap+30*time.Millisecond {
			t.Errorf("idle %v after %v without input", d, 3*resizeGap+30*time.Millisecond)
		}
		go feed.Write([]byte("x"))
		if _, err := tty.Read(make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
		if d := tty.idleFor(); d != 0 {
			t.Errorf("idle %v right after input", d)
		}
		// Output is not activity.
		time.Sleep(30 * time.Millisecond)
		tty.Write([]byte("frame"))
		if d := tty.idleFor(); d != 30*time.Millisecond {
			t.Errorf("idle %v: output counted as input", d)
		}
	})
}

// pipedTty is a Tty of cols×rows fed through feed, closed and its pump
// ended when the test ends.
func pipedTty(t *testing.T, cols, rows uint32) (*sshTty, *io.PipeWriter) {
	in, feed := io.Pipe()
	tty := newTty(in, io.Discard, cols, rows, nil)
	t.Cleanup(func() {
		tty.Close()
		feed.Close()
		<-tty.pumped
	})
	return tty, feed
}
