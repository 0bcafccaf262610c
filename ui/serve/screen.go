package serve

import (
	"fmt"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// screen is the tcell screen a session's Play gets. It is tcell's terminfo
// screen with one change: Fini stops the input first, and drains the event
// queue while it waits.
//
// tcell's input goroutine posts every event with a blocking send and Fini
// waits for that goroutine, so a Fini called once nobody reads the queue
// (tview stops reading before it finalises) hangs for good if the queue is
// full — which a client can bring about by typing q and pasting a flood
// behind it. The Tty keeps the queue from filling with input in the first
// place (see [sshTty.Read]); the drain covers the rest.
//
// tcell's reader also hands each chunk to its parser with a bare channel
// send, and Fini stops the parser first: if that channel is full when it
// does, as a flood keeps it, the reader waits for good and Fini with it
// (tcell v2.13.10; fixed upstream since). So Fini drains the Tty and waits
// for the reader to stop before tcell's Fini runs.
type screen struct {
	tcell.Screen
	impl   screenImpl // the same screen, seen through the methods below
	raw    *sshTty
	reader *readerTty
	once   sync.Once
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

// screenImpl is what tcell's screens offer beyond tcell.Screen: the cell
// buffer and its lock (ui redraws only changed cells through them) and the
// event queue.
type screenImpl interface {
	GetCells() *tcell.CellBuffer
	Lock()
	Unlock()
	EventQ() chan tcell.Event
}

// newScreen builds the screen on tty, the session's Tty as wrapped (by the
// kitty filter), with raw the sshTty underneath, whose input it paces by
// the event queue.
func newScreen(tty tcell.Tty, raw *sshTty, ti *terminfo.Terminfo) (*screen, error) {
	reader := &readerTty{Tty: tty}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(reader, ti)
	if err != nil {
		return nil, err
	}
	impl, ok := scr.(screenImpl)
	if !ok {
		return nil, fmt.Errorf("serve: tcell's screen (%T) has no event queue", scr)
	}
	raw.queued = func() int { return len(impl.EventQ()) }
	return &screen{Screen: scr, impl: impl, raw: raw, reader: reader}, nil
}

func (s *screen) GetCells() *tcell.CellBuffer { return s.impl.GetCells() }
func (s *screen) Lock()                       { s.impl.Lock() }
func (s *screen) Unlock()                     { s.impl.Unlock() }
func (s *screen) EventQ() chan tcell.Event    { return s.impl.EventQ() }

// finiWait bounds how long Fini waits for tcell's reader to stop once the
// Tty is drained: it stops at once, unless it is stuck in tcell.
const finiWait = time.Second

// Fini finalises the screen, discarding the events nobody will read. It
// does so once; later calls return at once.
func (s *screen) Fini() { s.once.Do(s.fini) }

func (s *screen) fini() {
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
		s.raw.Drain()
		select {
		case <-stopped:
		case <-time.After(finiWait):
		}
	}
	s.Screen.Fini()
	close(done)
	<-drained
}
