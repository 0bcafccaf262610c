package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	gameplay "poolroids/game/play"
	"poolroids/ui"
	"poolroids/ui/serve"
)

// newArenas makes the server's arenas, sized and bounded by cfg: worlds on
// the levels, capacities and strategy of opts, each with a seed of its own
// (a random one, plus the number of arenas opened before).
func newArenas(opts ui.Options, cfg hub.Config) (*hub.Hub, error) {
	cfg.Game = game.Config{Levels: opts.Levels, Strategy: opts.Strategy, Bullets: opts.Bullets, Debris: opts.Debris, Seed: rand.Uint64()}
	return hub.New(cfg)
}

// newLive makes the server's registry of live games: h's arenas and the
// solo games, watchable by perGame watchers each, total in all. A solo
// game's name is unique here, and elsewhere's where it says (nil: no
// fleet).
func newLive(h *hub.Hub, perGame, total int, elsewhere func(string) bool) (*gameplay.Live, error) {
	var unique func(string, func(string) bool) string // nil: hub.UniqueName
	if elsewhere != nil {
		unique = func(name string, taken func(string) bool) string {
			return hub.UniqueName(name, func(n string) bool { return taken(n) || elsewhere(n) })
		}
	}
	return gameplay.NewLive(h, gameplay.LiveConfig{PerGame: perGame, Total: total, Unique: unique})
}

// servePlay is the server's serve.PlayFunc: the arena the session's
// command names (join or new), the live game it watches (watch), else the
// lobby, from which the player plays solo games with opts (offered to
// watchers through opts.Live), joins arenas or watches games. In a fleet
// (fl not nil), what another server holds is played there, through a
// relay; a relayed session plays here.
func servePlay(h *hub.Hub, opts ui.Options, fl *member) serve.PlayFunc {
	return func(ctx context.Context, screen tcell.Screen, s serve.Session) (int, error) {
		o := opts
		o.Seed = rand.Uint64()
		o.ASCII = s.ASCII
		o.Keys = s.Keys
		o.Player = s.Player()
		o.Name = s.Name
		o.Watching = s.SetWatching
		m := fl
		if s.Relayed {
			m = nil
		}
		if m != nil && s.Command.Verb != serve.VerbLobby {
			if relayed, err := m.command(ctx, screen, s); relayed {
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
			seat, jerr := ui.Join(h, ui.Choice{Kind: kind, Name: c.Name, PvP: c.PvP}, s.Name, s.Address())
			if jerr != nil {
				return 0, &serve.RefusedError{Message: jerr.Error()}
			}
			defer seat.Leave()
			o.Arena = seat
			res, err = ui.Run(ctx, screen, o)
		case serve.VerbWatch:
			w, werr := o.Live.Watch(c.Name)
			if werr != nil {
				return 0, &serve.RefusedError{Message: werr.Error()}
			}
			if res, err = ui.Watch(ctx, screen, w, o); err == nil && res.Reason == ui.ReasonGone {
				return 0, &serve.EndError{Message: ui.Gone(w)}
			}
		default:
			lo := ui.LobbyOptions{Game: o, Hub: h, Name: s.Name, Address: s.Address()}
			if m != nil {
				lo.Fleet = lobby{m: m, s: s}
			}
			res, err = ui.PlayLobby(ctx, screen, lo)
		}
		if res.Reason == ui.ReasonPanic {
			err = fmt.Errorf("%w: %w", serve.ErrPanic, err)
		}
		return res.Score, err
	}
}
