package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/pool"
	"poolroids/ui"
	"poolroids/ui/scores"
	"poolroids/ui/serve"
)

// shutdownWait is how long a SIGINT or SIGTERM waits for the players to be
// told and their sessions to close, inside the five seconds a service
// manager typically allows.
const shutdownWait = 4 * time.Second

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
	maxSessions := fs.Int("max-sessions", 32, "`N` games at once; one more player is told the server is full")
	maxPerAddr := fs.Int("max-per-address", 4, "`N` games at once from one address (an IPv6 /64)")
	maxStartupsPer := fs.Int("max-startups-per-address", 4, "`N` connections not yet playing from one address")
	maxStartups := fs.String("max-startups", "10:30:100", "connections not yet playing, as sshd's `start:rate:full`: from start on, drop new ones with rate% chance, rising to 100% at full")
	idle := fs.Duration("idle", 10*time.Minute, "end a game after this long without input from the player")
	maxTime := fs.Duration("max-time", 2*time.Hour, "end a game after this long in any case")
	connRate := fs.Int("conn-rate", 30, "`N` connections a minute one address may open, after a burst of 10; 0: no limit")
	scorePath := addScoresFlag(fs, "the config dir's poolroids/serve-scores.json")
	strategy := fs.String("strategy", "", "pool strategy `NAME` every game starts with: "+pool.StrategyNames()+" (default: the level set's)")
	g := addGameFlags(fs, "serve")
	fps := fs.Int("fps", 30, "`N` screen redraws per second, 1..240 (each costs bandwidth)")
	arenaSize := fs.Int("arena-size", hub.DefaultSize, fmt.Sprintf("`N` ships in an arena (ssh -t host join NAME), 1..%d", game.MaxShips))
	watchers := fs.Int("watchers", hub.DefaultWatchers, "`N` watchers of live games at once (ssh -t host watch NAME); one more is told why")
	watchersPerGame := fs.Int("watchers-per-game", hub.DefaultWatchersPerGame, "`N` watchers of one game at once")
	watchable := fs.Bool("watchable", true, "solo games start open to watchers (a player hides theirs with o)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	switch {
	case *maxSessions < 1:
		return bad("-max-sessions %d: want at least 1", *maxSessions)
	case *maxPerAddr < 1:
		return bad("-max-per-address %d: want at least 1", *maxPerAddr)
	case *maxStartupsPer < 1:
		return bad("-max-startups-per-address %d: want at least 1", *maxStartupsPer)
	case *idle <= 0 || *maxTime <= 0:
		return bad("-idle and -max-time must be positive")
	case *connRate < 0:
		return bad("-conn-rate %d: want 0 or more", *connRate)
	case *fps < 1 || *fps > 240:
		return bad("-fps %d: want 1..240", *fps)
	case *arenaSize < 1 || *arenaSize > game.MaxShips:
		return bad("-arena-size %d: want 1..%d", *arenaSize, game.MaxShips)
	case *watchers < 1:
		return bad("-watchers %d: want at least 1", *watchers)
	case *watchersPerGame < 1:
		return bad("-watchers-per-game %d: want at least 1", *watchersPerGame)
	}
	startups, err := serve.ParseStartups(*maxStartups)
	if err != nil {
		return bad("-max-startups: %v", err)
	}
	set, err := g.load()
	if err != nil {
		return bad("%v", err)
	}
	opts := ui.Options{FPS: *fps, Levels: set, Bullets: *g.bullets, Debris: *g.debris}
	if *strategy != "" {
		s, err := pool.ParseStrategy(*strategy)
		if err != nil {
			return bad("-strategy: %v", err)
		}
		opts.Strategy = s
	}

	log := slog.New(slog.NewTextHandler(stderr, nil))
	fail := func(err error) int {
		log.Error("cannot start", "err", err)
		return 1
	}
	store, err := openServeScores(*scorePath)
	if store == nil || errors.Is(err, scores.ErrNotFile) {
		return fail(err)
	}
	if err != nil {
		// A bad file was set aside: the server goes on with a fresh table.
		log.Warn("high scores", "err", err)
	}
	store.SetLogger(log)
	opts.Scores = store
	arenas, err := newArenas(opts, *arenaSize)
	if err != nil {
		return bad("%v", err)
	}
	defer arenas.Close()
	if opts.Live, err = newLive(arenas, *watchersPerGame, *watchers); err != nil {
		return bad("%v", err)
	}
	opts.Hidden = !*watchable

	rate := *connRate
	if rate == 0 {
		rate = -1
	}
	srv, err := serve.New(serve.Config{
		HostKeyPath:           *hostKey,
		AuthorizedKeysPath:    *authorized,
		MaxSessions:           *maxSessions,
		MaxPerAddress:         *maxPerAddr,
		MaxStartups:           startups,
		MaxStartupsPerAddress: *maxStartupsPer,
		Idle:                  *idle,
		MaxTime:               *maxTime,
		ConnPerMinute:         rate,
		Logger:                log,
		Play:                  servePlay(arenas, opts),
	})
	if err != nil {
		return fail(err)
	}

	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe(*listen) }()
	select {
	case err := <-served:
		return fail(err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("sessions cut at shutdown", "err", err)
	}
	<-served
	return 0
}

// openServeScores opens the server's high-score table: its own file, apart
// from local play's, with every player named by serve.Session.Player. The
// store is nil only when there is no config directory to put it in.
func openServeScores(path string) (*scores.Store, error) {
	if path == "" {
		local, err := scores.DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("no place for the high scores (use -scores): %w", err)
		}
		path = filepath.Join(filepath.Dir(local), "serve-scores.json")
	}
	return scores.Open(path)
}
