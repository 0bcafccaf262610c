package route

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/serve/fleet"
)

// claimWait bounds the directory's answer to a claim; without one in time
// no arena opens (see holder).
const claimWait = 2 * time.Second

// errNoDirectory is why an arena cannot be opened while the fleet's
// directory is out of reach: its name could be another server's.
var errNoDirectory = errors.New("the fleet's directory cannot be reached: no arena opens now, try later (arenas open here can be joined)")

// Fleet places a server in its fleet.
type Fleet struct {
	URL string     // the fleet's PostgreSQL database, its directory
	Hop string     // this server's hop address: the others relay to it
	Key ssh.Signer // the fleet's key, the hop's and the relays'
}

// JoinFleet lists the server in its fleet's directory (ctx bounds the
// wait for the database), and from then on routes across the fleet. Call
// it before the first [Router.Play], with the hop listener open: the
// others may relay to the server as soon as it is listed.
//
// Its error wraps [fleet.ErrKeyMismatch] when the fleet's live members
// share another key than f.Key.
func (r *Router) JoinFleet(ctx context.Context, f Fleet) error {
	m := &member{key: f.Key, hop: f.Hop, hub: r.hub, live: r.live, log: r.log}
	dir, err := fleet.Open(ctx, fleet.Config{URL: f.URL, Hop: f.Hop, Key: ssh.FingerprintSHA256(f.Key.PublicKey()), Holdings: m.holdings, Logger: r.log})
	if err != nil {
		return err
	}
	m.dir = dir
	r.fleet = m
	return nil
}

// LeaveFleet takes the server out of every lobby of the fleet at once: at
// shutdown, before its players are told. It does nothing without a fleet,
// or once done.
func (r *Router) LeaveFleet() {
	if r.fleet != nil {
		r.fleet.dir.Close()
	}
}

// elsewhere reports whether another server of the fleet holds a room
// called name.
func (r *Router) elsewhere(name string) bool {
	return r.fleet != nil && r.fleet.elsewhere(name)
}

// FleetStats is what a member of a fleet tells metrics: the directory as
// it sees it, and the sessions it relays.
type FleetStats struct {
	fleet.Stats
	// RelaysOut is how many of this server's sessions play on another
	// member now; RelayedOut how many did in all.
	RelaysOut  int
	RelayedOut uint64
}

// FleetStats returns the server's fleet figures now; ok is false when it
// is in no fleet.
func (r *Router) FleetStats() (st FleetStats, ok bool) {
	if r.fleet == nil {
		return st, false
	}
	m := r.fleet
	return FleetStats{Stats: m.dir.Stats(), RelaysOut: int(m.relaysOut.Load()), RelayedOut: m.relayedOut.Load()}, true
}

// directory is what a member asks of the fleet's [fleet.Directory]; the
// tests stand in for it without a database.
type directory interface {
	Rooms() []fleet.Room
	Elsewhere(name string) (hop string, ok bool)
	Lost(name string) (hop string, ok bool)
	Claim(ctx context.Context, name string) (hop string, err error)
	Stats() fleet.Stats
	Close()
}

// member is a server's place in its fleet: the directory it is listed in,
// the fleet's key for its hops, and what it holds.
type member struct {
	dir  directory
	key  ssh.Signer
	hop  string // this server's hop address, its name in the directory
	hub  *hub.Hub
	live *play.Live
	log  *slog.Logger

	relaysOut  atomic.Int32  // sessions relayed now
	relayedOut atomic.Uint64 // sessions relayed in all
}

// holdings is the directory's Config.Holdings: the open arenas and the
// solo games open to watchers. A name is an arena's first, as here (see
// play.Live): a solo game under the name of an open arena, which watch
// NAME does not find, is not listed.
func (m *member) holdings(rooms []fleet.Room) []fleet.Room {
	for _, a := range m.hub.Arenas() {
		if a.Players > 0 {
			rooms = append(rooms, fleet.Room{Name: a.Name, Arena: true, Players: a.Players, Size: a.Size, Watchers: a.Watchers, PvP: a.Mode == game.PvP})
		}
	}
	for _, g := range m.live.Games() {
		if !g.Arena && m.hub.Arena(g.Name) == nil {
			rooms = append(rooms, fleet.Room{Name: g.Name, Players: g.Players, Watchers: g.Watchers})
		}
	}
	return rooms
}

// elsewhere reports whether another server holds a room called name: the
// names of solo games avoid those too.
func (m *member) elsewhere(name string) bool {
	_, ok := m.dir.Elsewhere(name)
	return ok
}

// holder returns the hop address of the server that holds what c names,
// or "" when it is this one's to play: an arena open here, or one no
// other server holds, which this one then claims. An arena open here
// whose name the directory gives another member (see fleet.Directory.Lost)
// is that member's to play. While the directory cannot be reached, an
// arena no other server was last seen holding is not opened: err says
// why.
func (m *member) holder(ctx context.Context, c ui.Choice) (hop string, err error) {
	switch c.Kind {
	case ui.ChoiceJoin, ui.ChoiceNew:
		if m.hub.Arena(c.Name) != nil {
			h, _ := m.dir.Lost(c.Name)
			return h, nil
		}
		ctx, cancel := context.WithTimeout(ctx, claimWait)
		defer cancel()
		h, err := m.dir.Claim(ctx, c.Name)
		if err != nil {
			if h, ok := m.dir.Elsewhere(c.Name); ok {
				return h, nil // as last seen: the hop answers without the database
			}
			m.log.Debug("fleet: no arena opens unclaimed", "arena", c.Name, "err", err)
			return "", errNoDirectory
		}
		if h == m.hop {
			return "", nil
		}
		return h, nil
	case ui.ChoiceWatch:
		if m.live.Solo(c.Name) != nil || m.hub.Arena(c.Name) != nil {
			return "", nil
		}
		h, _ := m.dir.Elsewhere(c.Name)
		return h, nil
	}
	return "", nil
}

// relay plays c on the server at hop for the player of s, under the
// name they chose in the lobby (c.Player), if they did: on their
// terminal, or on their page for a browser's session.
func (m *member) relay(ctx context.Context, s serve.Session, hop string, c ui.Choice) (fleet.Result, error) {
	var res fleet.Result
	m.relaysOut.Add(1)
	m.relayedOut.Add(1)
	defer m.relaysOut.Add(-1)
	p := s.Hop()
	if c.Player != "" {
		p.User = c.Player
	}
	var err error
	if s.Web {
		res, err = fleet.RelayWeb(ctx, hop, m.key, p, func(rw io.ReadWriteCloser) (string, error) {
			return s.RelayWeb(rw, webPath(c), p.User)
		})
	} else {
		err = s.Relay(func(t serve.Terminal) error {
			var err error
			res, err = fleet.Relay(ctx, hop, m.key, p, commandLine(c), t)
			return err
		})
	}
	if err != nil {
		m.log.Warn("fleet: relay", "hop", hop, "err", err)
	}
	return res, err
}

// commandChoice is the lobby's choice of what the command of s asks for.
func commandChoice(s serve.Session) ui.Choice {
	c := ui.Choice{Kind: ui.ChoiceJoin, Name: s.Command.Name, PvP: s.Command.PvP}
	switch s.Command.Verb {
	case serve.VerbNew:
		c.Kind = ui.ChoiceNew
	case serve.VerbWatch:
		c.Kind = ui.ChoiceWatch
	}
	return c
}

// command plays the command of s where it is held, if another server
// holds it (relayed is then true); the session ends as it ends there.
// screen is an SSH session's, not yet initialised; nil for a browser's,
// whose page is told the reason the session ended with there.
func (m *member) command(ctx context.Context, screen tcell.Screen, s serve.Session) (relayed bool, err error) {
	c := commandChoice(s)
	hop, err := m.holder(ctx, c)
	if err != nil {
		return true, &serve.RefusedError{Message: err.Error()}
	}
	if hop == "" {
		return false, nil
	}
	res, err := m.relay(ctx, s, hop, c)
	switch {
	case ctx.Err() != nil:
		return true, nil // the server's own ending says why
	case err != nil:
		if screen != nil && !errors.Is(err, fleet.ErrUnreachable) && screen.Init() == nil {
			// The holding server died with the terminal in its modes
			// (alternate screen, mouse, keyboard): a screen's Fini
			// restores them.
			screen.Fini()
		}
		return true, &serve.RefusedError{Message: relayFailed(c, err)}
	case screen == nil && res.Message != "":
		return true, &serve.EndError{Message: res.Message}
	case res.Status != 0:
		// The holding server has said why, on the player's terminal.
		return true, &serve.RefusedError{}
	}
	return true, nil
}

// webPath is the page's path that asks another server for c, as
// commandLine asks for it over SSH: a new arena in its mode.
func webPath(c ui.Choice) string {
	name := url.PathEscape(c.Name)
	switch c.Kind {
	case ui.ChoiceNew:
		if c.PvP {
			return "/new/" + name + "/pvp"
		}
		return "/new/" + name
	case ui.ChoiceWatch:
		return "/watch/" + name
	}
	return "/join/" + name
}

// lobby is what one player's lobby asks of the server beyond its own
// arenas and games (ui.Fleet): the rest of the fleet, if the server is in
// one, and the count of the player's games. The lobby is no game: the
// session counts as one (serve.Session.SetPlaying) from the choice of a
// game played here (Play) until the lobby shows again, asking for its
// list (List), which it does whenever it shows and never during a game.
type lobby struct {
	m *member // nil: no fleet
	s serve.Session
}

// List adds the other servers' rooms to d, in the order the lobby lists
// this server's: arenas by name, then as games the arenas and the solo
// games, each by name. A room of this server's whose name the directory
// gives another member is left out: the other's is listed. The player is
// in the lobby: in no game.
func (l lobby) List(d *ui.LobbyData) {
	_ = l.s.SetPlaying(false)
	if l.m == nil {
		return
	}
	d.Arenas = slices.DeleteFunc(d.Arenas, func(a ui.LobbyArena) bool { _, lost := l.m.dir.Lost(a.Name); return lost })
	d.Games = slices.DeleteFunc(d.Games, func(g ui.LobbyGame) bool { _, lost := l.m.dir.Lost(g.Name); return lost })
	for _, r := range l.m.dir.Rooms() {
		if r.Arena {
			d.Arenas = append(d.Arenas, ui.LobbyArena{Name: r.Name, Players: r.Players, Max: r.Size, Watchers: r.Watchers, PvP: r.PvP})
		}
		d.Games = append(d.Games, ui.LobbyGame{Name: r.Name, Arena: r.Arena, Players: r.Players, Watchers: r.Watchers})
	}
	slices.SortStableFunc(d.Arenas, func(a, b ui.LobbyArena) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortStableFunc(d.Games, func(a, b ui.LobbyGame) int {
		if a.Arena != b.Arena {
			if a.Arena {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

// Play plays c where it is held, if another server holds it. A game c
// plays here counts as one from now on; one over the player's address's
// limit is refused, and the lobby says why.
func (l lobby) Play(ctx context.Context, c ui.Choice) (status string, elsewhere bool, err error) {
	if l.m != nil {
		hop, err := l.m.holder(ctx, c)
		if err != nil {
			return err.Error(), true, nil
		}
		if hop != "" {
			res, err := l.m.relay(ctx, l.s, hop, c)
			if err != nil {
				return relayFailed(c, err), true, nil
			}
			return res.Message, true, nil
		}
	}
	switch c.Kind {
	case ui.ChoiceSolo, ui.ChoiceDaily, ui.ChoiceJoin, ui.ChoiceNew:
		if r, ok := errors.AsType[*serve.RefusedError](l.s.SetPlaying(true)); ok {
			return r.Message, true, nil
		}
	}
	return "", false, nil
}

// relayFailed says why the relay of c failed.
func relayFailed(c ui.Choice, err error) string {
	if errors.Is(err, fleet.ErrUnreachable) {
		return "the server that holds " + c.Name + " cannot be reached, try later"
	}
	return "the server that holds " + c.Name + " is gone"
}

// commandLine is the command that asks another server for c.
func commandLine(c ui.Choice) string {
	switch c.Kind {
	case ui.ChoiceNew:
		if c.PvP {
			return "new " + c.Name + " --pvp"
		}
		return "new " + c.Name
	case ui.ChoiceWatch:
		return "watch " + c.Name
	}
	return "join " + c.Name
}
