package web

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Rates the page may not go over, in messages a second (see window).
const (
	maxKeys    = 100 // key presses and releases, pastes and names: a hand makes a tenth of that
	maxResizes = 20  // the page sends at most one every 150 ms
	maxPings   = 5   // the page pings every 20 s
)

// Conn is one browser's connection as a [Session] sees it: the page's
// [Hello], a screen that shows the frames it is given, and the page's
// input. Its methods are safe for concurrent use.
//
// Show never waits for the network: frames go out from a goroutine of the
// Conn's own, each the difference between the newest frame and what the
// page was last sent. A browser slower than the frames gets fewer of them,
// always the newest, never a backlog; one that takes nothing for
// [Config.WriteTimeout] is dropped.
type Conn struct {
	addr    netip.Addr // the client's, as the handler found it
	hello   Hello
	cfg     *Config
	ws      socket
	log     *slog.Logger
	ctx     context.Context // the session's: cancelled with the *ending
	cancel  context.CancelCauseFunc
	events  chan Event
	resized chan struct{}
	helloed chan struct{} // closed once the hello is read

	mu         sync.Mutex // guards what follows, up to the writer's own
	cols, rows int
	latest     *Grid // the newest frame Show was given
	fresh      bool  // latest is not sent yet
	sent       *Grid // what the page shows, once the writer's frame is written
	frame      []byte
	title      string
	titleSet   bool
	pongs      [4]uint32 // pings to answer, the oldest dropped when full
	npong      int
	end        *ending       // why the connection ends, once known
	wake       chan struct{} // the writer has work
	tap        *tap          // the page's input goes to a relay (see Relay); nil: to the session
	relayed    []byte        // a relayed message to send (see Relay)

	frameBytes atomic.Uint64 // the bytes of the frames sent
	lastInput  atomic.Int64  // when the player last sent a key, text or name (UnixNano)

	// The writer's own.
	out        []byte
	writeTimer *time.Timer
	writerDone chan struct{}
	readerDone chan struct{}
}

// ending is why a connection ends: the WebSocket close code and the
// reason the page shows. dead means the socket cannot take the goodbye.
type ending struct {
	code   websocket.StatusCode
	reason string
	dead   bool
}

func (e *ending) Error() string { return e.reason }

// Endings of a connection, other than refused messages.
var (
	endDone     = &ending{code: websocket.StatusNormalClosure, reason: "the session ended"}
	endShutdown = &ending{code: websocket.StatusGoingAway, reason: "the server is shutting down"}
	endPanic    = &ending{code: websocket.StatusInternalError, reason: "the server failed: sorry"}
	endGone     = &ending{code: websocket.StatusGoingAway, reason: "the page went away", dead: true}
)

func newConn(ws socket, addr netip.Addr, cfg *Config, base context.Context, log *slog.Logger) *Conn {
	c := &Conn{
		addr:       addr,
		cfg:        cfg,
		ws:         ws,
		log:        log,
		events:     make(chan Event, 64),
		resized:    make(chan struct{}, 1),
		helloed:    make(chan struct{}),
		latest:     new(Grid),
		sent:       new(Grid),
		wake:       make(chan struct{}, 1),
		writerDone: make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	c.ctx, c.cancel = context.WithCancelCause(base)
	// However the session's context ends (the server shuts down, the
	// page misbehaves), the connection ends with it.
	context.AfterFunc(c.ctx, func() { c.stop(c.cause()) })
	c.writeTimer = time.AfterFunc(time.Hour, func() {
		c.stop(&ending{code: websocket.StatusPolicyViolation, reason: "the page took no frame for " + cfg.WriteTimeout.String(), dead: true})
		c.ws.CloseNow()
	})
	c.writeTimer.Stop()
	return c
}

// Hello returns what the page said as it connected.
func (c *Conn) Hello() Hello { return c.hello }

// Size returns the grid the page has room for, the hello's until the page
// is resized.
func (c *Conn) Size() (cols, rows int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cols, c.rows
}

// Resized receives when the page's size changed since the last receive:
// many resizes between two receives are one, and [Conn.Size] has the last.
func (c *Conn) Resized() <-chan struct{} { return c.resized }

// Events returns the page's keys, pastes and names, in order. A session
// must keep receiving from it, whether it uses them or not: while it is
// full the Conn reads nothing more from the page (no ping either, and the
// page is then dropped after ReadTimeout). The channel is never closed: a
// session also waits on its context.
func (c *Conn) Events() <-chan Event { return c.events }

// Show sends the page g, of any size (the page centres a grid smaller
// than its room and shrinks a larger one): the cells that differ from
// what it was last sent, soon, from another goroutine; nothing when they
// are the same. It copies g, which the caller may then change, and never
// waits for the network. It allocates nothing once the Conn has seen a
// grid of g's size.
func (c *Conn) Show(g *Grid) { c.show(g, (*Grid).CopyFrom) }

// showChanged is Show for g, the one grid shown on c, changed in place
// between two calls: it copies only the cells set since the last (see
// Grid.take), and the writer compares only those with what the page
// shows, so that a frame costs the cells that changed (a Screen's).
func (c *Conn) showChanged(g *Grid) { c.show(g, (*Grid).take) }

// show makes g, copied into the newest frame by copy, the next to send.
func (c *Conn) show(g *Grid, copy func(dst, src *Grid)) {
	c.mu.Lock()
	copy(c.latest, g)
	c.fresh = c.end == nil && c.tap == nil
	c.mu.Unlock()
	c.wakeup()
}

// IdleFor returns how long the player has sent nothing: no key, text or
// name since the hello (resizes and pings are the page's, not the
// player's).
func (c *Conn) IdleFor() time.Duration {
	return time.Since(time.Unix(0, c.lastInput.Load()))
}

// FrameBytes returns the bytes of the frame messages sent so far.
func (c *Conn) FrameBytes() uint64 { return c.frameBytes.Load() }

// SetTitle sets the page's title.
func (c *Conn) SetTitle(title string) {
	c.mu.Lock()
	c.title, c.titleSet = title, true
	c.mu.Unlock()
	c.wakeup()
}

// Close ends the connection: the page shows reason (keep it short, at most
// a line) and offers to reconnect. The session's context is then done,
// and Play should return.
func (c *Conn) Close(reason string) {
	c.stop(&ending{code: websocket.StatusNormalClosure, reason: reason})
}

// stop ends the connection for e, unless it is ending already.
func (c *Conn) stop(e *ending) {
	c.mu.Lock()
	if c.end == nil {
		c.end = e
	}
	c.mu.Unlock()
	c.cancel(e)
	c.wakeup()
}

func (c *Conn) wakeup() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// cause is why the session's context ended, once it has.
func (c *Conn) cause() *ending {
	if e, ok := context.Cause(c.ctx).(*ending); ok {
		return e
	}
	return endShutdown
}

// serve runs the connection: it waits for the hello, plays the session
// and says goodbye. It returns once the socket is closed and its
// goroutines are done.
func (c *Conn) serve(s Session, admit func() (func(), error)) {
	go c.writeLoop()
	defer func() {
		<-c.writerDone
		<-c.readerDone
		c.cancel(nil)
	}()
	if admit != nil {
		release, err := admit()
		if err != nil {
			close(c.readerDone)
			c.stop(&ending{code: websocket.StatusTryAgainLater, reason: err.Error()})
			return
		}
		defer release()
	}
	go c.readLoop()
	select {
	case <-c.helloed:
	case <-c.ctx.Done():
		return
	}
	e := c.play(s)
	if e == endDone && c.ctx.Err() != nil {
		e = c.cause()
	}
	c.stop(e)
}

// play runs s; a panic ends this connection only.
func (c *Conn) play(s Session) (e *ending) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("web: session panicked", "addr", c.addr, "panic", p, "stack", string(debug.Stack()))
			e = endPanic
		}
	}()
	if err := s.Play(c.ctx, c); err != nil && !errors.Is(err, context.Canceled) {
		c.log.Info("web: session ended", "addr", c.addr, "err", err)
	}
	return endDone
}

// survive, deferred by the goroutine called what, ends the connection
// if the goroutine panics, which is logged.
func (c *Conn) survive(what string) {
	if p := recover(); p != nil {
		c.log.Error("web: "+what+" panicked", "addr", c.addr, "panic", p, "stack", string(debug.Stack()))
		c.stop(endPanic)
		c.ws.CloseNow()
	}
}

// writeLoop sends what Show, SetTitle and the pings leave, then the
// goodbye.
func (c *Conn) writeLoop() {
	defer close(c.writerDone)
	defer c.survive("writer")
	var title string
	var pongs [len(c.pongs)]uint32
	for range c.wake {
		c.mu.Lock()
		setTitle, fresh, end := c.titleSet, c.fresh, c.end
		title, c.titleSet = c.title, false
		npong := copy(pongs[:], c.pongs[:c.npong])
		c.npong = 0
		relayed, tap := c.relayed, c.tap
		c.relayed = nil
		if fresh {
			// Encoded under the lock, which Show then waits for (a few
			// microseconds, never the network), so that a frame's rows
			// are copied twice only: into latest, and into sent.
			c.frame = appendFrame(c.frame[:0], c.sent, c.latest, c.latest.dirty)
			c.sent.take(c.latest) // what the page shows once it is written
			c.fresh = false
		}
		c.mu.Unlock()
		if end != nil && end.dead {
			c.ws.CloseNow()
			return
		}
		var err error
		if setTitle {
			c.out = append(append(c.out[:0], MsgTitle), title...)
			err = c.write(c.out)
		}
		for _, p := range pongs[:npong] {
			if err == nil {
				err = c.write(binary.LittleEndian.AppendUint32(append(c.out[:0], MsgPong), p))
			}
		}
		if fresh && err == nil && len(c.frame) > 0 {
			err = c.write(c.frame)
			c.frameBytes.Add(uint64(len(c.frame)))
		}
		if relayed != nil {
			if err == nil {
				err = c.write(relayed)
			}
			tap.written <- err
		}
		if err == nil && end != nil {
			c.out = append(append(c.out[:0], MsgBye), end.reason...)
			if err = c.write(c.out); err == nil {
				err = c.ws.Close(end.code, closeReason(end.reason))
			}
		}
		if err != nil || end != nil {
			if err != nil {
				c.stop(endGone)
			}
			c.ws.CloseNow()
			return
		}
	}
}

// write sends msg, closing the socket if it takes longer than
// WriteTimeout.
func (c *Conn) write(msg []byte) error {
	c.writeTimer.Reset(c.cfg.WriteTimeout)
	err := c.ws.Write(context.Background(), websocket.MessageBinary, msg)
	c.writeTimer.Stop()
	return err
}

// closeReason is reason cut to what a close frame holds (the page shows
// the goodbye's, whole).
func closeReason(reason string) string {
	const max = 123
	if len(reason) <= max {
		return reason
	}
	for i := max; ; i-- {
		if reason[i]&0xc0 != 0x80 { // the start of a rune
			return reason[:i]
		}
	}
}

// readLoop reads the page's messages: the hello first, within
// HelloTimeout, then one at least every ReadTimeout.
func (c *Conn) readLoop() {
	defer close(c.readerDone)
	defer c.survive("reader")
	idle := time.AfterFunc(c.cfg.HelloTimeout, func() {
		reason := "no hello within " + c.cfg.HelloTimeout.String()
		select {
		case <-c.helloed:
			reason = "nothing from the page for " + c.cfg.ReadTimeout.String()
		default:
		}
		c.stop(&ending{code: websocket.StatusPolicyViolation, reason: reason})
	})
	defer idle.Stop()
	buf := make([]byte, MaxMessage+1)
	var keys, resizes, pings window
	for first := true; ; first = false {
		msg, err := c.readMessage(buf)
		if err != nil {
			var e *ending
			if !errors.As(err, &e) {
				e = endGone
			}
			c.stop(e)
			return
		}
		idle.Reset(c.cfg.ReadTimeout)
		m, err := parse(msg)
		if err == nil && first != (m.typ == MsgHello) {
			err = refuse("the first message must be the only hello")
		}
		if err != nil {
			var pe *ProtocolError
			errors.As(err, &pe)
			c.log.Info("web: refused a message", "addr", c.addr, "reason", pe.Reason)
			c.stop(&ending{code: websocket.StatusPolicyViolation, reason: pe.Reason})
			return
		}
		now := time.Now()
		var flood string
		switch m.typ {
		case MsgHello:
			m.hello.Addr = c.addr
			c.mu.Lock()
			c.hello, c.cols, c.rows = m.hello, m.hello.Cols, m.hello.Rows
			c.mu.Unlock()
			c.lastInput.Store(now.UnixNano())
			close(c.helloed)
		case MsgKey, MsgText, MsgName:
			if !keys.add(now, maxKeys) {
				flood = fmt.Sprintf("too many keys: at most %d a second", maxKeys)
				break
			}
			c.lastInput.Store(now.UnixNano())
			if c.forward(msg) {
				break
			}
			select {
			case c.events <- m.event:
			case <-c.ctx.Done():
				return
			}
		case MsgResize:
			if !resizes.add(now, maxResizes) {
				flood = fmt.Sprintf("too many resizes: at most %d a second", maxResizes)
				break
			}
			c.mu.Lock()
			c.cols, c.rows = m.cols, m.rows
			c.mu.Unlock()
			c.forward(msg)
			select {
			case c.resized <- struct{}{}:
			default: // one is waiting already: it stands for this one
			}
		case MsgPing:
			if !pings.add(now, maxPings) {
				flood = fmt.Sprintf("too many pings: at most %d a second", maxPings)
				break
			}
			c.mu.Lock()
			if c.npong == len(c.pongs) {
				c.npong = copy(c.pongs[:], c.pongs[1:])
			}
			c.pongs[c.npong] = m.ping
			c.npong++
			c.mu.Unlock()
			c.wakeup()
		}
		if flood != "" {
			c.log.Info("web: flood", "addr", c.addr, "reason", flood)
			c.stop(&ending{code: websocket.StatusPolicyViolation, reason: flood})
			return
		}
	}
}

// readMessage reads the next message into buf, which has room for one
// byte more than MaxMessage.
func (c *Conn) readMessage(buf []byte) ([]byte, error) {
	// A context that is never done: the library closes the socket when
	// a read's context ends, and the goodbye must still go out.
	typ, r, err := c.ws.Reader(context.Background())
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageBinary {
		return nil, &ending{code: websocket.StatusUnsupportedData, reason: "binary messages only"}
	}
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		switch {
		case errors.Is(err, io.EOF):
			return buf[:n], nil
		case err != nil:
			return nil, err
		}
	}
	return nil, &ending{code: websocket.StatusMessageTooBig, reason: fmt.Sprintf("message over %d bytes", MaxMessage)}
}

// window counts events in windows of a second: more than max in one is a
// flood. Its zero value has counted none.
type window struct {
	start time.Time
	n     int
}

// add counts an event at now, and reports whether its window holds at
// most max.
func (w *window) add(now time.Time, max int) bool {
	if now.Sub(w.start) >= time.Second {
		w.start, w.n = now, 0
	}
	w.n++
	return w.n <= max
}
