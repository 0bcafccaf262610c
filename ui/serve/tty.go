package serve

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
)

// errDrained is what a Read blocked across Drain returns; tcell's input loop
// then sees it is stopping and returns.
var errDrained = errors.New("serve: tty drained")

// resizeGap is the least time between two resizes passed to tcell, each
// of which redraws the whole screen: a client may send window-changes as
// fast as it likes, the game sees at most 50 a second.
const resizeGap = 20 * time.Millisecond

// sshTty is the tcell.Tty of one SSH session: Write goes to the channel,
// Read comes from it, the size from pty-req and window-change requests.
//
// Reading is done by a pump goroutine that hands one chunk at a time to
// Read, so that Drain can wake a Read blocked on a client that types
// nothing (tcell's Stop, hence Fini, waits for its reader to return). The
// pump also records when the player last sent anything, for the idle limit.
type sshTty struct {
	out io.Writer

	data     chan []byte   // pump → Read: a chunk, Read's until it sends on free
	free     chan struct{} // Read → pump: the chunk is used up (capacity 1)
	stop     chan struct{} // closed by Close: the pump quits
	stopOnce sync.Once
	pumped   chan struct{} // closed when the pump has returned
	err      error         // why the input ended; written before data is closed
	onEOF    func()        // called by the pump when the input ends
	since    time.Time     // origin of lastIn
	lastIn   atomic.Int64  // nanoseconds after since of the last input byte
	started  atomic.Bool   // Start was called: the screen was initialised

	mu         sync.Mutex
	drained    chan struct{} // closed by Drain, replaced by Start
	resized    func()        // tcell's resize callback
	size       tcell.WindowSize
	lastResize time.Time   // when tcell was last told of a resize
	resizing   *time.Timer // tells tcell later, if it was told too recently
	closed     bool

	// Read side only.
	pending []byte // the rest of the current chunk
}

// newTty starts pumping in and returns the Tty; cols×rows is the size from
// the pty request (clamped here). onEOF runs once the input ends for good,
// in the pump goroutine.
func newTty(in io.Reader, out io.Writer, cols, rows uint32, onEOF func()) *sshTty {
	t := &sshTty{
		out:     out,
		data:    make(chan []byte),
		free:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		pumped:  make(chan struct{}),
		onEOF:   onEOF,
		since:   time.Now(),
		drained: make(chan struct{}),
	}
	t.size.Width, t.size.Height = clampSize(cols, rows)
	go t.pump(in)
	return t
}

func (t *sshTty) pump(in io.Reader) {
	defer close(t.pumped)
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			t.lastIn.Store(int64(time.Since(t.since)))
			select {
			case t.data <- buf[:n]:
			case <-t.stop:
				return
			}
			select {
			case <-t.free:
			case <-t.stop:
				return
			}
		}
		if err != nil {
			t.err = err
			close(t.data)
			if t.onEOF != nil {
				t.onEOF()
			}
			return
		}
	}
}

// idleFor says how long ago the player last sent anything.
func (t *sshTty) idleFor() time.Duration {
	return time.Since(t.since) - time.Duration(t.lastIn.Load())
}

// Read returns input as it arrives: what has come, at once. (The screen
// paces it for tcell above the kitty filter, which must see input as it
// comes: see kitty.Screen.) From Drain until Start it returns errDrained,
// at once or as soon as Drain wakes it, and once the client has closed
// its side the channel's error (io.EOF).
func (t *sshTty) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	t.mu.Lock()
	drained := t.drained
	t.mu.Unlock()
	// Once drained, no more input, even what is left of a chunk: the reader
	// is meant to stop (see [screen.Fini]).
	select {
	case <-drained:
		return 0, errDrained
	default:
	}
	if len(t.pending) == 0 {
		select {
		case b, ok := <-t.data:
			if !ok {
				return 0, t.err
			}
			t.pending = b
		case <-drained:
			return 0, errDrained
		case <-t.stop:
			return 0, io.ErrClosedPipe
		}
	}
	return t.take(p), nil
}

// take reads the current chunk into p, and gives the chunk back to the
// pump once it is all read. Read side only.
func (t *sshTty) take(p []byte) int {
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	if len(t.pending) == 0 {
		t.free <- struct{}{}
	}
	return n
}

// Write sends p to the client.
func (t *sshTty) Write(p []byte) (int, error) { return t.out.Write(p) }

// Start readies the Tty for (re)use after Stop: there is no terminal mode
// to set over SSH, only Drain to undo.
func (t *sshTty) Start() error {
	t.started.Store(true)
	t.mu.Lock()
	select {
	case <-t.drained:
		t.drained = make(chan struct{})
	default:
	}
	t.mu.Unlock()
	return nil
}

// Drain wakes a Read that is waiting for input.
func (t *sshTty) Drain() error {
	t.mu.Lock()
	select {
	case <-t.drained:
	default:
		close(t.drained)
	}
	t.mu.Unlock()
	return nil
}

// Stop has nothing to restore: the client's terminal modes are the client's.
func (t *sshTty) Stop() error { return nil }

// Close stops the pump and any resize waiting to be passed on. The channel
// itself belongs to the server, which still has to say goodbye on it.
func (t *sshTty) Close() error {
	t.stopOnce.Do(func() { close(t.stop) })
	t.mu.Lock()
	t.closed = true
	if t.resizing != nil {
		t.resizing.Stop()
	}
	t.mu.Unlock()
	return nil
}

// NotifyResize registers tcell's resize callback (nil removes it).
func (t *sshTty) NotifyResize(cb func()) {
	t.mu.Lock()
	t.resized = cb
	t.mu.Unlock()
}

// WindowSize returns the current (clamped) size.
func (t *sshTty) WindowSize() (tcell.WindowSize, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.size, nil
}

// resize records a window-change and tells tcell if the size changed, at
// most once per resizeGap: a change that comes sooner is passed on when
// the gap is over (with the latest size by then).
func (t *sshTty) resize(cols, rows uint32) {
	w, h := clampSize(cols, rows)
	t.mu.Lock()
	defer t.mu.Unlock()
	if w == t.size.Width && h == t.size.Height {
		return
	}
	t.size.Width, t.size.Height = w, h
	if t.resizing != nil || t.closed {
		return // a notice is on its way
	}
	wait := resizeGap - time.Since(t.lastResize)
	if wait <= 0 {
		t.notifyLocked()
		return
	}
	t.resizing = time.AfterFunc(wait, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.resizing = nil
		if !t.closed {
			t.notifyLocked()
		}
	})
}

// notifyLocked tells tcell of a resize. tcell's callback never blocks: it
// queues one resize at most. The caller holds t.mu.
func (t *sshTty) notifyLocked() {
	t.lastResize = time.Now()
	if t.resized != nil {
		t.resized()
	}
}
