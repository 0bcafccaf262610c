package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"

	"poolroids/ui/web"
)

// HopRequest is the channel request with which a relay names its player
// ([HopPlayer]) before it asks for a terminal.
const HopRequest = "player@poolroids"

// HopPlayer is a [HopRequest]'s payload: who a relayed session plays for.
// The relay logs in with the player's name as its SSH user name: the one
// they chose in the lobby, else their login ([Session.Hop]).
type HopPlayer struct {
	User        string // their name, the relay's user name
	Fingerprint string // of their key, or ""
	Addr        string // their address, host:port, as the relaying server saw it
}

// WebRequest is the channel request with which a relay asks, once it has
// named its player ([HopRequest]), for a browser's session (see
// [Session.RelayWeb]) instead of a terminal: the session's channel then
// carries the web protocol's messages, each after its 4-byte big-endian
// length (web.Handler.ServeStream), until the session ends. Only the hop
// accepts it, from a server with PlayWeb.
const WebRequest = "web@poolroids"

var endNoPlayer = &ending{reason: "hop without a player", message: "internal error, session closed"}

// hopConfig is the hop listener's SSH configuration: key is the host key
// and the only client key let in.
func hopConfig(key ssh.Signer) *ssh.ServerConfig {
	want := key.PublicKey().Marshal()
	c := &ssh.ServerConfig{ServerVersion: "SSH-2.0-poolroids", Config: algorithms}
	c.AddHostKey(key)
	c.PublicKeyCallback = func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		if !bytes.Equal(k.Marshal(), want) {
			return nil, errNotAuthorized
		}
		return &ssh.Permissions{}, nil
	}
	return c
}

// ServeHop serves the fleet's relays on ln, an address of the fleet's
// network, until Shutdown; it needs Config.FleetKey. A relayed connection
// skips the rate and login limits of the relay's address, which would
// count every player of a relaying server as one: its session is counted
// against its player's address once named (see [HopRequest]).
func (s *Server) ServeHop(ln net.Listener) error {
	if s.hop == nil {
		ln.Close()
		return errors.New("serve: ServeHop needs Config.FleetKey")
	}
	return s.serve(ln, true)
}

// The hop's connections still in their handshake are bounded, in all
// and from each address, and each address may open so many a second: a
// fleet member's relays log in one by one, in milliseconds, and anyone
// else who reaches the port, with no key to log in with, holds no more
// than maxHopLoginsPer places of maxHopLogins, for LoginTimeout each.
const (
	maxHopLogins    = 64
	maxHopLoginsPer = 8
	hopRate         = 10 // connections a second from one address, after
	hopBurst        = 30 // a burst of this many
)

// Refusals of a connection to the hop, as the log and metrics name them.
const (
	reasonHopRate        = "hop: " + reasonRate
	reasonHopLoginsPer   = "hop: " + reasonStartupsPer
	reasonHopLoginsTotal = "hop: " + reasonStartups
)

// acceptHop serves nc, a relay's connection, if its address is within
// the hop's rate and its logins' bounds.
func (s *Server) acceptHop(nc net.Conn) {
	k := key(nc.RemoteAddr())
	reason := ""
	if !s.hopRate.allow(k, time.Now()) {
		reason = reasonHopRate
	} else {
		switch s.hopLogins.admit(k) {
		case reasonStartupsPer:
			reason = reasonHopLoginsPer
		case reasonStartups:
			reason = reasonHopLoginsTotal
		}
	}
	if reason != "" {
		s.refusals.note(s.log, k, reason, "addr", nc.RemoteAddr().String())
		nc.Close()
		return
	}
	login := &seat{t: s.hopLogins, k: k} // given back after the handshake
	// A relay's seat has no address until it names its player.
	seat := &seat{t: s.tally, at: seatGone}
	accepted := time.Now()
	s.start(nc, seat, func() {
		defer login.leave()
		s.serveConn(nc, seat, login, accepted)
	})
}

// hopPlayer takes the player a relay names: the connection then counts
// as starting from their address. A player whose address or key is not
// one is refused.
func (c *conn) hopPlayer(p HopPlayer) bool {
	ap, err := netip.ParseAddrPort(p.Addr)
	if err != nil || !fingerprintOf(p.Fingerprint) {
		return false
	}
	addr := net.TCPAddrFromAddrPort(ap)
	c.player = &p
	c.playerAddr = addr
	c.log.Info("relayed", "client", addr.String())
	if reason := c.seat.rekey(key(addr)); reason != "" {
		c.srv.refusals.note(c.log, key(addr), reason)
		msg := fmt.Sprintf("too many logins from your address (%d at once), try later", c.srv.cfg.MaxStartupsPerAddress)
		if reason == reasonStartups {
			msg = fmt.Sprintf("too many logins (%v), try later", c.srv.cfg.MaxStartups)
		}
		c.refuse = &ending{reason: reason, message: msg}
	}
	return true
}

// rekey counts a relayed connection, which counted as nothing so far, as
// starting from k, or reports why not.
func (s *seat) rekey(k netip.Prefix) (refused string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at != seatGone {
		return ""
	}
	if refused = s.t.admit(k); refused == "" {
		s.k, s.at = k, seatStarting
	}
	return refused
}

// Terminal is a session's terminal lent raw to a relay: see
// [Session.Relay].
type Terminal struct {
	Term string   // the client's TERM, as it sent it
	Env  []string // the locale and colour variables it sent, as KEY=value
	// In is the player's input as it comes. Its Read returns io.EOF once
	// the relay is over.
	In  io.Reader
	Out io.Writer // the client's terminal
	// Size returns the window's size, clamped as a screen's is.
	Size func() (cols, rows int)
	// Resized receives when the window's size has changed.
	Resized <-chan struct{}
}

// Relay lends the session's terminal to fn, raw, and returns fn's error:
// fn relays it to another server of the fleet. A screen already
// initialised is suspended meanwhile and resumed after, its application to
// redraw it all. The idle limit spares the session while fn runs: the
// other server applies its own.
func (s Session) Relay(fn func(Terminal) error) error {
	if s.relay == nil {
		return errors.New("serve: a session of no server cannot relay")
	}
	return s.relay(fn)
}

// Hop returns the player as a relay names them: see [HopRequest].
func (s Session) Hop() HopPlayer {
	addr := ""
	if s.RemoteAddr != nil {
		addr = s.RemoteAddr.String()
	}
	return HopPlayer{User: s.Name, Fingerprint: s.Fingerprint, Addr: addr}
}

// relay is Session.Relay for the session on scr, tty and ch.
func (c *conn) relay(scr tcell.Screen, tty *sshTty, term clientTerm, ch ssh.Channel, fn func(Terminal) error) error {
	if tty.started.Load() {
		if err := scr.Suspend(); err != nil {
			return err
		}
		defer scr.Resume()
	}
	was := c.watching.Swap(true)
	defer c.watching.Store(was)
	resized := make(chan struct{}, 1)
	tty.NotifyResize(func() {
		select {
		case resized <- struct{}{}:
		default:
		}
	})
	defer tty.NotifyResize(nil)
	in := &rawInput{t: tty, quit: make(chan struct{})}
	defer in.close()
	return fn(Terminal{
		Term: term.term, Env: term.env(), In: in, Out: ch, Resized: resized,
		Size: func() (int, int) {
			size, _ := tty.WindowSize()
			return size.Width, size.Height
		},
	})
}

// rawInput reads a Tty's input unpaced, for a relay, while the screen
// does not read it.
type rawInput struct {
	t    *sshTty
	quit chan struct{}
	mu   sync.Mutex // held by a Read: close waits for it
	done bool
}

func (r *rawInput) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.t
	if r.done {
		return 0, io.EOF
	}
	if len(t.pending) == 0 {
		select {
		case b, ok := <-t.data:
			if !ok {
				return 0, t.err
			}
			t.pending = b
		case <-r.quit:
			return 0, io.EOF
		case <-t.stop:
			return 0, io.EOF
		}
	}
	return t.take(p), nil
}

// close ends the relay's reading: once it returns, the input is the
// screen's again.
func (r *rawInput) close() {
	close(r.quit)
	r.mu.Lock()
	r.done = true
	r.mu.Unlock()
}

// RelayWeb lends a browser's page to a session that another server of the
// fleet plays for it, whose messages come and go on rw (see [WebRequest]
// and web.Conn.Relay), and returns the reason that session ended with, ""
// when it just ended. path is the page's path there ("/join/NAME",
// "/watch/NAME"), name the player's. The idle limit spares the session
// meanwhile: the other server applies its own. Closing rw ends it.
func (s Session) RelayWeb(rw io.ReadWriteCloser, path, name string) (bye string, err error) {
	if s.relayWeb == nil {
		return "", errors.New("serve: only a browser's session relays a page")
	}
	return s.relayWeb(rw, path, name)
}

// beginWeb starts the browser's session a relay asked for on ch (see
// WebRequest), if its player may play here, and returns a channel closed
// when it has ended.
func (c *conn) beginWeb(ch ssh.Channel) <-chan struct{} {
	e := c.refuse
	if c.player == nil {
		e = endNoPlayer
	}
	if e == nil {
		e = c.seat.play()
	}
	if e != nil {
		c.srv.refusals.note(c.log, c.seat.k, e.reason)
		c.finish(ch, ch.Stderr(), e, 1)
		return nil
	}
	c.mu.Lock()
	c.game = true
	c.mu.Unlock()
	done := make(chan struct{})
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer close(done)
		defer c.seat.leave()
		c.srv.relays.Add(1)
		c.srv.relayed.Add(1)
		defer c.srv.relays.Add(-1)
		addr := c.playerAddr.(*net.TCPAddr).AddrPort().Addr()
		w := &webSession{srv: c.srv, seat: c.seat}
		// Closing the stream (the session's end, a page that takes
		// nothing) closes the channel, and the connection after linger
		// if the relay leaves it open: a write the relay does not take
		// waits for the connection.
		var once sync.Once
		end := func() error {
			once.Do(func() { c.finish(ch, io.Discard, endQuit, 0) })
			return nil
		}
		rw := hopStream{ch, end}
		c.srv.web.ServeStream(rw, addr, web.SessionFunc(func(ctx context.Context, wc *web.Conn) error {
			w.c = wc
			return c.srv.webGame(ctx, w, c.player)
		}))
		_ = end()
	}()
	return done
}

// hopStream is a relayed page's stream: the channel, and close.
type hopStream struct {
	ssh.Channel
	close func() error
}

func (h hopStream) Close() error { return h.close() }

// fingerprintOf reports whether fp is a key's fingerprint as
// ssh.FingerprintSHA256 gives it, or "" (no key).
func fingerprintOf(fp string) bool {
	if fp == "" {
		return true
	}
	b64, ok := strings.CutPrefix(fp, "SHA256:")
	sum, err := base64.RawStdEncoding.DecodeString(b64)
	return ok && err == nil && len(sum) == sha256.Size
}
