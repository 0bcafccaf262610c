package route

import (
	"context"
	"log/slog"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"

	"poolroids/game/hub"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/serve/fleet"
)

// Config is what a server offers its players.
type Config struct {
	// Game is every game's options: the level set, capacities and
	// strategy, FPS, high scores, frame observer, and Hidden. What is a
	// session's own (seed, ASCII, keys, names, its arena, watching) is set
	// for each; Live is the Router's.
	Game ui.Options
	// Arenas sizes and bounds the arenas; their game is Game's.
	Arenas hub.Config
	// Watchers bounds the watchers of the live games in all,
	// WatchersPerGame those of one game (0: hub's defaults).
	Watchers, WatchersPerGame int
	// Logger receives the fleet's warnings (nil: slog.Default()).
	Logger *slog.Logger
}

// Router is one server's arenas and live games, and the route each of its
// sessions takes to them. Make one with [New], serve [Router.Play], and
// [Router.Close] it after the server.
type Router struct {
	hub   *hub.Hub
	live  *hub.Live
	game  ui.Options
	log   *slog.Logger
	fleet *member // nil: alone
}

// New makes a server's arenas and registry of live games. Its error says
// what in cfg is wrong.
func New(cfg Config) (*Router, error) {
	r := &Router{game: cfg.Game, log: cfg.Logger}
	if r.log == nil {
		r.log = slog.Default()
	}
	var err error
	if r.hub, err = newArenas(cfg.Game, cfg.Arenas); err != nil {
		return nil, err
	}
	if r.live, err = newLive(r.hub, cfg.WatchersPerGame, cfg.Watchers, r.elsewhere); err != nil {
		r.hub.Close()
		return nil, err
	}
	r.game.Live = r.live
	return r, nil
}

// elsewhere reports whether another server of the fleet holds a room
// called name.
func (r *Router) elsewhere(name string) bool {
	return r.fleet != nil && r.fleet.elsewhere(name)
}

// Live is the registry of the games that may be watched, for metrics.
func (r *Router) Live() *hub.Live { return r.live }

// Fleet places a server in its fleet.
type Fleet struct {
	URL string     // the fleet's PostgreSQL database
	Hop string     // this server's hop address, where the others relay to
	Key ssh.Signer // the fleet's key
}

// JoinFleet lists the server in its fleet's directory, whose database
// ctx bounds the wait for. Call it before the first [Router.Play], once
// the hop listener is open: the others may relay to the server as soon as
// it is listed.
func (r *Router) JoinFleet(ctx context.Context, f Fleet) error {
	m := &member{hub: r.hub, live: r.live, hop: f.Hop, key: f.Key, log: r.log}
	var err error
	m.dir, err = fleet.Open(ctx, fleet.Config{URL: f.URL, Hop: f.Hop, Holdings: m.holdings, Logger: r.log})
	if err != nil {
		return err
	}
	r.fleet = m
	return nil
}

// LeaveFleet takes the server out of every lobby of the fleet at once, as
// it shuts down. Later calls, and calls without a fleet, do nothing.
func (r *Router) LeaveFleet() {
	if r.fleet != nil {
		r.fleet.dir.Close()
	}
}

// Close leaves the fleet and ends every arena.
func (r *Router) Close() {
	r.LeaveFleet()
	r.hub.Close()
}

// Play is the server's [serve.PlayFunc].
func (r *Router) Play(ctx context.Context, screen tcell.Screen, s serve.Session) (int, error) {
	return servePlay(r.hub, r.game, r.fleet)(ctx, screen, s)
}
