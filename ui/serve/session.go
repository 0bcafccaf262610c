package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"

	"poolroids/ui/kitty"
)

// PlayFunc runs one game on screen until the player quits or ctx is done,
// and returns the score. The screen is built on the session's terminal and
// not yet initialised: Play calls Init (tview's SetScreen does), and may
// call Fini; the server finalises it afterwards in any case. Play must
// return soon after ctx is done and leave no goroutine behind; goroutines it
// starts should be started with [Session.Go], or recover their own panics
// and report them as an error wrapping [ErrPanic], so that a panic ends
// this session only.
type PlayFunc func(ctx context.Context, screen tcell.Screen, s Session) (score int, err error)

// ErrPanic marks an error a Play func returns for a panic it recovered
// itself (with its stack in the message): the server logs it as a panic.
var ErrPanic = errors.New("panic")

// Session describes the player and terminal of one game.
type Session struct {
	Name        string   // SSH user name as shown to other players: see CleanName
	Fingerprint string   // SHA256 fingerprint of the player's key; "" without one
	RemoteAddr  net.Addr // the client's address
	Term        string   // the terminal type the screen speaks (the client's TERM, or xterm-256color)
	// ASCII is set when the client's locale is not UTF-8: draw without
	// braille.
	ASCII bool
	// Keys is the held-key state of the kitty keyboard protocol filter the
	// session's input passes through.
	Keys *kitty.Keys
	// Command is what the client asked for: the lobby (no command), join
	// or new an arena, or watch a live game.
	Command Command
	// Relayed is set when another server of the fleet relays the player
	// (see [Server.ServeHop]): the session is to be played here.
	Relayed bool
	// Web is set for a browser's session (see [Server.ServeWeb]): there
	// is no terminal to relay to another server, but a page
	// ([Session.RelayWeb]).
	Web bool

	spawn    func(func())
	watching *atomic.Bool
	playing  func(bool) error
	relay    func(func(Terminal) error) error
	relayWeb func(rw io.ReadWriteCloser, path, name string) (string, error)
}

// SetWatching tells the server whether the session only watches a live
// game now. A watcher has no reason to type, so the idle limit spares a
// session while it watches; MaxTime still applies.
func (s Session) SetWatching(on bool) {
	if s.watching != nil {
		s.watching.Store(on)
	}
}

// SetPlaying tells the server whether the session plays a game now (a solo
// game, a seat in an arena) rather than browse the lobby, watch or view a
// replay: only games count against Config.MaxPerAddress. Turning it on
// fails with a *RefusedError that names the limit when the player's
// address plays as many games as it may; the session then is no game,
// and should play none. Turning it off never fails. A session of no
// server counts nothing.
func (s Session) SetPlaying(on bool) error {
	if s.playing == nil {
		return nil
	}
	return s.playing(on)
}

// Address is the client's address as the server's limits count it: an
// IPv4 address, or an IPv6 /64.
func (s Session) Address() string { return key(s.RemoteAddr).String() }

// Player tells the player from others of the same name, for a person to
// read (a log, a test's screen): the name shown to other players, plus
// the start of the key fingerprint when there is one. A high-score table
// keeps the key apart from the name, where no name can pass for it (see
// scores.Store.For): "ann IyQcJHIb" may be anyone's name.
func (s Session) Player() string {
	fp, ok := strings.CutPrefix(s.Fingerprint, "SHA256:")
	if !ok {
		return s.Name
	}
	return s.Name + " " + fp[:min(len(fp), 8)]
}

// Go runs fn in a new goroutine. A panic in fn is recovered and logged with
// its stack, and ends this session only.
func (s Session) Go(fn func()) { s.spawn(fn) }

// ending is why a connection ended, for the log, and what the player is
// told (nothing if message is empty).
type ending struct {
	reason, message string
}

func (e *ending) Error() string { return e.reason }

var (
	endQuit       = &ending{reason: "quit"}
	endDisconnect = &ending{reason: "disconnect"}
	endShutdown   = &ending{reason: "shutdown", message: "server shutting down"}
	endNoStart    = &ending{reason: "no game started"}
	endPanic      = &ending{reason: "panic", message: "internal error, session closed"}
	endError      = &ending{reason: "error", message: "internal error, session closed"}
	endNoPTY      = &ending{reason: "no pty", message: "poolroids is a game: connect with a terminal, e.g. ssh -t, with no command or join, new or watch NAME"}
	endExec       = &ending{reason: "exec refused", message: "poolroids runs no commands but join, new and watch NAME, post and scores: connect with a terminal, e.g. ssh -t"}
	endRefused    = &ending{reason: "too many refused requests", message: "too many refused requests, disconnected"}
)

// conn is one client connection. The server allows one session on it.
type conn struct {
	srv    *Server
	nc     net.Conn
	sc     *ssh.ServerConn
	ctx    context.Context // done when the connection should end
	cancel context.CancelCauseFunc
	log    *slog.Logger
	start  time.Time
	seat   *seat
	wg     sync.WaitGroup // the session's goroutines
	hop    bool           // a fleet member's relay (see ServeHop)

	// A relay's player, once named (see HopRequest), read by
	// serveSession's loop, then by the game it starts.
	player     *HopPlayer
	playerAddr net.Addr
	refuse     *ending // why the player may not play here

	session bool // a session channel was opened (read by serveConn's loop only)

	mu        sync.Mutex
	started   bool        // the session asked for a shell or a command
	game      bool        // a game was started
	done      bool        // the connection is being torn down
	closer    *time.Timer // closes nc later (see closeAfter)
	score     int
	ended     *ending // what ended the session, once it has
	allowance bucket  // of refused requests (see refused)

	watching atomic.Bool // the game only watches: see Session.SetWatching
}

// serveConn serves nc, a connection accepted at accepted and started by
// start, until it closes. login is a relay's place among the hop's
// logins, given back after the handshake; nil: nc is a player's.
func (s *Server) serveConn(nc net.Conn, seat *seat, login *seat, accepted time.Time) {
	defer s.untrack(nc, seat)
	defer s.recoverConn(nc)

	addr := nc.RemoteAddr().String()
	hop := login != nil
	config, k := s.ssh, seat.k
	if hop {
		config, k = s.hop, login.k
	}
	sc, chans, reqs, err := s.handshake(nc, config, accepted)
	if hop {
		login.leave()
	}
	if err != nil {
		if _, ok := errors.AsType[*ssh.ServerAuthError](err); ok {
			s.refusals.note(s.log, k, "authentication failed", "addr", addr)
		} else {
			s.log.Debug("handshake failed", "addr", addr, "err", err)
		}
		return
	}

	ctx, cancel := context.WithCancelCause(s.base)
	c := &conn{
		srv: s, nc: nc, sc: sc, ctx: ctx, cancel: cancel, start: time.Now(), seat: seat, hop: hop,
		log: s.log.With("addr", addr, "user", cleanUser(sc.User())),
	}
	fp := sc.Permissions.Extensions[permFingerprint]
	c.log.Info("connect", "fingerprint", fp)
	go c.globalRequests(reqs)
	stop := context.AfterFunc(ctx, c.hangUp)
	noStart := time.AfterFunc(s.cfg.StartTimeout, func() {
		c.mu.Lock()
		started := c.started
		c.mu.Unlock()
		if !started {
			cancel(endNoStart)
		}
	})
	for nch := range chans {
		c.channel(nch)
	}
	// The connection is gone: end whatever runs on it.
	cancel(endDisconnect)
	if !waitAtMost(&c.wg, abandon) {
		// A game that ignores its end must not keep the slots of a player
		// who is gone: they are given back now, its goroutines left behind.
		c.log.Error("game did not end with its connection: its slots are freed", "after", abandon)
	}
	noStart.Stop()
	stop()
	c.mu.Lock()
	c.done = true
	if c.closer != nil {
		c.closer.Stop()
	}
	ended, score := c.ended, c.score
	c.mu.Unlock()
	if ended == nil {
		ended, _ = context.Cause(ctx).(*ending)
	}
	if ended == nil {
		ended = endDisconnect
	}
	if s.cfg.Observer != nil && !hop { // a relay's session is the relaying server's
		s.cfg.Observer.Ended(time.Since(c.start))
	}
	c.log.Info("disconnect", "duration", time.Since(c.start).Round(time.Millisecond),
		"score", score, "reason", ended.reason)
}

// waitAtMost waits for wg, at most d, and tells whether it was done.
func waitAtMost(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// recoverConn turns a panic in the server's own connection code into a log
// line and a closed connection.
func (s *Server) recoverConn(nc net.Conn) {
	if v := recover(); v != nil {
		s.log.Error("panic", "addr", nc.RemoteAddr().String(), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		nc.Close()
	}
}

// hangUp runs when the connection's context ends (shutdown, idle, time
// limit, disconnect): a game gets grace to say goodbye (its end closes the
// connection sooner), a connection without one is cut now.
func (c *conn) hangUp() {
	c.mu.Lock()
	game := c.game
	c.mu.Unlock()
	if game {
		c.closeAfter(grace)
		return
	}
	c.nc.Close()
}

// closeAfter closes the socket after d, unless the connection ends first.
func (c *conn) closeAfter(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return
	}
	if c.closer == nil {
		c.closer = time.AfterFunc(d, func() { c.nc.Close() })
	} else {
		c.closer.Reset(d)
	}
}

// globalRequests refuses every connection-level request: remote port
// forwarding (tcpip-forward) among them.
func (c *conn) globalRequests(reqs <-chan *ssh.Request) {
	for req := range reqs {
		reason := ""
		if req.Type == "tcpip-forward" || req.Type == "streamlocal-forward@openssh.com" {
			reason = "remote port forwarding"
		}
		c.refused(reason)
		// A connection its refusals ended gets no more answers: its
		// socket may close a moment later, when a loaded server gets to it.
		if req.WantReply && c.ctx.Err() == nil {
			_ = req.Reply(false, nil)
		}
	}
}

// channel answers a request to open a channel: the first session is
// accepted, nothing else is.
func (c *conn) channel(nch ssh.NewChannel) {
	switch nch.ChannelType() {
	case "session":
		if c.session {
			c.refused("second session on one connection")
			_ = nch.Reject(ssh.ResourceShortage, "one session per connection")
			return
		}
		c.session = true
		ch, reqs, err := nch.Accept()
		if err != nil {
			return
		}
		c.wg.Add(1)
		go c.serveSession(ch, reqs)
	case "direct-tcpip", "direct-streamlocal@openssh.com":
		c.refused("port forwarding")
		_ = nch.Reject(ssh.Prohibited, "port forwarding is disabled")
	default:
		c.refused("unknown channel type", "type", cleanUser(nch.ChannelType()))
		_ = nch.Reject(ssh.UnknownChannelType, "unsupported channel type")
	}
}

// ptyRequest is the payload of "pty-req" (RFC 4254 6.2).
type ptyRequest struct {
	Term              string
	Columns, Rows     uint32
	WidthPx, HeightPx uint32
	Modes             string
}

// A window drag sends a window-change for each size it passes, 60 a
// second at most; a session may send resizeBurst of them at once and
// resizeRate a second after. Each one more is refused (see conn.refused).
const (
	resizeRate        = 60
	resizeBurst       = 120
	reasonResizeFlood = "window-change flood"
)

// windowChange is the payload of "window-change" (RFC 4254 6.7).
type windowChange struct {
	Columns, Rows     uint32
	WidthPx, HeightPx uint32
}

// serveSession reads the session's requests for as long as the channel is
// open: a client's window-change must never wait (the SSH connection
// delivers nothing else while a request is unread).
func (c *conn) serveSession(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer c.wg.Done()
	defer c.srv.recoverConn(c.nc)
	var (
		pty     *ptyRequest
		term    clientTerm
		tty     *sshTty
		game    <-chan struct{} // closed when the game has ended
		resizes bucket          // of window-changes
	)
	for req := range reqs {
		ok, reason := false, ""
		c.mu.Lock()
		started := c.started
		c.mu.Unlock()
		switch req.Type {
		case "pty-req":
			var p ptyRequest
			if !started && pty == nil && ssh.Unmarshal(req.Payload, &p) == nil {
				pty, ok = &p, true
				term.term = p.Term
			}
		case "env":
			var kv struct{ Key, Value string }
			if !started && ssh.Unmarshal(req.Payload, &kv) == nil {
				ok = term.setEnv(kv.Key, kv.Value)
			}
		case "window-change":
			var w windowChange
			if pty != nil && ssh.Unmarshal(req.Payload, &w) == nil {
				// The size is always the latest (the game is told at most
				// every resizeGap); past a drag's pace each one is a
				// refused request too, whose allowance a storm soon ends.
				ok = resizes.take(time.Now(), resizeRate, resizeBurst)
				if !ok {
					reason = reasonResizeFlood
				}
				pty.Columns, pty.Rows = w.Columns, w.Rows
				if tty != nil {
					tty.resize(w.Columns, w.Rows)
				}
			}
		case HopRequest:
			var p HopPlayer
			if c.hop && !started && c.player == nil && ssh.Unmarshal(req.Payload, &p) == nil {
				ok = c.hopPlayer(p)
			}
		case "shell", "exec", WebRequest:
			web := req.Type == WebRequest
			if started || web && (!c.hop || c.srv.web == nil) {
				break
			}
			c.mu.Lock()
			c.started = true
			c.mu.Unlock()
			ok = true
			_ = req.Reply(true, nil)
			req.WantReply = false
			if web {
				game = c.beginWeb(ch)
			} else {
				tty, game = c.begin(ch, req, pty, term)
			}
		default:
			// subsystem (sftp…), auth-agent-req@openssh.com, x11-req,
			// signal, break, keepalive: refused. Log the ones that ask for
			// a way in.
			switch req.Type {
			case "subsystem", "auth-agent-req@openssh.com", "x11-req":
				reason = req.Type
			}
		}
		if !ok {
			c.refused(reason)
		}
		if req.WantReply {
			_ = req.Reply(ok, nil)
		}
	}
	// The channel is closed: end the game if it still runs. The session
	// was the connection's only purpose, so the connection ends with it.
	c.cancel(endDisconnect)
	if game != nil {
		<-game
	}
	c.nc.Close()
}

// begin starts what a shell or exec request asks for: a game when there
// is a terminal and a free slot, else an explanation. For a game it returns
// its Tty and a channel closed when it has ended.
func (c *conn) begin(ch ssh.Channel, req *ssh.Request, pty *ptyRequest, term clientTerm) (*sshTty, <-chan struct{}) {
	cmd, refuse := c.command(req)
	if refuse == nil && !cmd.Verb.Terminal() {
		done := make(chan struct{})
		c.wg.Add(1)
		go func() {
			defer close(done)
			defer c.srv.recoverConn(c.nc)
			c.exec(ch, cmd, pty != nil)
		}()
		return nil, done
	}
	switch {
	case refuse != nil:
	case pty == nil:
		refuse = endNoPTY
	case c.hop && c.player == nil:
		refuse = endNoPlayer
	case c.refuse != nil:
		refuse = c.refuse
	}
	if refuse != nil {
		c.srv.refusals.note(c.log, c.seat.k, refuse.reason)
		c.finish(ch, ch.Stderr(), refuse, 1)
		return nil, nil
	}
	if e := c.seat.play(); e != nil {
		c.srv.refusals.note(c.log, c.seat.k, e.reason)
		c.finish(ch, ch, e, 1)
		return nil, nil
	}
	c.mu.Lock()
	c.game = true
	c.mu.Unlock()
	var out io.Writer = ch
	if !term.utf8() {
		out = &asciiWriter{w: ch}
	}
	tty := newTty(ch, out, pty.Columns, pty.Rows, func() { c.cancel(endDisconnect) })
	done := make(chan struct{})
	c.wg.Add(1)
	go func() {
		defer close(done)
		c.play(ch, tty, term, cmd)
	}()
	return tty, done
}

// finish tells the player why the session ends (on w), sends the exit
// status and closes the channel; the socket follows once the client has
// closed its side, or after linger.
func (c *conn) finish(ch ssh.Channel, w io.Writer, e *ending, status uint32) {
	c.mu.Lock()
	c.ended = e
	c.mu.Unlock()
	if e.message != "" {
		_, _ = io.WriteString(w, "poolroids: "+e.message+"\r\n")
	}
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
	_ = ch.Close()
	c.closeAfter(linger)
}

// play runs one game on the session's terminal.
func (c *conn) play(ch ssh.Channel, tty *sshTty, term clientTerm, cmd Command) {
	defer c.wg.Done()
	defer c.seat.leave()

	// Every limit ends the connection's context, so that a game slow to
	// return is cut after grace (see hangUp).
	if c.srv.cfg.MaxTime > 0 {
		t := time.AfterFunc(c.srv.cfg.MaxTime, func() { c.cancel(c.srv.expire) })
		defer t.Stop()
	}
	if c.srv.cfg.Idle > 0 {
		w := watchIdle(tty, c.srv.cfg.Idle, &c.watching, func() { c.cancel(c.srv.idle) })
		defer w.stop()
	}

	ti, name := term.terminfo()
	ktty := kitty.NewTty(tty)
	scr, err := kitty.NewScreen(ktty, ti)
	if err != nil {
		c.log.Error("screen", "err", err)
		tty.Close()
		c.finish(ch, ch, endError, 1)
		<-tty.pumped
		return
	}
	sess := Session{
		Name:        CleanName(c.sc.User()),
		Fingerprint: c.sc.Permissions.Extensions[permFingerprint],
		RemoteAddr:  c.sc.RemoteAddr(),
		Term:        name,
		ASCII:       !term.utf8(),
		Keys:        ktty.Keys(),
		Command:     cmd,
	}
	if c.player != nil {
		// A relay logs in as its player (see HopPlayer): the rest is theirs
		// too.
		sess.Fingerprint, sess.RemoteAddr, sess.Relayed = c.player.Fingerprint, c.playerAddr, true
		c.srv.relays.Add(1)
		c.srv.relayed.Add(1)
		defer c.srv.relays.Add(-1)
	}
	sess.watching = &c.watching
	sess.playing = c.setPlaying
	sess.relay = func(fn func(Terminal) error) error { return c.relay(scr, tty, term, ch, fn) }
	sess.spawn = c.spawn
	size, _ := tty.WindowSize()
	c.log.Info("game start", "term", name, "width", size.Width, "height", size.Height, "ascii", sess.ASCII)

	score, err := c.runPlay(scr, sess)
	if tty.started.Load() {
		// Play may have left the screen running (it must be initialised
		// to be finalised: tcell starts the Tty in Init, which tells).
		scr.Fini()
	}
	tty.Close()
	c.seat.leave()

	e, status := endQuit, uint32(0)
	why, whyStatus := told(err)
	switch cause, _ := context.Cause(c.ctx).(*ending); {
	case errors.Is(err, ErrPanic):
		c.log.Error("panic", "err", err)
		e, status = endPanic, 1
	case cause != nil:
		e, status = cause, 1
	case why != nil:
		e, status = why, whyStatus
	case err != nil:
		c.log.Error("game failed", "err", err)
		e, status = endError, 1
	}
	c.mu.Lock()
	c.score = score
	c.mu.Unlock()
	// Even after a disconnect: the client may only have closed its input
	// (ssh -t host </dev/null), and then it waits for the exit status.
	c.finish(ch, ch, e, status)
	<-tty.pumped
}

// spawn is Session.Go for the session.
func (c *conn) spawn(fn func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer c.recoverGame()
		fn()
	}()
}

// setPlaying is Session.SetPlaying for the session.
func (c *conn) setPlaying(on bool) error {
	if c.seat.game(on) {
		return nil
	}
	c.srv.refusals.note(c.log, c.seat.k, reasonGamesPer)
	return &RefusedError{Message: fmt.Sprintf("too many games from your address (%d at once), try later", c.srv.cfg.MaxPerAddress)}
}

// runPlay calls Play, turning a panic into the end of this session.
func (c *conn) runPlay(scr tcell.Screen, sess Session) (score int, err error) {
	defer c.recoverGame()
	return c.srv.cfg.Play(c.ctx, scr, sess)
}

// recoverGame logs a panic of the game with its stack and ends the session.
func (c *conn) recoverGame() {
	if v := recover(); v != nil {
		c.log.Error("panic", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		c.cancel(endPanic)
	}
}

// idleWatch ends a game when its player has sent nothing for a while. It is
// one timer, re-armed for the time left whenever it fires early, and for
// the whole limit while the session watches.
type idleWatch struct {
	mu      sync.Mutex
	t       *time.Timer
	stopped bool
}

func watchIdle(tty *sshTty, limit time.Duration, watching *atomic.Bool, expire func()) *idleWatch {
	w := &idleWatch{}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t = time.AfterFunc(limit, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch idle := tty.idleFor(); {
		case w.stopped:
		case watching.Load():
			w.t.Reset(limit)
		case idle < limit:
			w.t.Reset(limit - idle)
		default:
			expire()
		}
	})
	return w
}

func (w *idleWatch) stop() {
	w.mu.Lock()
	w.stopped = true
	w.t.Stop()
	w.mu.Unlock()
}

// cleanUser makes a client-chosen name safe to log, store and draw on other
// players' screens: printable runes only, at most 32.
func cleanUser(name string) string {
	var b strings.Builder
	n := 0
	for _, r := range name {
		if n == 32 {
			break
		}
		if unicode.IsPrint(r) {
			b.WriteRune(r)
			n++
		}
	}
	if b.Len() == 0 {
		return "anonymous"
	}
	return b.String()
}
