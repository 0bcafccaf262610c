package kitty

import (
	"bytes"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
)

var (
	// tcellPush and tcellPop are what tcell writes to switch the protocol
	// on (flag 1 only) and off; each goes out whole in one Write.
	tcellPush = []byte("\x1b[>1u")
	tcellPop  = []byte("\x1b[<u")
	// enable pushes our flags (see the package doc) and asks which flags
	// the terminal actually put in force.
	enable = []byte("\x1b[>31u\x1b[?u")
)

// maxChunk is how much one Read asks of the inner Tty: little, so that
// what one Read hands tcell makes few events (a byte makes one at most),
// for the Screen's pacing. The filter puts what a cut splits back
// together: tcell gets whole sequences.
const maxChunk = 16

// staleAfter is how long a terminal may pause inside a sequence: how long
// the inner Read may wait for the rest. A terminal writes a sequence at
// once, so a read that ends inside one is followed by the rest within
// microseconds; after a longer pause the start was all there was. It is
// twice tcell's own wait for the rest of a sequence after an ESC (50 ms),
// for a sequence split by the network. (The time tcell takes to ask for
// more does not count: the rest may be waiting by then.)
const staleAfter = 100 * time.Millisecond

// escWait is how long a lone ESC waits for the rest of a sequence before
// it is taken for the Esc key: tcell's own wait (its parser's escape
// timeout), so that Esc acts at once, as it does in tcell without us.
const escWait = 50 * time.Millisecond

// burstWait is how long a sequence cut at the end of a burst of input (a
// read that carried more before it) waits for its rest, in place of
// escWait and staleAfter. A key pressed comes alone; a burst is a paste or
// a flood, whose cuts are the SSH window's or a busy machine's, and its
// rest may come later than a terminal's would: an ESC that ends one is
// most likely an arrow's start, not the Esc key.
const burstWait = 250 * time.Millisecond

// tcellWindow is how much tcell decodes at a time: it reads its input
// through a decoder 8 bytes at a time, and an ESC that ends those 8
// starts its escape timer (tcell v2.13's scanInput), which a busy machine
// may let run out before the next 8 come. So a Read hands tcell at most
// tcellWindow bytes, and none that ends with an ESC: every ESC then goes
// with the rest of its sequence.
const tcellWindow = 8

// escKey is the Esc key as a complete sequence (kitty's CSI 27 u, which
// tcell reads without the protocol too): a held lone ESC that turns out to
// be the key is passed on as this, so tcell's parser never waits on it.
var escKey = []byte("\x1b[27u")

// Tty is a tcell.Tty that filters kitty keyboard protocol reports out of the
// input before tcell parses it and records them as held-key state in
// [Tty.Keys]. It also drops what tcell's parser cannot take (see the
// package documentation), so no input can stall or derail it.
//
// Read is for one goroutine at a time (tcell's input loop); it takes no lock,
// so Drain can always wake a blocked Read. Write, Drain, Start, Stop and the
// rest are safe to call from other goroutines, as tcell does.
type Tty struct {
	in   tcell.Tty
	keys Keys

	pushed  atomic.Bool // our flags are pushed and not yet popped
	restart atomic.Bool // set by Start: the reader forgets what it carried

	// Read side: touched only by the goroutine in Read. A read goes to
	// buf[maxSeq:], what was held back right before it.
	f        filter
	buf      [maxSeq + maxChunk]byte
	pos, end int // filtered bytes not yet returned: buf[pos:end]
	hold     [maxSeq]byte
	nhold    int   // unfinished sequence carried to the next read: hold[:nhold]
	burst    bool  // hold[:nhold] ended a read that carried other bytes before it
	err      error // error to return once the carried bytes are out
	// A read of the inner Tty that a lone ESC stopped waiting for goes
	// on in the background; the next one collects it.
	reading bool
	done    chan innerRead
	escWait *time.Timer
}

// innerRead is what a read of the inner Tty returned.
type innerRead struct {
	n   int
	err error
}

// NewTty wraps in. The returned Tty owns in: use it in place of in.
func NewTty(in tcell.Tty) *Tty {
	t := &Tty{in: in}
	t.f.keys = &t.keys
	return t
}

// Keys returns the held-key state this Tty records. It stays valid for the
// life of the Tty.
func (t *Tty) Keys() *Keys { return &t.keys }

// Read returns the terminal's input with kitty reports filtered out or
// rewritten. It blocks until there is something to return or the inner Tty
// fails; it never returns 0 bytes with a nil error.
func (t *Tty) Read(p []byte) (int, error) {
	if t.restart.CompareAndSwap(true, false) {
		if t.reading { // what it read came before the Stop
			<-t.done
			t.reading = false
		}
		t.pos, t.end, t.nhold, t.err = 0, 0, 0, nil
		t.f.skip = skipNone
	}
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if t.pos < t.end {
			n := min(len(p), tcellWindow, t.end-t.pos)
			if n > 1 && t.buf[t.pos+n-1] == esc {
				n-- // the ESC goes with the rest of its sequence
			}
			n = copy(p, t.buf[t.pos:t.pos+n])
			t.pos += n
			return n, nil
		}
		if t.err != nil {
			err := t.err
			t.err = nil
			return 0, err
		}
		asked := time.Now()
		lone := t.nhold == 1 && t.hold[0] == esc && !t.keys.Active()
		wait, stale := escWait, staleAfter
		if t.burst {
			wait, stale = burstWait, burstWait
		}
		if !lone {
			wait = 0
		}
		n, err, ok := t.readIn(wait)
		if !ok {
			// Nothing followed the ESC: it is the Esc key.
			t.nhold = 0
			t.pos, t.end = maxSeq-copy(t.buf[maxSeq-len(escKey):maxSeq], escKey), maxSeq
			continue
		}
		carried := t.hold[:t.nhold]
		if (t.nhold > 0 || t.f.skip != skipNone) && time.Since(asked) > stale {
			// The terminal paused inside a sequence: it was all there was.
			carried, t.f.skip = nil, skipNone
			if t.nhold == 1 && t.hold[0] == esc && !t.keys.Active() {
				carried = escKey
			}
		}
		start := maxSeq - copy(t.buf[maxSeq-len(carried):], carried)
		w, rest := t.f.run(t.buf[start:maxSeq+n], err != nil)
		t.nhold = copy(t.hold[:], t.buf[start+rest:maxSeq+n])
		t.burst = t.nhold > 0 && slices.ContainsFunc(t.buf[start:start+rest], func(c byte) bool { return c != esc })
		t.pos, t.end, t.err = start, start+w, err
	}
}

// readIn reads the inner Tty into buf[maxSeq:]. With a wait (a lone ESC
// is held back, which may be the Esc key) it waits at most that long and
// reports ok false if nothing came by then; the read goes on in the
// background, and the next readIn waits for it. Only that case starts a
// goroutine: other reads allocate nothing.
func (t *Tty) readIn(wait time.Duration) (n int, err error, ok bool) {
	if !t.reading && wait == 0 {
		n, err := t.in.Read(t.buf[maxSeq : maxSeq+maxChunk])
		return n, err, true
	}
	if !t.reading {
		if t.done == nil {
			t.done = make(chan innerRead, 1)
			t.escWait = time.NewTimer(escWait)
		}
		t.reading = true
		go func() {
			n, err := t.in.Read(t.buf[maxSeq : maxSeq+maxChunk])
			t.done <- innerRead{n, err}
		}()
	}
	var timeout <-chan time.Time
	if wait > 0 {
		t.escWait.Reset(wait)
		timeout = t.escWait.C
	}
	select {
	case r := <-t.done:
		t.reading = false
		return r.n, r.err, true
	case <-timeout:
		return 0, nil, false
	}
}

// Write passes p to the terminal, rewriting tcell's protocol push into ours
// and noting the pop.
func (t *Tty) Write(p []byte) (int, error) {
	push := bytes.Index(p, tcellPush)
	pop := bytes.Index(p, tcellPop)
	if pop > push {
		t.pushed.Store(false)
		t.keys.setActive(false)
		t.keys.releaseAll()
	}
	if push < 0 {
		return t.in.Write(p)
	}
	if push > pop {
		t.pushed.Store(true)
	}
	out := make([]byte, 0, len(p)-len(tcellPush)+len(enable))
	out = append(out, p[:push]...)
	out = append(out, enable...)
	out = append(out, p[push+len(tcellPush):]...)
	if _, err := t.in.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// popIfPushed switches the protocol off if tcell has not. Best effort: the
// terminal may already be gone, and Stop or Close goes on regardless.
func (t *Tty) popIfPushed() {
	if t.pushed.CompareAndSwap(true, false) {
		_, _ = t.in.Write(tcellPop)
	}
	t.keys.setActive(false)
	t.keys.releaseAll()
}

// Start starts the inner Tty and forgets any input and held keys left from
// before a Stop.
func (t *Tty) Start() error {
	t.restart.Store(true)
	t.keys.releaseAll()
	return t.in.Start()
}

// Stop switches the protocol off if it is still on, then stops the inner Tty.
func (t *Tty) Stop() error {
	t.popIfPushed()
	return t.in.Stop()
}

// Drain delegates to the inner Tty, which must make a blocked Read return.
func (t *Tty) Drain() error { return t.in.Drain() }

// NotifyResize delegates to the inner Tty.
func (t *Tty) NotifyResize(cb func()) { t.in.NotifyResize(cb) }

// WindowSize delegates to the inner Tty.
func (t *Tty) WindowSize() (tcell.WindowSize, error) { return t.in.WindowSize() }

// Close switches the protocol off if it is still on, then closes the inner
// Tty.
func (t *Tty) Close() error {
	t.popIfPushed()
	return t.in.Close()
}
