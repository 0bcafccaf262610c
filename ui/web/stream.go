package web

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// socket is what a Conn needs of its WebSocket: a *websocket.Conn, or a
// stream of length-prefixed messages (see [Handler.ServeStream]).
type socket interface {
	Reader(context.Context) (websocket.MessageType, io.Reader, error)
	Write(context.Context, websocket.MessageType, []byte) error
	Close(websocket.StatusCode, string) error
	CloseNow() error
}

// maxRelayed bounds a message a relay reads from the server that plays
// its page: a frame of the largest grid, every cell of it a long cluster
// in its own colours, fits.
const maxRelayed = maxApply

// stream carries a Conn's messages over a byte stream, each a 4-byte
// big-endian length and the message: the web protocol between two
// servers of a fleet, over SSH. It is a socket.
type stream struct {
	rw    io.ReadWriteCloser
	limit int64 // the most bytes a message read may have
	left  io.LimitedReader

	wmu  sync.Mutex
	wbuf []byte

	closeOnce sync.Once
}

func newStream(rw io.ReadWriteCloser, limit int64) *stream {
	return &stream{rw: rw, limit: limit, left: io.LimitedReader{R: rw}}
}

// Reader returns the next message, once what is left of the last one is
// skipped. Only one goroutine reads.
func (s *stream) Reader(context.Context) (websocket.MessageType, io.Reader, error) {
	if s.left.N > 0 {
		if _, err := io.Copy(io.Discard, &s.left); err != nil {
			return 0, nil, err
		}
	}
	var n [4]byte
	if _, err := io.ReadFull(s.rw, n[:]); err != nil {
		return 0, nil, err
	}
	size := int64(binary.BigEndian.Uint32(n[:]))
	if size > s.limit {
		return 0, nil, &ending{code: websocket.StatusMessageTooBig, reason: fmt.Sprintf("message over %d bytes", s.limit)}
	}
	s.left.N = size
	return websocket.MessageBinary, &s.left, nil
}

// read reads the next message into buf, which it grows as needed.
func (s *stream) read(buf []byte) ([]byte, error) {
	_, r, err := s.Reader(context.Background())
	if err != nil {
		return nil, err
	}
	if int64(cap(buf)) < s.left.N {
		buf = make([]byte, s.left.N)
	}
	buf = buf[:s.left.N]
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// Write writes msg, whole, in one write.
func (s *stream) Write(_ context.Context, _ websocket.MessageType, msg []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.wbuf = binary.BigEndian.AppendUint32(s.wbuf[:0], uint32(len(msg)))
	s.wbuf = append(s.wbuf, msg...)
	_, err := s.rw.Write(s.wbuf)
	return err
}

// Close closes the stream: the goodbye went as a message before.
func (s *stream) Close(websocket.StatusCode, string) error { return s.CloseNow() }

func (s *stream) CloseNow() error {
	var err error
	s.closeOnce.Do(func() { err = s.rw.Close() })
	return err
}

// ServeStream serves a page that another server relays (see [Conn.Relay])
// over rw, until the session ends, as the page's socket would be served:
// the page's messages come from rw and the server's go to it, each with a
// 4-byte big-endian length before it, the first message a hello; s plays
// it. addr is the page's client's address, as the relaying server found
// it. Closing rw must end its reads and writes. Config.Admit is not asked:
// the caller applies its own limits. Shutdown ends it as it ends a socket.
func (h *Handler) ServeStream(rw io.ReadWriteCloser, addr netip.Addr, s Session) {
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		rw.Close()
		return
	}
	h.conns.Add(1)
	h.mu.Unlock()
	defer h.conns.Done()
	c := newConn(newStream(rw, MaxMessage+1), addr.Unmap(), &h.cfg, h.base, h.log)
	c.serve(s, nil)
}

// tap takes the page's input during a relay.
type tap struct {
	in      chan []byte
	done    chan struct{} // closed when the relay is over
	written chan error    // the writer has sent the relayed message: how it went
}

// forward gives msg, the page's input, to the relay if one runs, and
// reports whether it did.
func (c *Conn) forward(msg []byte) bool {
	c.mu.Lock()
	t := c.tap
	c.mu.Unlock()
	if t == nil {
		return false
	}
	select {
	case t.in <- bytes.Clone(msg):
	case <-t.done: // the relay ended as the message came: it is lost, as a key pressed in a lobby that closes
	case <-c.ctx.Done():
	}
	return true
}

// relayPing is how often a relay pings the server that plays its page,
// whose session would else end after its ReadTimeout with no key.
const relayPing = 20 * time.Second

// ErrRelaying is Relay's error when the page is relayed already.
var ErrRelaying = errors.New("web: the page is relayed already")

// Relay lends the page to a session that another server plays for it
// ([Handler.ServeStream] there), whose messages come and go on rw, until
// that session ends, and returns the reason it ended with, "" for a
// session that just ended. The other server is sent a hello of the page's
// size, with path and name, then the page's keys, text, names and resizes
// as they come, and a ping every 20 s; the page is sent its frames and
// titles as they come, its pongs and goodbye being the relay's. Meanwhile
// Show's frames are kept, not sent: once Relay returns, the page is sent
// the newest frame whole, and the session's title again. The caller ends Relay by
// closing rw (the relay's connection); the page's end ends it too.
func (c *Conn) Relay(rw io.ReadWriteCloser, path, name string) (bye string, err error) {
	t := &tap{in: make(chan []byte, 16), done: make(chan struct{}), written: make(chan error, 1)}
	c.mu.Lock()
	if c.tap != nil {
		c.mu.Unlock()
		return "", ErrRelaying
	}
	c.tap = t
	cols, rows := c.cols, c.rows
	c.mu.Unlock()
	s := newStream(rw, maxRelayed)
	stop := context.AfterFunc(c.ctx, func() { s.CloseNow() })
	var wg sync.WaitGroup
	defer func() {
		close(t.done)
		stop()
		wg.Wait()
		c.mu.Lock()
		c.tap = nil
		c.sent = new(Grid) // what the page shows is the other server's: all of it is sent again
		c.fresh = c.end == nil
		c.titleSet = true // the session's, or none: not the other server's
		c.mu.Unlock()
		c.wakeup()
	}()
	if err := s.Write(context.Background(), websocket.MessageBinary, AppendHello(nil, Hello{Cols: cols, Rows: rows, Path: path, Name: name})); err != nil {
		return "", err
	}
	wg.Go(func() { relayInput(s, t) })
	var buf []byte
	for {
		buf, err = s.read(buf)
		if err != nil {
			if c.ctx.Err() != nil {
				return "", c.cause()
			}
			return "", err
		}
		if len(buf) == 0 {
			continue
		}
		switch buf[0] {
		case MsgPong:
		case MsgBye:
			if bye = string(buf[1:]); bye == endDone.reason {
				bye = ""
			}
			return bye, nil
		default:
			if err := c.writeRelayed(t, buf); err != nil {
				return "", err
			}
		}
	}
}

// relayInput sends the other server the page's input as the tap takes it,
// and a ping every relayPing, until the relay is over or s fails.
func relayInput(s *stream, t *tap) {
	tick := time.NewTicker(relayPing)
	defer tick.Stop()
	var ping []byte
	for n := uint32(0); ; n++ {
		var err error
		select {
		case <-t.done:
			return
		case msg := <-t.in:
			err = s.Write(context.Background(), websocket.MessageBinary, msg)
		case <-tick.C:
			ping = AppendPing(ping[:0], n)
			err = s.Write(context.Background(), websocket.MessageBinary, ping)
		}
		if err != nil {
			return // the relay's reads fail too
		}
	}
}

// writeRelayed has the writer send the page msg, a message of the other
// server's, after what it sends already, and waits until it is sent: the
// other server's frames wait meanwhile, and it sends the newest once they
// go. A page that takes nothing for WriteTimeout is dropped.
func (c *Conn) writeRelayed(t *tap, msg []byte) error {
	c.mu.Lock()
	c.relayed = msg
	c.mu.Unlock()
	c.wakeup()
	select {
	case err := <-t.written:
		return err
	case <-c.writerDone:
		return c.cause()
	}
}
