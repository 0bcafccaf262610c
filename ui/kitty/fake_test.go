package kitty

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/gdamore/tcell/v2"
)

var errFakeDrained = errors.New("fake tty drained")

// fakeTty is the inner terminal for tests: each chunk sent on in is what one
// Read returns (so tests choose where reads split), a closed in reads as
// EOF, and Drain wakes a blocked Read as /dev/tty's does.
type fakeTty struct {
	in   chan []byte
	rest []byte

	mu      sync.Mutex
	drain   chan struct{}
	out     bytes.Buffer
	writes  int
	started int
	stopped int
	closed  int
}

func newFakeTty() *fakeTty {
	return &fakeTty{in: make(chan []byte, 4096), drain: make(chan struct{})}
}

// chunks returns a fake whose input is the given reads, then EOF.
func chunks(reads ...[]byte) *fakeTty {
	f := newFakeTty()
	for _, r := range reads {
		f.in <- r
	}
	close(f.in)
	return f
}

func (f *fakeTty) Read(p []byte) (int, error) {
	if len(f.rest) == 0 {
		f.mu.Lock()
		drain := f.drain
		f.mu.Unlock()
		select {
		case c, ok := <-f.in:
			if !ok {
				return 0, io.EOF
			}
			f.rest = c
		case <-drain:
			return 0, errFakeDrained
		}
	}
	n := copy(p, f.rest)
	f.rest = f.rest[n:]
	return n, nil
}

func (f *fakeTty) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	return f.out.Write(p)
}

func (f *fakeTty) written() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.out.String()
}

func (f *fakeTty) Start() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started++
	select {
	case <-f.drain:
		f.drain = make(chan struct{})
	default:
	}
	return nil
}

func (f *fakeTty) Stop() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped++
	return nil
}

func (f *fakeTty) Drain() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.drain:
	default:
		close(f.drain)
	}
	return nil
}

func (f *fakeTty) NotifyResize(func()) {}

func (f *fakeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 80, Height: 24}, nil
}

func (f *fakeTty) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed++
	return nil
}

// loopTty returns the same bytes on every Read without blocking or
// allocating, for allocation budgets and benchmarks.
type loopTty struct {
	*fakeTty
	chunk []byte
	reads int
}

func (l *loopTty) Read(p []byte) (int, error) {
	l.reads++
	return copy(p, l.chunk), nil
}
