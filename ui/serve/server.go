package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/ui/web"
)

// ErrServerClosed is what Serve returns once Shutdown has been called.
var ErrServerClosed = errors.New("serve: server closed")

const (
	// grace is how long a game that was told to end (shutdown, idle, time
	// limit) may take to say goodbye before its connection is cut.
	grace = 2 * time.Second
	// linger is how long a finished session waits for the client to close
	// its side after the exit status, before the server closes the socket.
	linger = time.Second
	// abandon is how long a game may take to end once its connection is
	// gone before the server gives back its slots without it.
	abandon = 3 * time.Second
	// maxTracked bounds the rate limiter's table of addresses, and the
	// refusal log's.
	maxTracked = 4096
)

// Config configures a [Server]. The zero value of every field but Play is a
// sensible default.
type Config struct {
	// HostKeyPath is the server's private key; "" means
	// [DefaultHostKeyPath]. It is created on first start (see
	// [LoadOrCreateHostKey]); a weak key is refused, one that others may
	// read is used with a warning.
	HostKeyPath string
	// AuthorizedKeysPath, if set, is an authorized_keys file: only those
	// keys may play. Unset, anyone may (public key or keyboard-interactive
	// without questions). There are never passwords.
	AuthorizedKeysPath string
	// MaxSessions is how many sessions may run at once, in the lobby,
	// watching or playing (0: 32). One more player is told "server full
	// (32 at once), try later".
	MaxSessions int
	// MaxPerAddress is how many games one address (an IPv6 /64) may play
	// at once (0: 4): the sessions that play, as the Play func says with
	// [Session.SetPlaying]; a lobby, a watcher or a replay is no game.
	MaxPerAddress int
	// MaxSessionsPerAddress is how many sessions one address may have
	// at once, games or not (0: twice MaxPerAddress).
	MaxSessionsPerAddress int
	// MaxStartups bounds the connections not yet playing: in the
	// handshake, logging in, or logged in and yet to start a game (zero
	// value: 10:30:100, OpenSSH's default).
	MaxStartups Startups
	// MaxStartupsPerAddress is how many of those one address may have
	// (0: 4). Below MaxStartups.Start, one address alone cannot make the
	// server drop anyone else's.
	MaxStartupsPerAddress int
	// LoginTimeout bounds the handshake and authentication (0: 10 s).
	LoginTimeout time.Duration
	// StartTimeout is how long a logged-in connection has to start a
	// game; it is closed if it has not (0: 5 s).
	StartTimeout time.Duration
	// MaxRefused is how many refused requests and channels a connection
	// may send in a burst, and then a minute; one more closes it (0: 100,
	// negative: no limit). OpenSSH's keepalives, refused, stay well below.
	MaxRefused int
	// RefusalSummary is how often repeated refusals are logged, as one
	// line per kind and address with their count (0: a minute).
	RefusalSummary time.Duration
	// Idle ends a game when the player has sent nothing for this long (0:
	// 10 minutes, negative: never). Output does not count: the game always
	// draws.
	Idle time.Duration
	// MaxTime ends a game after this long whatever happens (0: 2 hours,
	// negative: never).
	MaxTime time.Duration
	// ConnPerMinute is how many connections one address (an IPv6 /64) may
	// open per minute, after a burst of ConnBurst (0: 30 and 10; negative
	// ConnPerMinute: no limit).
	ConnPerMinute int
	ConnBurst     int
	// ProxyFrom lists the load balancers that send the PROXY protocol
	// (v1 or v2): a connection from one of them must open with a header,
	// and the client's address it gives is the one every limit and log
	// line sees; a header from any other address is refused. nil: no
	// header is read, and a connection's address is its socket's.
	ProxyFrom []netip.Prefix
	// FleetKey, if set, is the key every server of a fleet shares: it lets
	// [Server.ServeHop] serve the others' relays (nil: no hop).
	FleetKey ssh.Signer
	// Observer, if set, is told what the server does, for metrics.
	Observer Observer
	// Play runs one game. Required.
	Play PlayFunc
	// Exec answers the commands that need no terminal, post and scores
	// (nil: they are refused as any other command): see exec.go.
	Exec ExecFunc
	// PostsPerHour is how many posts one key may make an hour after a
	// burst of PostBurst (0: 12 and 4); one address may make twice as
	// many, keys or not (negative PostsPerHour: no limit).
	PostsPerHour int
	PostBurst    int
	// PlayWeb plays each browser's session (see [Server.ServeWeb]); nil:
	// no browsers.
	PlayWeb WebPlayFunc
	// WebOrigins lists the other origins whose pages may open the web
	// socket (see package ui/web's Config.Origins); the server's own
	// always may.
	WebOrigins []string
	// WebPages, if set, serves the requests to a web listener that are
	// not the page's nor its socket's.
	WebPages http.Handler
	// Logger receives the structured log (nil: slog.Default()).
	Logger *slog.Logger
}

// Server is an SSH server on which every session with a terminal plays its
// own game. Make one with [New], run it with [Server.Serve] and stop it
// with [Server.Shutdown].
type Server struct {
	cfg Config
	ssh *ssh.ServerConfig
	hop *ssh.ServerConfig // nil without a FleetKey
	// hopLogins counts the hop's connections in their handshake, and
	// hopRate limits each address's; both nil without a hop.
	hopLogins *tally
	hopRate   *limiter[netip.Prefix]
	limit     *limiter[netip.Prefix] // nil: no rate limit
	posts     *postLimits            // nil: no limit
	tally     *tally
	refusals  *refusals
	log       *slog.Logger
	key       string  // the host key's SHA256 fingerprint, for players to check
	idle      *ending // the idle ending, which names the limit
	expire    *ending // likewise for MaxTime

	base    context.Context // parent of every connection; Shutdown cancels it
	stopAll context.CancelCauseFunc

	relays  atomic.Int32  // relayed sessions playing here now
	relayed atomic.Uint64 // and in all

	web  *web.Handler // the browsers' page and sockets; nil without PlayWeb
	webs atomic.Int32 // browsers' sessions now

	mu         sync.Mutex
	closing    bool
	draining   bool // Drain was called: no more accepts
	listeners  map[net.Listener]struct{}
	webServers map[*http.Server]struct{}
	conns      map[net.Conn]struct{}
	wg         sync.WaitGroup // one per connection being served
}

// New checks cfg, loads (or creates) the host key and loads the authorized
// keys. It also removes from the process environment the variables through
// which tcell would read the server's own terminal settings (TERM,
// COLORTERM, LANG, LC_*, …): every screen the server makes is the
// client's, built from what the client sent.
func New(cfg Config) (*Server, error) {
	if cfg.Play == nil {
		return nil, errors.New("serve: Config.Play is nil")
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 32
	}
	if cfg.MaxSessions < 0 {
		return nil, fmt.Errorf("serve: MaxSessions %d: must be positive", cfg.MaxSessions)
	}
	if cfg.MaxPerAddress == 0 {
		cfg.MaxPerAddress = 4
	}
	if cfg.MaxStartups == (Startups{}) {
		cfg.MaxStartups = Startups{10, 30, 100}
	}
	if cfg.MaxStartupsPerAddress == 0 {
		cfg.MaxStartupsPerAddress = 4
	}
	switch {
	case cfg.MaxPerAddress < 0:
		return nil, fmt.Errorf("serve: MaxPerAddress %d: must be positive", cfg.MaxPerAddress)
	case cfg.MaxStartupsPerAddress < 0:
		return nil, fmt.Errorf("serve: MaxStartupsPerAddress %d: must be positive", cfg.MaxStartupsPerAddress)
	case cfg.MaxSessionsPerAddress < 0:
		return nil, fmt.Errorf("serve: MaxSessionsPerAddress %d: must be positive", cfg.MaxSessionsPerAddress)
	}
	if cfg.MaxSessionsPerAddress == 0 {
		cfg.MaxSessionsPerAddress = 2 * cfg.MaxPerAddress
	}
	if err := cfg.MaxStartups.check(); err != nil {
		return nil, fmt.Errorf("serve: MaxStartups %v: %w", cfg.MaxStartups, err)
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = 10 * time.Second
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 5 * time.Second
	}
	if cfg.MaxRefused == 0 {
		cfg.MaxRefused = 100
	}
	if cfg.RefusalSummary <= 0 {
		cfg.RefusalSummary = time.Minute
	}
	if cfg.Idle == 0 {
		cfg.Idle = 10 * time.Minute
	}
	if cfg.MaxTime == 0 {
		cfg.MaxTime = 2 * time.Hour
	}
	if cfg.ConnPerMinute == 0 {
		cfg.ConnPerMinute = 30
	}
	if cfg.ConnBurst <= 0 {
		cfg.ConnBurst = 10
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.HostKeyPath == "" {
		p, err := DefaultHostKeyPath()
		if err != nil {
			return nil, err
		}
		cfg.HostKeyPath = p
	}
	hostKey, err := LoadOrCreateHostKey(cfg.HostKeyPath)
	if err != nil {
		return nil, err
	}
	warnOpenKey(cfg.Logger, cfg.HostKeyPath, "host key open to others: whoever read it can pose as this server; chmod 600 it, or remove it for a new one")
	var authorized map[string]bool
	if cfg.AuthorizedKeysPath != "" {
		if authorized, err = LoadAuthorizedKeys(cfg.AuthorizedKeysPath); err != nil {
			return nil, err
		}
	}
	scrubServerEnv()

	s := &Server{
		cfg:        cfg,
		ssh:        sshConfig(hostKey, authorized),
		refusals:   newRefusals(cfg.Logger, cfg.RefusalSummary),
		tally:      newTally(cfg.MaxStartups, cfg.MaxStartupsPerAddress, cfg.MaxSessionsPerAddress, cfg.MaxPerAddress, cfg.MaxSessions),
		log:        cfg.Logger,
		key:        ssh.FingerprintSHA256(hostKey.PublicKey()),
		idle:       &ending{reason: "idle", message: fmt.Sprintf("no input for %v, disconnected", cfg.Idle)},
		expire:     &ending{reason: "max-time", message: fmt.Sprintf("session time limit (%v) reached", cfg.MaxTime)},
		listeners:  make(map[net.Listener]struct{}),
		webServers: make(map[*http.Server]struct{}),
		conns:      make(map[net.Conn]struct{}),
	}
	if cfg.PlayWeb != nil {
		if _, err := s.webHandler(); err != nil {
			return nil, err
		}
	}
	s.refusals.obs = cfg.Observer
	if cfg.FleetKey != nil {
		s.hop = hopConfig(cfg.FleetKey)
		s.hopLogins = newTally(Startups{maxHopLogins, 100, maxHopLogins}, maxHopLoginsPer, 0, 0, 0)
		s.hopRate = newLimiter[netip.Prefix](hopRate, hopBurst, maxTracked)
	}
	if cfg.ConnPerMinute > 0 {
		s.limit = newLimiter[netip.Prefix](float64(cfg.ConnPerMinute)/60, cfg.ConnBurst, maxTracked)
	}
	if cfg.PostsPerHour >= 0 {
		s.posts = newPostLimits(cmp.Or(cfg.PostsPerHour, defaultPostsPerHour), cmp.Or(max(cfg.PostBurst, 0), defaultPostBurst))
	}
	s.base, s.stopAll = context.WithCancelCause(context.Background())
	return s, nil
}

// permFingerprint is the Permissions extension that carries the key a
// player logged in with from authentication to the session.
const permFingerprint = "poolroids-fingerprint"

var errNotAuthorized = errors.New("key not in the authorized keys")

func sshConfig(hostKey ssh.Signer, authorized map[string]bool) *ssh.ServerConfig {
	withKey := func(key ssh.PublicKey) *ssh.Permissions {
		return &ssh.Permissions{Extensions: map[string]string{permFingerprint: ssh.FingerprintSHA256(key)}}
	}
	c := &ssh.ServerConfig{ServerVersion: "SSH-2.0-poolroids", Config: algorithms}
	c.AddHostKey(hostKey)
	if authorized == nil {
		// Open: any key (so the player's scores carry its fingerprint), or
		// keyboard-interactive with no questions for clients without one.
		// "none" is not offered, or OpenSSH would never present its key.
		c.PublicKeyCallback = func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			return withKey(key), nil
		}
		c.KeyboardInteractiveCallback = func(ssh.ConnMetadata, ssh.KeyboardInteractiveChallenge) (*ssh.Permissions, error) {
			return &ssh.Permissions{}, nil
		}
		return c
	}
	c.PublicKeyCallback = func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
		if !authorized[string(key.Marshal())] {
			return nil, errNotAuthorized
		}
		return withKey(key), nil
	}
	return c
}

// algorithms are what ssh-audit's hardening guide keeps of x/crypto/ssh's
// defaults, which offer NIST curves, SHA-1 and encrypt-and-MAC as well.
// Every OpenSSH since 7.4 shares some of each list. Curve25519 is also
// offered under its older name, curve25519-sha256@libssh.org.
var algorithms = ssh.Config{
	KeyExchanges: []string{ssh.KeyExchangeMLKEM768X25519, ssh.KeyExchangeCurve25519},
	Ciphers: []string{
		ssh.CipherChaCha20Poly1305, ssh.CipherAES256GCM, ssh.CipherAES128GCM,
		ssh.CipherAES256CTR, ssh.CipherAES192CTR, ssh.CipherAES128CTR,
	},
	MACs: []string{ssh.HMACSHA256ETM, ssh.HMACSHA512ETM},
}

// ListenAndServe listens on the TCP address addr and serves on it.
func (s *Server) ListenAndServe(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve accepts connections on ln until Shutdown, then returns
// ErrServerClosed, or until ln is closed otherwise. A failing Accept (out
// of file descriptors: a flood of idle connections to any listener of the
// process) is tried again, backing off up to a second at a time, and
// logged once while it lasts. Serve closes ln.
func (s *Server) Serve(ln net.Listener) error { return s.serve(ln, false) }

// serve is Serve, or ServeHop when hop is set.
func (s *Server) serve(ln net.Listener, hop bool) error {
	if !s.listen(ln) {
		return ErrServerClosed
	}
	defer s.unlisten(ln)
	if hop {
		s.log.Info("listening for the fleet", "addr", ln.Addr().String())
	} else {
		s.log.Info("listening", "addr", ln.Addr().String(), "host_key", s.key)
	}
	var failing backoff
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.shuttingDown() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Out of file descriptors, or memory, and the like: whatever
			// else fails, the listener is open, and what is short now is
			// given back as connections end.
			s.wait(failing.next(s.log, err))
			continue
		}
		failing.over(s.log)
		switch {
		case hop:
			s.acceptHop(nc)
		case s.cfg.ProxyFrom != nil:
			s.proxied(nc)
		default:
			s.accept(nc)
		}
	}
}

// listen counts ln among the listeners Drain and Shutdown close, unless
// either was called: then it closes ln and reports false.
func (s *Server) listen(ln net.Listener) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.draining {
		ln.Close()
		return false
	}
	s.listeners[ln] = struct{}{}
	return true
}

// unlisten closes ln, a listener that listen counted, and forgets it.
func (s *Server) unlisten(ln net.Listener) {
	s.mu.Lock()
	delete(s.listeners, ln)
	s.mu.Unlock()
	ln.Close()
}

// accept applies the connection limits to nc and serves it.
func (s *Server) accept(nc net.Conn) {
	if seat := s.admit(nc, key(nc.RemoteAddr())); seat != nil {
		s.accepted()
		accepted := time.Now()
		s.start(nc, seat, func() { s.serveConn(nc, seat, nil, accepted) })
	}
}

// admit counts nc, a new connection, as starting from k, if the rate
// limit and the starting connections' limits let it in, and returns its
// seat; else it closes nc and returns nil. The zero k is an address not
// known yet: only MaxStartups applies. The Observer is told of it once it
// is in (see accepted): a balancer's health check never is.
func (s *Server) admit(nc net.Conn, k netip.Prefix) *seat {
	reason := ""
	switch {
	case k.IsValid() && s.limit != nil && !s.limit.allow(k, time.Now()):
		reason = reasonRate
	default:
		reason = s.tally.admit(k)
	}
	if reason != "" {
		s.refusals.note(s.log, key(nc.RemoteAddr()), reason, "addr", nc.RemoteAddr().String())
		nc.Close()
		return nil
	}
	return &seat{t: s.tally, k: k}
}

// accepted tells the Observer of a connection let in.
func (s *Server) accepted() {
	if s.cfg.Observer != nil {
		s.cfg.Observer.Accepted()
	}
}

// start runs serve, which serves nc, on a goroutine counted among the
// connections Shutdown waits for, unless the server is shutting down:
// then nc is closed and seat given back.
func (s *Server) start(nc net.Conn, seat *seat, serve func()) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		seat.leave()
		nc.Close()
		return
	}
	s.conns[nc] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	go serve()
}

// untrack gives back what a connection started by start held.
func (s *Server) untrack(nc net.Conn, seat *seat) {
	nc.Close()
	seat.leave()
	s.mu.Lock()
	delete(s.conns, nc)
	s.mu.Unlock()
	s.wg.Done()
}

// handshake runs the SSH handshake and authentication on nc, which must end
// within LoginTimeout of its accept, or at once when the server shuts down: until it
// succeeds there is no session whose context Shutdown could cancel.
func (s *Server) handshake(nc net.Conn, config *ssh.ServerConfig, accepted time.Time) (*ssh.ServerConn, <-chan ssh.NewChannel, <-chan *ssh.Request, error) {
	_ = nc.SetDeadline(accepted.Add(s.cfg.LoginTimeout))
	stop := context.AfterFunc(s.base, func() { nc.Close() })
	var wire net.Conn = nc
	if s.cfg.Observer != nil {
		wire = counted{nc, s.cfg.Observer}
	}
	sc, chans, reqs, err := ssh.NewServerConn(wire, config)
	if !stop() && err == nil {
		// Shutdown came as the handshake ended: nc is closed, so is sc.
		return nil, nil, nil, ErrServerClosed
	}
	_ = nc.SetDeadline(time.Time{})
	// A relay's login is its player's, which the relaying server observed.
	if err == nil && s.cfg.Observer != nil && config != s.hop {
		s.cfg.Observer.LoggedIn(time.Since(accepted))
	}
	return sc, chans, reqs, err
}

// backoff is how long the accept loop waits after each of a run of failed
// Accepts, doubling from 5 ms to a second, as net/http's does.
type backoff struct {
	delay time.Duration
	since time.Time
	n     int
}

// next returns the wait after one more failure, err, and logs the first.
func (b *backoff) next(log *slog.Logger, err error) time.Duration {
	if b.n == 0 {
		b.since = time.Now()
		log.Error("accept failing: backing off", "err", err)
	}
	b.n++
	b.delay = min(max(2*b.delay, 5*time.Millisecond), time.Second)
	return b.delay
}

// over ends a run of failures, if there was one.
func (b *backoff) over(log *slog.Logger) {
	if b.n > 0 {
		log.Info("accepting again", "failures", b.n, "after", time.Since(b.since).Round(time.Millisecond))
		*b = backoff{}
	}
}

// wait waits d, or less if the server shuts down meanwhile.
func (s *Server) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.base.Done():
	}
}

func (s *Server) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing || s.draining
}

// Drain stops accepting: it closes the listeners, players' and the hop's,
// and Serve and ServeHop return ErrServerClosed, while the connections
// being served go on. Shutdown ends them.
func (s *Server) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draining = true
	for ln := range s.listeners {
		ln.Close()
	}
}

// Shutdown stops accepting, tells every player "server shutting down" and
// ends their games, then waits for every connection to close. If ctx ends
// first, the remaining connections are cut and ctx's error is returned.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	for ln := range s.listeners {
		ln.Close()
	}
	s.mu.Unlock()
	s.stopAll(endShutdown)

	done := make(chan struct{})
	go func() {
		_ = s.shutdownWeb(ctx)
		s.wg.Wait()
		close(done)
	}()
	defer s.refusals.stop()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		for nc := range s.conns {
			nc.Close()
		}
		s.mu.Unlock()
		return ctx.Err()
	}
}

// Sessions returns how many sessions are running, in the lobby, watching
// or playing, relayed ones included (what MaxSessions bounds).
func (s *Server) Sessions() int { return s.tally.count() }

// Relays returns how many of the sessions running are relayed here by
// other servers of the fleet (see ServeHop), and how many were in all:
// those players are connected to the others, which count them among their
// sessions.
func (s *Server) Relays() (now int, total uint64) {
	return int(s.relays.Load()), s.relayed.Load()
}
