package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/game"
	"poolroids/game/hub"
	gameplay "poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/serve/metrics"
	"poolroids/ui/serve/route"
)

// shutdownWait is how long a SIGINT or SIGTERM waits for the players to be
// told and their sessions to close, inside the five seconds a service
// manager typically allows.
const shutdownWait = 4 * time.Second

// dbWait is how long a server waits at start for its score database.
const dbWait = 10 * time.Second

// runServe is `poolroids serve`: an SSH server on which every connection
// plays its own game. Exit status: 0 after a clean shutdown, 1 when the
// server cannot start, 2 for bad flags.
func runServe(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveMain(ctx, args, os.Stderr)
}

// serveMain is runServe with its context and log stream given, for tests.
func serveMain(ctx context.Context, args []string, stderr io.Writer) int {
	fs := newFlagSet("poolroids serve", "usage: poolroids serve [flags]\n\n"+
		"Serves the game over SSH: a lobby, solo games, shared arenas and watching.", stderr)
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
	scorePath := addScoresFlag(fs, ", or a PostgreSQL URL postgres://… that many servers may share", "the config dir's poolroids/serve-scores.json")
	strategy := addStrategyFlag(fs, "pool strategy `NAME` every game starts with", false)
	g := addGameFlags(fs, "serve")
	fps := addFPSFlag(fs, " (each costs bandwidth)")
	arenaSize := fs.Int("arena-size", hub.DefaultSize, fmt.Sprintf("`N` ships in an arena (ssh -t host join NAME), 1..%d", game.MaxShips))
	maxArenas := fs.Int("max-arenas", hub.DefaultMaxArenas, "`N` arenas open at once")
	maxArenasPer := fs.Int("max-arenas-per-address", hub.DefaultMaxArenasPer, "`N` arenas open at once that players from one address opened")
	watchers := fs.Int("watchers", gameplay.DefaultWatchers, "`N` watchers of live games at once (ssh -t host watch NAME); one more is told why")
	watchersPerGame := fs.Int("watchers-per-game", gameplay.DefaultWatchersPerGame, "`N` watchers of one game at once")
	watchable := fs.Bool("watchable", true, "solo games start open to watchers (a player hides theirs with o)")
	metricsAddr := fs.String("metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics, a listener apart from the SSH port (default: none)")
	withPprof := fs.Bool("pprof", false, "serve net/http/pprof under /debug/pprof/ on the -metrics listener")
	proxyFrom := fs.String("proxy-protocol-from", "", "load balancers' `CIDR[,CIDR…]` whose connections must open with a PROXY protocol header (v1 or v2) giving the client's address; a header from elsewhere is refused")
	hop := fs.String("hop", "", "join a fleet: serve the other servers' relays at `ADDR`, the address they dial (needs -scores postgres://… and -fleet-key)")
	fleetKey := fs.String("fleet-key", "", "the fleet's key `PATH`, one file every server of the fleet shares (created on first start if missing)")
	if code, done := parseFlags(fs, args, stderr); done {
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
	}
	switch {
	case *withPprof && *metricsAddr == "":
		return bad("-pprof needs -metrics ADDR")
	case *metricsAddr != "" && *metricsAddr == *listen:
		return bad("-metrics %s: the SSH port; give the metrics a listener of their own", *metricsAddr)
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
	fail := func(err error) int {
		log.Error("cannot start", "err", err)
		return 1
	}
	store, err := openServeScores(ctx, *scorePath)
	if store == nil || errors.Is(err, scores.ErrNotFile) {
		return fail(err)
	}
	defer store.Close()
	if err != nil {
		// A bad file was set aside: the server goes on with a fresh table.
		log.Warn("high scores", "err", err)
	}
	store.SetLogger(log)
	opts.Scores = store
	opts.Hidden = !*watchable
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
		if key, err = serve.LoadFleetKey(*fleetKey, log); err != nil {
			return fail(err)
		}
		// Listening before the directory lists this server: the others
		// may relay to it as soon as it does.
		if hopLn, err = net.Listen("tcp", *hop); err != nil {
			return fail(fmt.Errorf("-hop: %w", err))
		}
		defer hopLn.Close()
		dctx, cancel := context.WithTimeout(ctx, dbWait)
		err = rt.JoinFleet(dctx, route.Fleet{URL: *scorePath, Hop: *hop, Key: key})
		cancel()
		if err != nil {
			return fail(err)
		}
	}

	rate := *connRate
	if rate == 0 {
		rate = -1
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
	}
	if m != nil { // a nil *Metrics would make a non-nil Observer
		cfg.Observer = m
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return fail(err)
	}
	if m != nil {
		m.Sessions(srv.Sessions, *maxSessions)
		stop, err := serveMetrics(*metricsAddr, m.Handler(*withPprof), log)
		if err != nil {
			return fail(err)
		}
		defer stop()
	}

	served := make(chan error, 2)
	go func() { served <- srv.ListenAndServe(*listen) }()
	if hopLn != nil {
		go func() { served <- srv.ServeHop(hopLn) }()
	}
	select {
	case err := <-served:
		return fail(err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	rt.LeaveFleet() // out of every lobby first
	sctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("sessions cut at shutdown", "err", err)
	}
	<-served
	if hopLn != nil {
		<-served
	}
	return 0
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

// openServeScores opens the server's high-score table: a PostgreSQL
// database, or its own file, apart from local play's, with every player
// known by their name and key (see scores.Store.For). The store is nil when the database cannot
// be reached, or there is no config directory to put the file in.
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

// serveMetrics serves h on a listener of its own at addr until stop is
// called. The listener is open when it returns, so that a bad address
// stops the server at start.
func serveMetrics(addr string, h http.Handler, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Info("metrics", "addr", "http://"+ln.Addr().String()+"/metrics")
	go func() { _ = hs.Serve(ln) }()
	return func() { _ = hs.Close() }, nil
}
