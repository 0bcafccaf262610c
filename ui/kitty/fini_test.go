package kitty

import (
	"bytes"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// A paste that ends the program on its first key (q, then thousands more)
// fills tcell's event queue as far as the pacing lets it, and no one
// reads it any more: Fini must return, tcell's reader stopped, though it
// waits for room in the queue. tcell's own Fini waits for ever on a full
// one. (Not in a synctest bubble: tcell's resize goroutine waits on a
// mutex, which the bubble does not count as blocked, so it never sees the
// paste settle.)
func TestFiniAfterPaste(t *testing.T) {
	t.Setenv("LANG", "en_US.UTF-8")
	f, _, scr := newScreen(t)
	f.in <- append([]byte("q"), bytes.Repeat([]byte("3"), 3000)...)
	for q := scr.EventQ(); len(q) < maxQueued; {
		runtime.Gosched() // until the reader waits for room
	}
	if n := len(scr.EventQ()); n > maxQueued+11*tcellWindow {
		t.Errorf("%d events queued, want the pacing's %d at most", n, maxQueued+11*tcellWindow)
	}
	fini(t, scr)
}

// fini finalises scr and fails t unless Fini returns within a few seconds
// with tcell's reader stopped.
func fini(t *testing.T, scr *Screen) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		scr.Fini()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Fini did not return with input left unread")
	}
	select {
	case <-scr.reader.stopped():
	default:
		t.Fatal("Fini returned with tcell's reader still reading")
	}
}

// TestFiniUnderFlood stops reading events while the terminal keeps sending,
// then finalises the screen, many times over: Fini must return every time,
// tcell's reader stopped. The flood makes where the reader is when Fini
// comes a matter of timing.
func TestFiniUnderFlood(t *testing.T) {
	t.Setenv("LANG", "en_US.UTF-8")
	for range 40 {
		scr, err := NewScreen(NewTty(&floodTty{}), xterm(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := scr.Init(); err != nil {
			t.Fatal(err)
		}
		// Read events as a game does until it quits, then stop reading.
		events, quit := make(chan tcell.Event, 16), make(chan struct{})
		go scr.ChannelEvents(events, quit)
		for range 200 {
			<-events
		}
		close(quit)
		for range events {
		}
		fini(t, scr)
	}
}

// floodTty is a terminal that sends keys as fast as they are read, until
// it is drained.
type floodTty struct {
	fakeTty
	mu      sync.Mutex
	drained bool
}

func (f *floodTty) Start() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.drained = false
	return nil
}

func (f *floodTty) Drain() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.drained = true
	return nil
}

func (f *floodTty) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.drained {
		return 0, errors.New("drained")
	}
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
