package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/hub"
	gameplay "poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/serve/fleet"
	"poolroids/ui/serve/metrics"
	"poolroids/ui/serve/route"
)

// shutdownWait is how long the end of a drain waits for the players to be
// told and their sessions to close.
const shutdownWait = 4 * time.Second

// dbWait is how long a server waits at start for its score database.
const dbWait = 10 * time.Second

// pprofDefault is where --pprof alone serves the profiles.
const pprofDefault = "127.0.0.1:6060"

// runServe is `poolroids serve`: an SSH server on which every connection
// plays its own game. The first SIGINT or SIGTERM drains it, the second
// ends it at once. Exit status: 0 after a clean shutdown, 1 when the
// server cannot start or a second signal cut the drain, 2 for bad flags.
func runServe(args []string) int {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	drain, startDrain := context.WithCancel(context.Background())
	now, stopNow := context.WithCancel(context.Background())
	defer stopNow()
	go func() {
		<-signals
		startDrain()
		<-signals
		stopNow()
	}()
	return serveMain(drain, now, args, os.Stderr)
}

// serveMain is runServe with its log stream given, for tests: drain is
// done at the first signal, now at the second.
func serveMain(drain, now context.Context, args []string, stderr io.Writer) int {
	fs := newFlagSet("poolroids serve", "usage: poolroids serve [flags]\n\n"+
		"Serves the game over SSH (and to browsers with -web): a lobby, solo games,\nshared arenas and watching, "+
		"and the daily game's board: ssh host post < game.prpl, ssh host scores daily.\n"+
		"SIGTERM or SIGINT drains it (see -drain); a second one ends it at once.", stderr)
	listen := fs.String("listen", "127.0.0.1:2222", "`ADDR` to listen on; 0.0.0.0:2222 opens it to the network")
	hostKey := fs.String("host-key", "", "host key `PATH`, created on first start (default: the config dir's poolroids/ssh_host_ed25519_key)")
	authorized := fs.String("authorized-keys", "", "only the public keys in this authorized_keys `PATH` may play (default: anyone)")
	maxSessions := fs.Int("max-sessions", 32, "`N` sessions at once (in the lobby, watching or playing); one more player is told the server is full")
	maxPerAddr := fs.Int("max-per-address", 4, "`N` games at once from one address (an IPv6 /64); the lobby, watching and replays are no games")
	maxSessionsPer := fs.Int("max-sessions-per-address", 0, "`N` sessions at once from one address (default twice -max-per-address)")
	maxStartupsPer := fs.Int("max-startups-per-address", 4, "`N` connections not yet playing from one address")
	maxStartups := fs.String("max-startups", "10:30:100", "connections not yet playing, as sshd's `start:rate:full`: from start on, drop new ones with rate% chance, rising to 100% at full")
	idle := fs.Duration("idle", 10*time.Minute, "end a game after this long without input from the player")
	maxTime := fs.Duration("max-time", 2*time.Hour, "end a game after this long in any case")
	connRate := fs.Int("conn-rate", 30, "`N` connections a minute one address may open, after a burst of 10; 0: no limit")
	postRate := fs.Int("post-rate", 12, "`N` daily games an hour one key may post (ssh host post < game.prpl), after a burst of 4; one address twice as many; 0: no limit")
	proofs := fs.Int("proofs", max(1, runtime.GOMAXPROCS(0)/2), "`N` posted daily games proven at once, each a re-play on one core; 16 more wait, then are refused as busy")
	scorePath := addScoresFlag(fs, ", or a PostgreSQL URL postgres://… that many servers may share (its password in PGPASSWORD, a PGPASSFILE or "+envName("scores")+", never on the command line)", "the config dir's poolroids/serve-scores.json")
	queueDir := fs.String("scores-queue", "", "with -scores postgres://…, the `DIR` where saves wait while the database is away (default: the config dir's poolroids/scores-queue)")
	strategy := addStrategyFlag(fs, "pool strategy `NAME` every game starts with", false)
	g := addGameFlags(fs, "serve")
	fps := addFPSFlag(fs, " (each costs bandwidth)")
	arenaSize := fs.Int("arena-size", hub.DefaultSize, fmt.Sprintf("`N` ships in an arena (ssh -t host join NAME), 1..%d", game.MaxShips))
	maxArenas := fs.Int("max-arenas", hub.DefaultMaxArenas, "`N` arenas open at once")
	maxArenasPer := fs.Int("max-arenas-per-address", hub.DefaultMaxArenasPer, "`N` arenas open at once that players from one address opened")
	watchers := fs.Int("watchers", gameplay.DefaultWatchers, "`N` watchers of live games at once (ssh -t host watch NAME); one more is told why")
	watchersPerGame := fs.Int("watchers-per-game", gameplay.DefaultWatchersPerGame, "`N` watchers of one game at once")
	watchable := fs.Bool("watchable", true, "solo games start open to watchers (a player hides theirs with o)")
	webAddr := fs.String("web", "", "serve the game to browsers at http://`ADDR`/ (e.g. 127.0.0.1:8080), beside SSH, with its limits; TLS is a balancer's (see -proxy-protocol-from) (default: none)")
	metricsAddr := fs.String("metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics, and /healthz and /readyz, a listener apart from the SSH port (default: none)")
	pprofAddr := &addrFlag{def: pprofDefault}
	fs.Var(pprofAddr, "pprof", "serve net/http/pprof's profiles at http://`ADDR`/debug/pprof/ (-pprof=ADDR), a listener of their own; -pprof alone, as when it took no address: "+pprofDefault+"; beyond loopback, whoever reaches it may profile the server")
	proxyFrom := fs.String("proxy-protocol-from", "", "load balancers' `CIDR[,CIDR…]` whose connections must open with a PROXY protocol header (v1 or v2) giving the client's address; a header from elsewhere is refused")
	hop := fs.String("hop", "", "join a fleet: serve the other servers' relays at `ADDR`, the address they dial (needs -scores postgres://… and -fleet-key)")
	fleetKey := fs.String("fleet-key", "", "the fleet's key `PATH`, one file every server of the fleet shares (created on first start if missing)")
	drainFor := fs.Duration("drain", 60*time.Second, "at SIGTERM, how long the players have: the server stops taking sessions, leaves the fleet, tells each player, and ends the games left then, saving them; 0: at once")
	logFormat := fs.String("log-format", "text", "the log's `FORMAT`: text (key=value lines) or json (a JSON object a line)")
	fromEnv, code, done := parseFlags(fs, args, stderr)
	if done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	if err := checkFPS(*fps); err != nil {
		return bad("%v", err)
	}
	switch {
	case *maxSessions < 1:
		return bad("-max-sessions %d: want at least 1", *maxSessions)
	case *maxPerAddr < 1:
		return bad("-max-per-address %d: want at least 1", *maxPerAddr)
	case *maxSessionsPer < 0:
		return bad("-max-sessions-per-address %d: want at least 1", *maxSessionsPer)
	case *maxStartupsPer < 1:
		return bad("-max-startups-per-address %d: want at least 1", *maxStartupsPer)
	case *idle <= 0 || *maxTime <= 0:
		return bad("-idle and -max-time must be positive")
	case *connRate < 0:
		return bad("-conn-rate %d: want 0 or more", *connRate)
	case *postRate < 0:
		return bad("-post-rate %d: want 0 or more", *postRate)
	case *proofs < 1:
		return bad("-proofs %d: want at least 1", *proofs)
	case *arenaSize < 1 || *arenaSize > game.MaxShips:
		return bad("-arena-size %d: want 1..%d", *arenaSize, game.MaxShips)
	case *maxArenas < 1:
		return bad("-max-arenas %d: want at least 1", *maxArenas)
	case *maxArenasPer < 1:
		return bad("-max-arenas-per-address %d: want at least 1", *maxArenasPer)
	case *watchers < 1:
		return bad("-watchers %d: want at least 1", *watchers)
	case *watchersPerGame < 1:
		return bad("-watchers-per-game %d: want at least 1", *watchersPerGame)
	case *drainFor < 0:
		return bad("-drain %v: want 0 or more", *drainFor)
	case *logFormat != "text" && *logFormat != "json":
		return bad("-log-format %q: want text or json", *logFormat)
	}
	switch {
	case *metricsAddr != "" && *metricsAddr == *listen:
		return bad("-metrics %s: the SSH port; give the metrics a listener of their own", *metricsAddr)
	case pprofAddr.addr != "" && (pprofAddr.addr == *listen || pprofAddr.addr == *metricsAddr):
		return bad("-pprof %s: give the profiles a listener of their own", pprofAddr.addr)
	case *webAddr != "" && (*webAddr == *listen || *webAddr == *metricsAddr || *webAddr == pprofAddr.addr || *webAddr == *hop):
		return bad("-web %s: give the browsers a listener of their own", *webAddr)
	}
	if *webAddr != "" {
		if _, _, err := net.SplitHostPort(*webAddr); err != nil {
			return bad("-web %s: want host:port: %v", *webAddr, err)
		}
	}
	if *hop != "" || *fleetKey != "" {
		if err := checkFleet(*hop, *fleetKey, *scorePath, *listen); err != nil {
			return bad("%v", err)
		}
	}
	startups, err := serve.ParseStartups(*maxStartups)
	if err != nil {
		return bad("-max-startups: %v", err)
	}
	var balancers []netip.Prefix
	if *proxyFrom != "" {
		if balancers, err = serve.ParsePrefixes(*proxyFrom); err != nil {
			return bad("-proxy-protocol-from: %v", err)
		}
	}
	set, err := g.load()
	if err != nil {
		return bad("%v", err)
	}
	opts := ui.Options{FPS: *fps, Levels: set, Strategy: strategy.s, Bullets: *g.bullets, Debris: *g.debris}

	log := slog.New(slog.NewTextHandler(stderr, nil))
	if *logFormat == "json" {
		log = slog.New(slog.NewJSONHandler(stderr, nil))
	}
	fail := func(err error) int {
		log.Error("cannot start", "err", err)
		return 1
	}
	if len(fromEnv) > 0 {
		log.Info("flags from the environment", "flags", strings.Join(fromEnv, ","))
	}
	// A password on the command line is anyone's: ps shows it, and so
	// would pprof's cmdline.
	secretArgs := isPostgres(*scorePath) && !slices.Contains(fromEnv, "scores") && urlPassword(*scorePath)
	if secretArgs {
		log.Warn("the score database's password is on the command line, where every user of the host reads it (ps): give it in PGPASSWORD or a PGPASSFILE, or the URL in " + envName("scores"))
	}
	store, err := openServeScores(now, *scorePath)
	if store == nil || errors.Is(err, scores.ErrNotFile) {
		return fail(err)
	}
	defer store.Close()
	if err != nil {
		// A bad file was set aside: the server goes on with a fresh table.
		log.Warn("high scores", "err", err)
	}
	store.SetLogger(log)
	if isPostgres(*scorePath) {
		dir, err := scoresQueue(*queueDir)
		if err == nil {
			err = store.SetQueue(dir)
		}
		if err != nil {
			return fail(err)
		}
	}
	var notice atomic.Pointer[string] // the drain's, to every player
	opts.Scores = store
	opts.Hidden = !*watchable
	opts.Notice = func() string {
		if n := notice.Load(); n != nil {
			return *n
		}
		return ""
	}
	var m *metrics.Metrics
	if *metricsAddr != "" {
		m = metrics.New()
		opts.Frame = m.Frame
	}
	rt, err := route.New(route.Config{
		Game:            opts,
		Arenas:          hub.Config{Size: *arenaSize, MaxArenas: *maxArenas, MaxArenasPer: *maxArenasPer},
		Watchers:        *watchers,
		WatchersPerGame: *watchersPerGame,
		Proofs:          daily.NewGate(*proofs, 16),
		Logger:          log,
	})
	if err != nil {
		return bad("%v", err)
	}
	defer rt.Close()
	if m != nil {
		m.Games(rt.Live())
	}
	var hopLn net.Listener
	var key ssh.Signer
	if *hop != "" {
		if key, err = loadFleetKey(*fleetKey, log); err != nil {
			return fail(err)
		}
		// Listening before the directory lists this server: the others
		// may relay to it as soon as it does.
		if hopLn, err = net.Listen("tcp", *hop); err != nil {
			return fail(fmt.Errorf("-hop: %w", err))
		}
		defer hopLn.Close()
		dctx, cancel := context.WithTimeout(now, dbWait)
		err = rt.JoinFleet(dctx, route.Fleet{URL: *scorePath, Hop: *hop, Key: key})
		cancel()
		if errors.Is(err, fleet.ErrKeyMismatch) {
			return fail(fmt.Errorf("%w: every server of a fleet needs the same -fleet-key file", err))
		}
		if err != nil {
			return fail(err)
		}
	}

	rate, posts := *connRate, *postRate
	if rate == 0 {
		rate = -1
	}
	if posts == 0 {
		posts = -1
	}
	cfg := serve.Config{
		HostKeyPath:           *hostKey,
		AuthorizedKeysPath:    *authorized,
		MaxSessions:           *maxSessions,
		MaxPerAddress:         *maxPerAddr,
		MaxSessionsPerAddress: *maxSessionsPer,
		MaxStartups:           startups,
		MaxStartupsPerAddress: *maxStartupsPer,
		Idle:                  *idle,
		MaxTime:               *maxTime,
		ConnPerMinute:         rate,
		ProxyFrom:             balancers,
		Logger:                log,
		FleetKey:              key,
		Play:                  rt.Play,
		Exec:                  rt.Exec,
		PostsPerHour:          posts,
	}
	if *webAddr != "" || *hop != "" {
		// A fleet's member plays the browsers the others relay to it,
		// with no listener of its own for browsers.
		cfg.PlayWeb, cfg.WebPages = rt.PlayWeb, rt.WebPages()
	}
	if m != nil { // a nil *Metrics would make a non-nil Observer
		cfg.Observer = m
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail(err)
	}
	var webLn net.Listener
	if *webAddr != "" {
		if webLn, err = net.Listen("tcp", *webAddr); err != nil {
			ln.Close()
			return fail(fmt.Errorf("-web: %w", err))
		}
	}
	var draining atomic.Bool
	if m != nil {
		wire(m, srv, rt, store, isPostgres(*scorePath), *maxSessions, &draining)
		stop, err := serveHTTP("metrics", *metricsAddr, m.Handler(false), log)
		if err != nil {
			ln.Close()
			closeListener(webLn)
			return fail(err)
		}
		defer stop()
	}
	if pprofAddr.addr != "" {
		if !loopback(pprofAddr.addr) {
			log.Warn("pprof listens beyond loopback: whoever reaches it may profile this server", "addr", pprofAddr.addr)
		}
		stop, err := serveHTTP("pprof", pprofAddr.addr, metrics.Pprof(!secretArgs), log)
		if err != nil {
			ln.Close()
			closeListener(webLn)
			return fail(err)
		}
		defer stop()
	}

	served := make(chan error, 3)
	go func() { served <- srv.Serve(ln) }()
	if hopLn != nil {
		go func() { served <- srv.ServeHop(hopLn) }()
	}
	if webLn != nil {
		go func() { served <- srv.ServeWeb(webLn) }()
	}
	select {
	case err := <-served:
		return fail(err)
	case <-drain.Done():
	}
	draining.Store(true)
	code = drainServer(now, srv, rt, *drainFor, &notice, log)
	<-served
	if hopLn != nil {
		<-served
	}
	if webLn != nil {
		<-served
	}
	if code == 0 {
		rt.Close() // every arena ends, its players' games saved
		store.Close()
		log.Info("stopped")
	}
	return code
}

// drainServer drains srv when the first signal has come: it takes no new
// session and leaves the fleet, then tells every player how long they
// have, every second, until they have all left or the time is up, and
// ends the games left, each saved as a game the player left. A second
// signal (now) ends it at once: it returns 1.
func drainServer(now context.Context, srv *serve.Server, rt *route.Router, d time.Duration, notice *atomic.Pointer[string], log *slog.Logger) int {
	log.Info("draining", "for", d, "sessions", srv.Sessions())
	srv.Drain()
	rt.LeaveFleet() // out of every lobby first
	deadline := time.Now().Add(d)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	code := 0
	for left := time.Until(deadline); left > 0 && srv.Sessions() > 0 && code == 0; left = time.Until(deadline) {
		text := fmt.Sprintf("server stopping in %d s: games left then are saved", int((left + time.Second/2).Seconds()))
		notice.Store(&text)
		select {
		case <-now.Done():
			code = 1
		case <-tick.C:
		}
	}
	sctx, cancel := context.WithTimeout(now, shutdownWait)
	defer cancel()
	if code == 1 {
		log.Warn("second signal: stopping at once")
		cancel()
	}
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("sessions cut at shutdown", "err", err)
	}
	return code
}

// wire exports the server's figures as m's metrics (the store's with a
// database, db), and its readiness: listening (not draining), its store's
// database and its fleet's directory reachable.
func wire(m *metrics.Metrics, srv *serve.Server, rt *route.Router, store *scores.Store, db bool, maxSessions int, draining *atomic.Bool) {
	// Each player counts once in a fleet: where they connected.
	m.Sessions(func() int { in, _ := srv.Relays(); return srv.Sessions() - in }, maxSessions)
	m.WebSessions(srv.WebSessions)
	if db {
		m.Store(store.Stats)
	}
	if _, ok := rt.FleetStats(); ok {
		m.Fleet(func() metrics.FleetStats {
			f, _ := rt.FleetStats()
			in, relayed := srv.Relays()
			return metrics.FleetStats{
				DirectoryUp: !f.Down, DirectoryFailures: f.Failures, Members: f.Members, Rooms: f.Rooms,
				RelaysIn: in, RelaysOut: f.RelaysOut, RelayedIn: relayed, RelayedOut: f.RelayedOut,
			}
		})
	}
	m.Ready(func() []string {
		var not []string
		if draining.Load() {
			not = append(not, "draining: taking no new sessions")
		}
		if st := store.Stats(); st.Down {
			not = append(not, fmt.Sprintf("score database unreachable (%d saves queued)", st.Queued))
		}
		if f, ok := rt.FleetStats(); ok && f.Down {
			not = append(not, "fleet directory unreachable")
		}
		return not
	})
}

// closeListener closes ln, if any.
func closeListener(ln net.Listener) {
	if ln != nil {
		ln.Close()
	}
}

// loadFleetKey loads the fleet's key at path, or creates it, saying so:
// a key made by mistake on one server would split the fleet.
func loadFleetKey(path string, log *slog.Logger) (ssh.Signer, error) {
	_, err := os.Stat(path)
	created := errors.Is(err, fs.ErrNotExist)
	key, err := serve.LoadFleetKey(path, log)
	if err != nil {
		return nil, fmt.Errorf("-fleet-key: %w", err)
	}
	if created {
		log.Warn("fleet key created: copy this file to every other server of the fleet", "path", path, "fingerprint", ssh.FingerprintSHA256(key.PublicKey()))
	}
	return key, nil
}

// loopback reports whether the listener address addr is the host's own
// only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if host == "localhost" {
		return true
	}
	ip, perr := netip.ParseAddr(host)
	return err == nil && perr == nil && ip.IsLoopback()
}

// addrFlag is a flag that takes an address, or nothing: alone it means
// def (-pprof is -pprof=127.0.0.1:6060), as when it was a bool; false, or
// no flag, is none.
type addrFlag struct {
	addr, def string
}

func (f *addrFlag) IsBoolFlag() bool { return true }

func (f *addrFlag) String() string {
	if f == nil {
		return ""
	}
	return f.addr
}

func (f *addrFlag) Set(v string) error {
	switch v {
	case "true":
		f.addr = f.def
	case "false":
		f.addr = ""
	default:
		if _, _, err := net.SplitHostPort(v); err != nil {
			return fmt.Errorf("want host:port, or nothing for %s: %w", f.def, err)
		}
		f.addr = v
	}
	return nil
}

// checkFleet checks the fleet's flags: -hop and -fleet-key go together,
// with a database to share, and -hop is an address the others can dial.
func checkFleet(hop, key, scores, listen string) error {
	switch {
	case hop == "" || key == "":
		return errors.New("-hop and -fleet-key go together")
	case !isPostgres(scores):
		return errors.New("-hop: a fleet shares its directory in PostgreSQL: give -scores postgres://…")
	case hop == listen:
		return fmt.Errorf("-hop %s: the SSH port; the fleet's relays need a listener of their own", hop)
	}
	host, _, err := net.SplitHostPort(hop)
	if err != nil {
		return fmt.Errorf("-hop: %w", err)
	}
	if ip, err := netip.ParseAddr(host); host == "" || (err == nil && ip.IsUnspecified()) {
		return fmt.Errorf("-hop %s: give the address the other servers dial, not a wildcard", hop)
	}
	return nil
}

// isPostgres reports whether -scores names a PostgreSQL database.
func isPostgres(scores string) bool {
	return strings.HasPrefix(scores, "postgres://") || strings.HasPrefix(scores, "postgresql://")
}

// urlPassword reports whether the PostgreSQL URL u carries a password.
func urlPassword(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	_, inUser := p.User.Password()
	return inUser || p.Query().Has("password")
}

// scoresQueue returns the directory of the saves waiting for the score
// database: dir, or by default the config directory's
// poolroids/scores-queue.
func scoresQueue(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	local, err := scores.DefaultPath()
	if err != nil {
		return "", fmt.Errorf("no place for the queue of high scores (use -scores-queue): %w", err)
	}
	return filepath.Join(filepath.Dir(local), "scores-queue"), nil
}

// openServeScores opens the server's high-score table: a PostgreSQL
// database, or its own file, apart from local play's, with every player
// known by their name and key (see scores.Store.For). The store is nil
// when the database cannot be reached, or there is no config directory to
// put the file in.
func openServeScores(ctx context.Context, path string) (*scores.Store, error) {
	if isPostgres(path) {
		ctx, cancel := context.WithTimeout(ctx, dbWait)
		defer cancel()
		return scores.OpenPostgres(ctx, path)
	}
	if path == "" {
		local, err := scores.DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("no place for the high scores (use -scores): %w", err)
		}
		path = filepath.Join(filepath.Dir(local), "serve-scores.json")
	}
	return scores.Open(path)
}

// httpIdle is how long a metrics or pprof connection may wait between
// two requests: a scraper's next comes within its interval, and an idle
// connection kept for ever holds a file descriptor the players need.
var httpIdle = time.Minute

// serveHTTP serves h on a listener of its own at addr until stop is
// called; what names it in the log. The listener is open when it returns,
// so that a bad address stops the server at start.
func serveHTTP(what, addr string, h http.Handler, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: httpIdle}
	log.Info(what, "addr", "http://"+ln.Addr().String())
	go func() { _ = hs.Serve(ln) }()
	return func() { _ = hs.Close() }, nil
}
