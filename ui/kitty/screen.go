package kitty

import (
	"fmt"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// Screen is tcell's terminfo screen on a [Tty], with one change: its Fini
// cannot hang on input no one reads.
//
// tcell v2.13.10's Fini waits for its input goroutines, and neither of
// them heeds Fini while it sends. The parser posts every event with a
// bare send to the event queue (256 events); the reader hands every chunk
// to the parser with a bare send to a channel of 10, and Fini stops the
// parser first. A paste of a few hundred keys that ends the program on its
// first one (q, then the rest) leaves both full: tview calls Fini under
// the lock its event loop needs to read the queue, and the program hangs
// for good, Ctrl-C and SIGTERM included, on the terminal it took.
//
// So Fini drains the Tty and waits until tcell's reader has stopped, then
// runs tcell's Fini, taking and dropping the events still coming all
// along.
type Screen struct {
	tcell.Screen
	impl   screenImpl // the same screen, seen through the methods below
	tty    *Tty
	reader *readerTty
	once   sync.Once
}

// screenImpl is what tcell's screens offer beyond tcell.Screen: the cell
// buffer and its lock (package ui redraws only changed cells through
// them) and the event queue.
type screenImpl interface {
	GetCells() *tcell.CellBuffer
	Lock()
	Unlock()
	EventQ() chan tcell.Event
}

// readerTty is the Tty tcell reads from. It tells when a Read fails: tcell's
// reader goroutine returns on the first error, sending nothing more.
type readerTty struct {
	tcell.Tty
	mu     sync.Mutex
	failed chan struct{} // closed by the first failed Read since Start
}

func (r *readerTty) Start() error {
	r.mu.Lock()
	r.failed = make(chan struct{})
	r.mu.Unlock()
	return r.Tty.Start()
}

func (r *readerTty) Read(p []byte) (int, error) {
	n, err := r.Tty.Read(p)
	if err != nil {
		r.mu.Lock()
		select {
		case <-r.failed:
		default:
			close(r.failed)
		}
		r.mu.Unlock()
	}
	return n, err
}

// stopped returns a channel closed once tcell's reader has stopped, or nil
// if it never started.
func (r *readerTty) stopped() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// NewScreen builds tcell's terminfo screen for ti on tty.
func NewScreen(tty *Tty, ti *terminfo.Terminfo) (*Screen, error) {
	reader := &readerTty{Tty: tty}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(reader, ti)
	if err != nil {
		return nil, err
	}
	impl, ok := scr.(screenImpl)
	if !ok {
		return nil, fmt.Errorf("kitty: tcell's screen (%T) has no event queue", scr)
	}
	return &Screen{Screen: scr, impl: impl, tty: tty, reader: reader}, nil
}

func (s *Screen) GetCells() *tcell.CellBuffer { return s.impl.GetCells() }
func (s *Screen) Lock()                       { s.impl.Lock() }
func (s *Screen) Unlock()                     { s.impl.Unlock() }
func (s *Screen) EventQ() chan tcell.Event    { return s.impl.EventQ() }

// finiWait bounds how long Fini waits for tcell's reader to stop once the
// Tty is drained: it stops at once, unless it is stuck in tcell.
const finiWait = time.Second

// Fini finalises the screen, discarding the events nobody will read. It
// does so once; later calls return at once.
func (s *Screen) Fini() { s.once.Do(s.fini) }

func (s *Screen) fini() {
	done := make(chan struct{})
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		q := s.impl.EventQ()
		for {
			select {
			case <-q:
			case <-done:
				return
			}
		}
	}()
	if stopped := s.reader.stopped(); stopped != nil {
		_ = s.tty.Drain()
		select {
		case <-stopped:
		case <-time.After(finiWait):
		}
	}
	s.Screen.Fini()
	close(done)
	<-drained
}
