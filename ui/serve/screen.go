package serve

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// screen is the tcell screen a session's Play gets. It is tcell's terminfo
// screen with one change: Fini drains the event queue while it waits.
//
// tcell's input goroutine posts every event with a blocking send and Fini
// waits for that goroutine, so a Fini called once nobody reads the queue
// (tview stops reading before it finalises) hangs for good if the queue is
// full — which a client can bring about by typing q and pasting a flood
// behind it. The Tty keeps the queue from filling with input in the first
// place (see [sshTty.Read]); this drain covers the rest.
type screen struct {
	tcell.Screen
	impl screenImpl // the same screen, seen through the methods below
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
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		return nil, err
	}
	impl, ok := scr.(screenImpl)
	if !ok {
		return nil, fmt.Errorf("serve: tcell's screen (%T) has no event queue", scr)
	}
	raw.queued = func() int { return len(impl.EventQ()) }
	return &screen{Screen: scr, impl: impl}, nil
}

func (s *screen) GetCells() *tcell.CellBuffer { return s.impl.GetCells() }
func (s *screen) Lock()                       { s.impl.Lock() }
func (s *screen) Unlock()                     { s.impl.Unlock() }
func (s *screen) EventQ() chan tcell.Event    { return s.impl.EventQ() }

// Fini finalises the screen, discarding the events nobody will read.
func (s *screen) Fini() {
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
	s.Screen.Fini()
	close(done)
	<-drained
}
