package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pires/go-proxyproto"

	"poolroids/game/hub"
	"poolroids/ui/web"
)

// WebPlayFunc plays one browser's session on its screen, as a [PlayFunc]
// plays an SSH session's, with the same contract: it returns soon after
// ctx is done, leaves no goroutine behind (start them with [Session.Go]),
// and ends what the player asked for with a [RefusedError] or an
// [EndError], whose message the page shows.
type WebPlayFunc func(ctx context.Context, scr *web.Screen, s Session) (score int, err error)

// Refusals of a browser's session; they are the log's reasons.
const (
	reasonWebPath = "no such page"
)

// webHandler makes the handler of the server's web listeners: the page
// (package ui/web) and its socket, whose sessions count against the
// server's limits as SSH sessions do, and pages, for the rest.
func (s *Server) webHandler() (http.Handler, error) {
	h, err := web.NewHandler(web.Config{
		Session:        web.SessionFunc(s.playWeb),
		Origins:        s.cfg.WebOrigins,
		TrustedProxies: s.cfg.ProxyFrom,
		Admit:          s.admitWeb,
		Logger:         s.log,
	})
	if err != nil {
		return nil, err
	}
	s.web = h
	if s.cfg.WebPages != nil {
		h.Fallback(s.cfg.WebPages)
	}
	return h, nil
}

// ServeWeb serves the game to browsers on ln, beside SSH: the page (see
// package ui/web) at "/", "/watch/NAME" and "/join/NAME", and
// Config.WebPages for the rest. A browser's session is played by
// Config.PlayWeb, with the limits of an SSH session: it counts among
// MaxSessions and its address's MaxSessionsPerAddress, its games among
// MaxPerAddress; each socket takes a connection from its address's
// ConnPerMinute budget, the one SSH's connections take from; Idle and
// MaxTime end it. Behind balancers (Config.ProxyFrom) the client's
// address is the PROXY header's, or the X-Forwarded-For header's of a
// request from a balancer; a header from anyone else is refused. Drain
// closes ln; Shutdown tells every page the server is shutting down and
// ends its session. ServeWeb returns ErrServerClosed once either was
// called, and closes ln.
func (s *Server) ServeWeb(ln net.Listener) error {
	if s.cfg.PlayWeb == nil {
		ln.Close()
		return errors.New("serve: Config.PlayWeb is nil")
	}
	if !s.listen(ln) {
		return ErrServerClosed
	}
	defer s.unlisten(ln)
	hs := &http.Server{Handler: s.web, ReadHeaderTimeout: s.cfg.LoginTimeout, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
	s.mu.Lock()
	s.webServers[hs] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.webServers, hs)
		s.mu.Unlock()
	}()
	s.log.Info("listening for browsers", "addr", "http://"+ln.Addr().String())
	var l net.Listener = webListener{ln, s.cfg.Observer}
	if s.cfg.ProxyFrom != nil {
		l = &proxyproto.Listener{Listener: l, ReadHeaderTimeout: s.cfg.LoginTimeout, ConnPolicy: func(o proxyproto.ConnPolicyOptions) (proxyproto.Policy, error) {
			if s.trusted(o.Upstream) {
				return proxyproto.USE, nil // a balancer may send X-Forwarded-For instead
			}
			return proxyproto.REJECT, nil
		}}
	}
	err := hs.Serve(l)
	if s.shuttingDown() {
		return ErrServerClosed
	}
	return err
}

// webListener counts what its connections send for the Observer.
type webListener struct {
	net.Listener
	obs Observer
}

func (l webListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil || l.obs == nil {
		return nc, err
	}
	return counted{nc, l.obs}, nil
}

// shutdownWeb ends the browsers' sessions, telling each page why, within
// ctx.
func (s *Server) shutdownWeb(ctx context.Context) error {
	s.mu.Lock()
	for hs := range s.webServers {
		hs.Close() // the listener and the requests; the sockets are the handler's
	}
	s.mu.Unlock()
	if s.web == nil {
		return nil
	}
	return s.web.Shutdown(ctx)
}

// WebSessions returns how many of the sessions running are browsers'.
func (s *Server) WebSessions() int { return int(s.webs.Load()) }

// admitWeb takes a connection from addr's budget for a socket.
func (s *Server) admitWeb(addr netip.Addr) (func(), error) {
	k := prefixOf(addr)
	if s.shuttingDown() {
		return nil, errors.New("the server is shutting down")
	}
	if s.limit != nil && !s.limit.allow(k, time.Now()) {
		s.refusals.note(s.log, k, reasonRate, "addr", addr.String(), "web", true)
		return nil, errors.New("too many connections from your address, try later")
	}
	if s.cfg.Observer != nil {
		s.cfg.Observer.Accepted()
	}
	return func() {}, nil
}

// prefixOf is the address a client at a counts against: an IPv4
// address, or an IPv6 /64.
func prefixOf(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// webRefusals are what a page is told of a refusal by the starting
// connections' limits.
var webRefusals = map[string]string{
	reasonStartupsPer: "too many connections from your address at once, try later",
	reasonStartups:    "the server is busy, try later",
}

// webSession is one browser's session as the server runs it.
type webSession struct {
	srv      *Server
	c        *web.Conn
	seat     *seat
	wg       sync.WaitGroup // the session's goroutines
	cancel   context.CancelCauseFunc
	watching atomic.Bool
}

// playWeb plays a browser's session: the limits, then Config.PlayWeb.
func (s *Server) playWeb(ctx context.Context, c *web.Conn) error {
	h := c.Hello()
	k := prefixOf(h.Addr)
	if reason := s.tally.admit(k); reason != "" {
		s.refusals.note(s.log, k, reason, "addr", h.Addr.String(), "web", true)
		c.Close(webRefusals[reason])
		return nil
	}
	w := &webSession{srv: s, c: c, seat: &seat{t: s.tally, k: k}}
	defer w.seat.leave()
	if e := w.seat.play(); e != nil {
		s.refusals.note(s.log, k, e.reason, "addr", h.Addr.String(), "web", true)
		c.Close(e.message)
		return nil
	}
	return s.webGame(ctx, w, nil)
}

// webGame plays the session of w, admitted, on its page: for player p
// when another server of the fleet relays it (see WebRequest), else for
// the page's.
func (s *Server) webGame(ctx context.Context, w *webSession, p *HopPlayer) error {
	c := w.c
	h := c.Hello()
	k := w.seat.k
	cmd, err := webCommand(h.Path)
	if err != nil {
		s.refusals.note(s.log, k, reasonWebPath, "addr", h.Addr.String(), "web", true)
		c.Close(err.Error())
		return nil
	}
	s.webs.Add(1)
	defer s.webs.Add(-1)
	start := time.Now()
	log := s.log.With("addr", h.Addr.String(), "user", cleanUser(h.Name), "web", true)
	log.Info("game start", "path", cleanUser(h.Path), "width", h.Cols, "height", h.Rows)

	conn := ctx // the connection's: done when the page went away or the server shuts down
	ctx, w.cancel = context.WithCancelCause(ctx)
	defer w.cancel(nil)
	if s.cfg.MaxTime > 0 {
		t := time.AfterFunc(s.cfg.MaxTime, func() { w.cancel(s.expire) })
		defer t.Stop()
	}
	if s.cfg.Idle > 0 {
		stop := w.watchIdle(s.cfg.Idle)
		defer stop()
	}
	sess := Session{
		Name:       CleanName(h.Name),
		RemoteAddr: net.TCPAddrFromAddrPort(netip.AddrPortFrom(h.Addr, 0)),
		Term:       "web",
		Command:    cmd,
		Web:        true,
		watching:   &w.watching,
		playing:    w.setPlaying,
		spawn:      w.spawn,
		relayWeb:   w.relay,
	}
	if p != nil {
		sess.Fingerprint, sess.Relayed = p.Fingerprint, true
	}
	scr := web.NewScreen(ctx, c)
	score, err := w.run(ctx, scr, sess)
	w.cancel(nil)
	w.wg.Wait()

	e := endQuit
	why, _ := told(err)
	switch cause, _ := context.Cause(ctx).(*ending); {
	case errors.Is(err, ErrPanic):
		log.Error("panic", "err", err)
		e = endPanic
	case cause != nil:
		e = cause
	case why != nil:
		e = why
	case conn.Err() != nil && s.shuttingDown():
		e = endShutdown
	case conn.Err() != nil:
		e = endDisconnect
	case err != nil:
		log.Error("game failed", "err", err)
		e = endError
	}
	if e.message != "" && conn.Err() == nil {
		c.Close(e.message)
	}
	if s.cfg.Observer != nil && p == nil { // a relay's session is the relaying server's
		s.cfg.Observer.Ended(time.Since(start))
	}
	log.Info("disconnect", "duration", time.Since(start).Round(time.Millisecond), "score", score, "reason", e.reason)
	return nil
}

// run calls PlayWeb, turning a panic into the end of this session.
func (w *webSession) run(ctx context.Context, scr *web.Screen, sess Session) (score int, err error) {
	defer w.recoverGame()
	return w.srv.cfg.PlayWeb(ctx, scr, sess)
}

// recoverGame logs a panic of the game with its stack and ends the
// session.
func (w *webSession) recoverGame() {
	if v := recover(); v != nil {
		w.srv.log.Error("panic", "panic", fmt.Sprint(v), "stack", string(debug.Stack()), "web", true)
		w.cancel(endPanic)
	}
}

// spawn is Session.Go for the session.
func (w *webSession) spawn(fn func()) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer w.recoverGame()
		fn()
	}()
}

// relay is Session.RelayWeb for the session.
func (w *webSession) relay(rw io.ReadWriteCloser, path, name string) (string, error) {
	was := w.watching.Swap(true)
	defer w.watching.Store(was)
	return w.c.Relay(rw, path, name)
}

// setPlaying is Session.SetPlaying for the session.
func (w *webSession) setPlaying(on bool) error {
	if w.seat.game(on) {
		return nil
	}
	w.srv.refusals.note(w.srv.log, w.seat.k, reasonGamesPer)
	return &RefusedError{Message: fmt.Sprintf("too many games from your address (%d at once), try later", w.srv.cfg.MaxPerAddress)}
}

// watchIdle ends the session when the page has sent no key for limit,
// unless it watches; it returns the func that stops it.
func (w *webSession) watchIdle(limit time.Duration) (stop func()) {
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	t = time.AfterFunc(limit, func() {
		mu.Lock()
		defer mu.Unlock()
		switch idle := w.c.IdleFor(); {
		case stopped:
		case w.watching.Load():
			t.Reset(limit)
		case idle < limit:
			t.Reset(limit - idle)
		default:
			w.cancel(w.srv.idle)
		}
	})
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
	}
}

// webCommand is what a page's path asks for: "/" the lobby, "/join/NAME"
// an arena, "/watch/NAME" a live game, "/replay/NAME" a replay of the
// boards, and "/new/NAME" or "/new/NAME/pvp" a new arena, as SSH's new
// NAME [--pvp]: the path another server's lobby relays a new arena with
// (see package route).
func webCommand(path string) (Command, error) {
	if path == "/" {
		return Command{}, nil
	}
	verb, name, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	var c Command
	switch verb {
	case "join":
		c.Verb = VerbJoin
	case "new":
		c.Verb = VerbNew
		name, c.PvP = strings.CutSuffix(name, "/pvp")
	case "watch":
		c.Verb = VerbWatch
	case "replay":
		c.Verb = VerbReplay
	default:
		ok = false
	}
	if !ok {
		return Command{}, fmt.Errorf("no page %s here: try / (the lobby), /join/NAME or /watch/NAME", cleanUser(path))
	}
	if n, err := url.PathUnescape(name); err == nil {
		name = n
	}
	if c.Verb == VerbReplay { // the boards' to find: see package route
		if name == "" || strings.ContainsAny(name, "/\\") {
			return Command{}, fmt.Errorf("bad replay name %s", quote(name))
		}
		c.Name = name
		return c, nil
	}
	var err error
	if c.Name, err = hub.ParseName(name); err != nil {
		return Command{}, fmt.Errorf("bad name %s: %v", quote(name), err)
	}
	return c, nil
}
