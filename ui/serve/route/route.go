package route

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/web"
)

// Config is what a server offers its players.
type Config struct {
	// Game is every game's options: the level set, capacities, strategy,
	// FPS, high scores, Hidden and Frame. What is a session's own (seed,
	// ASCII, keys, names, seat, Watching) is set for each, and Live is the
	// Router's.
	Game ui.Options
	// Arenas sizes and bounds the arenas; their game is Game's, each with
	// a seed of its own.
	Arenas hub.Config
	// Watchers bounds the watchers of the live games in all,
	// WatchersPerGame those of one game (0: hub's defaults).
	Watchers, WatchersPerGame int
	// Proofs bounds the daily games' replays proven at once, posted to
	// Exec or played here; nil: a gate of one slot for two cores, and 16
	// waiting.
	Proofs *daily.Gate
	// Logger receives the fleet's warnings and the posts (nil:
	// slog.Default()).
	Logger *slog.Logger
}

// Router is one server's arenas and live games, and the route each of its
// sessions takes to them. Make one with [New], serve [Router.Play], and
// [Router.Close] it once the server has shut down.
type Router struct {
	hub   *hub.Hub
	live  *play.Live
	game  ui.Options
	log   *slog.Logger
	fleet *member     // nil: alone
	daily *play.Board // the daily board's proofs: the posts' and the daily games'
}

// New makes a server's arenas and its registry of live games. Its error
// says what in cfg is wrong.
func New(cfg Config) (*Router, error) {
	r := &Router{game: cfg.Game, log: cmp.Or(cfg.Logger, slog.Default())}
	gate := cfg.Proofs
	if gate == nil {
		gate = daily.NewGate(runtime.GOMAXPROCS(0)/2, 16)
	}
	r.daily = play.NewBoard(cfg.Game.Levels, gate)
	r.daily.SetLogger(r.log)
	r.game.Board = r.daily
	o := cfg.Game
	// A random seed, to which each arena adds the number opened before.
	cfg.Arenas.Game = game.Config{Levels: o.Levels, Strategy: o.Strategy, Bullets: o.Bullets, Debris: o.Debris, Seed: rand.Uint64()}
	var err error
	if r.hub, err = hub.New(cfg.Arenas); err != nil {
		return nil, err
	}
	// A solo game's name is unique here, and across the fleet once the
	// server is in one.
	unique := func(name string, taken func(string) bool) string {
		return hub.UniqueName(name, func(n string) bool { return taken(n) || r.elsewhere(n) })
	}
	if r.live, err = play.NewLive(r.hub, play.LiveConfig{PerGame: cfg.WatchersPerGame, Total: cfg.Watchers, Unique: unique}); err != nil {
		r.hub.Close()
		return nil, err
	}
	r.game.Live = r.live
	return r, nil
}

// Live is the registry of the games that may be watched, for metrics.
func (r *Router) Live() *play.Live { return r.live }

// Close leaves the fleet and ends every arena.
func (r *Router) Close() {
	r.LeaveFleet()
	r.hub.Close()
}

// Play is the server's [serve.PlayFunc]: it plays the session's command,
// or the lobby, here or where the fleet holds it, on the terminal of the
// session's screen.
func (r *Router) Play(ctx context.Context, screen tcell.Screen, s serve.Session) (int, error) {
	return r.play(ctx, ui.NewTerminal(screen, s.Keys), s, func(ctx context.Context, m *member) (bool, error) {
		return m.command(ctx, screen, s)
	})
}

// PlayWeb is the server's [serve.WebPlayFunc]: Play for a browser, on
// its screen. What another server of the fleet holds is played there, the
// page relayed (see serve.Session.RelayWeb), as an SSH session's terminal
// is.
func (r *Router) PlayWeb(ctx context.Context, scr *web.Screen, s serve.Session) (int, error) {
	return r.play(ctx, scr, s, func(ctx context.Context, m *member) (bool, error) { return m.command(ctx, nil, s) })
}

// play plays the session's command, or the lobby, on scr; relay plays
// the command on the fleet's server that holds it, and tells whether one
// did: an SSH session's terminal is relayed, a browser's page.
func (r *Router) play(ctx context.Context, scr ui.Screen, s serve.Session, relay func(context.Context, *member) (bool, error)) (int, error) {
	start := time.Now()
	o := r.game
	o.Seed = rand.Uint64()
	o.ASCII = s.ASCII
	o.Keys = s.Keys
	// A player is their name and their key: the table keeps the key
	// apart, where no name can stand for it.
	o.Player, o.Scores = s.Name, o.Scores.For(s.Fingerprint)
	o.Name = s.Name
	o.Watching = s.SetWatching
	o.Notice = (&notice{server: r.game.Notice, scores: o.Scores, player: o.Player, since: start}).text
	m := r.fleet
	if s.Relayed {
		m = nil
	}
	if m != nil && s.Command.Verb != serve.VerbLobby && s.Command.Verb != serve.VerbReplay {
		if relayed, err := relay(ctx, m); relayed {
			return 0, err
		}
	}
	var res ui.Result
	var err error
	switch c := s.Command; c.Verb {
	case serve.VerbJoin, serve.VerbNew:
		kind := ui.ChoiceJoin
		if c.Verb == serve.VerbNew {
			kind = ui.ChoiceNew
		}
		if err := s.SetPlaying(true); err != nil {
			return 0, err
		}
		seat, jerr := ui.Join(r.hub, ui.Choice{Kind: kind, Name: c.Name, PvP: c.PvP}, s.Name, s.Address())
		if jerr != nil {
			return 0, &serve.RefusedError{Message: jerr.Error()}
		}
		defer seat.Leave()
		o.Arena = seat
		res, err = ui.RunOn(ctx, scr, o)
	case serve.VerbWatch:
		w, werr := r.live.Watch(c.Name)
		if werr != nil {
			return 0, &serve.RefusedError{Message: werr.Error()}
		}
		if res, err = ui.WatchOn(ctx, scr, w, o); err == nil && res.Reason == ui.ReasonGone {
			return 0, &serve.EndError{Message: ui.Gone(w)}
		}
	case serve.VerbReplay:
		data, rerr := r.boardReplay(ctx, c.Name)
		if rerr != nil {
			return 0, &serve.RefusedError{Message: rerr.Error()}
		}
		o.Strategy = "" // the recorded strategies, as the lobby plays a replay
		res, err = ui.RunReplayOn(ctx, scr, data, o)
	default:
		lo := ui.LobbyOptions{Game: o, Hub: r.hub, Name: s.Name, Address: s.Address(), Fleet: lobby{m: m, s: s}}
		res, err = ui.PlayLobbyOn(ctx, scr, lo)
	}
	if res.Reason == ui.ReasonPanic {
		err = fmt.Errorf("%w: %w", serve.ErrPanic, err)
	}
	if err == nil && o.Scores.Queued(o.Player, start) > 0 {
		err = &serve.EndError{Message: queuedNotice}
	}
	return res.Score, err
}

// queuedNotice tells a player that a game of theirs waits to be posted.
var queuedNotice = "your score is " + scores.ErrQueued.Error()

// notice is a session's notice (ui.Options.Notice): the server's, else
// queuedNotice while a game the player left this session waits in the
// score queue: one who quits a game sees no game-over screen.
type notice struct {
	server func() string // nil: none
	scores *scores.Store
	player string
	since  time.Time

	mu    sync.Mutex
	asked time.Time // the queue is asked once a second, not every frame
	queue string
}

func (n *notice) text() string {
	if n.server != nil {
		if s := n.server(); s != "" {
			return s
		}
	}
	now := time.Now()
	n.mu.Lock()
	defer n.mu.Unlock()
	if now.Sub(n.asked) >= time.Second {
		n.asked, n.queue = now, ""
		if n.scores.Queued(n.player, n.since) > 0 {
			n.queue = queuedNotice
		}
	}
	return n.queue
}
