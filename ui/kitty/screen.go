package kitty

import (
	"errors"
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
// So the input is paced: the Tty reads it in small chunks, and tcell's
// reader reads none while the queue holds maxQueued events, which keeps
// the queue from filling in the first place. The wait is above the
// filter: what the terminal has sent waits where the filter reads it at
// once when asked, so that the filter never takes a wait of the pacing
// for a pause of the terminal (an ESC held back at a chunk's end would
// become the Esc key: a flood of arrow keys quit a lobby), and tcell
// gets whole sequences, whose rest it would wait 50 ms for. And Fini
// drains the Tty and waits until tcell's reader has stopped, then runs
// tcell's Fini, taking and dropping the events still coming all along.
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

// Input is paced so that tcell's event queue (256 events) never fills with
// it: a Read of the Tty hands tcell at most tcellWindow bytes (a byte
// makes at most one event), and none is made while maxQueued events wait.
// tcell's input goroutines then never block on the queue, and can always
// stop. The most input in flight is maxQueued, plus tcell's 10-chunk
// channel and the chunk it parses: 64 + 11×8 = 152 events.
const (
	maxQueued = 64
	queuePoll = 5 * time.Millisecond // how often a paced Read looks again
)

// errDrained is what a paced Read returns once Drain is called: tcell's
// reader then sees it is stopping and returns.
var errDrained = errors.New("kitty: tty drained")

// readerTty is the Tty tcell reads from: it paces the input (see maxQueued)
// and tells when a Read fails: tcell's reader goroutine returns on the
// first error, sending nothing more.
type readerTty struct {
	*Tty
	queued func() int // events waiting in tcell's queue

	mu      sync.Mutex
	failed  chan struct{} // closed by the first failed Read since Start
	drained chan struct{} // closed by Drain, replaced by Start

	wait *time.Timer // for paced reads; Read side only
}

func (r *readerTty) Start() error {
	r.mu.Lock()
	r.failed = make(chan struct{})
	r.drained = make(chan struct{})
	r.mu.Unlock()
	return r.Tty.Start()
}

// Drain wakes a Read waiting for room in the queue, and one waiting for
// the terminal.
func (r *readerTty) Drain() error {
	r.mu.Lock()
	if r.drained != nil {
		select {
		case <-r.drained:
		default:
			close(r.drained)
		}
	}
	r.mu.Unlock()
	return r.Tty.Drain()
}

func (r *readerTty) Read(p []byte) (int, error) {
	n, err := r.paced(p)
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

// paced waits for room in tcell's queue, then reads a chunk.
func (r *readerTty) paced(p []byte) (int, error) {
	r.mu.Lock()
	drained := r.drained
	r.mu.Unlock()
	for r.queued() >= maxQueued {
		if r.wait == nil {
			r.wait = time.NewTimer(queuePoll)
		} else {
			r.wait.Reset(queuePoll)
		}
		select {
		case <-r.wait.C:
		case <-drained:
			return 0, errDrained
		}
	}
	return r.Tty.Read(p)
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
	reader.queued = func() int { return len(impl.EventQ()) } // made by Init
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
		_ = s.reader.Drain()
		select {
		case <-stopped:
		case <-time.After(finiWait):
		}
	}
	s.Screen.Fini()
	close(done)
	<-drained
}
