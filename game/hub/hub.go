// Package hub runs arenas: worlds of many ships ([game.Config].Ships) that
// players join and leave at any time, sharing one wave sequence and one
// pair of pools. A [Hub] holds the open arenas by name; each [Arena] is
// stepped at [game.TPS] by a goroutine of its own, which asks every
// [Seat]'s player for its input before each step and never waits for a
// player's screen: front ends copy what they draw inside [Arena.View],
// under the arena's read lock, held only while they copy, and draw at
// their own pace.
//
// An arena ends [Config].Linger after its last player leaves (sooner when
// nobody but its creator ever sat in it), or when the hub is closed. How
// many arenas may be open is bounded, in all and per owner (an address). It is recorded from its opening ([Arena.Recording]).
//
// The registry of the games that may be watched, the arenas and the solo
// games, is package game/play's (play.Live): it counts an arena's
// watchers ([Arena.AddWatchers]). Arenas and watched games go by names of
// one rule, [ParseName].
package hub

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"poolroids/game"
	"poolroids/game/clock"
	"poolroids/pool"
)

// DefaultSize is the number of ships of an arena when Config.Size is 0.
const DefaultSize = 8

// Errors of [Hub.Join] and [Seat.SetStrategies], for errors.Is. Players
// read them (the lobby and the SSH server show them), so they speak of
// arenas, not of this package.
var (
	ErrFull       = errors.New("the arena is full")
	ErrExists     = errors.New("an arena of that name is open")
	ErrClosed     = errors.New("the arenas are closed")
	ErrNotCreator = errors.New("only the arena's creator switches strategies")
	ErrTooMany    = errors.New("too many arenas open")
)

// Default bounds of Config.MaxArenas and Config.MaxArenasPer.
const (
	DefaultMaxArenas    = 64
	DefaultMaxArenasPer = 4
)

// Config configures a [Hub]. Its zero value opens arenas of DefaultSize
// ships on the shipped levels with seed 0.
type Config struct {
	// Game is every arena's world: levels, strategy, capacities. Ships and
	// Mode are set per arena; the n-th arena opened (from 0) plays seed
	// Game.Seed + n.
	Game game.Config
	// Size is the number of ships of an arena, 1 to game.MaxShips; 0:
	// DefaultSize.
	Size int
	// Clock is the time the arenas step on (nil: clock.Real); the
	// step times they report are measured on the wall clock.
	Clock clock.Clock
	// Linger is how long an arena without players stays open; 0: 10 s.
	// An arena nobody but its creator ever sat in closes after 2 s
	// without players, if that is sooner.
	Linger time.Duration
	// MaxArenas bounds the arenas open at once (0: DefaultMaxArenas);
	// MaxArenasPer bounds those one owner opened (0:
	// DefaultMaxArenasPer). A Join that would open one more fails with
	// ErrTooMany.
	MaxArenas, MaxArenasPer int
	// Unique returns name, or a variant of it for which taken is false:
	// players' names are unique in an arena. nil: [UniqueName].
	Unique func(name string, taken func(string) bool) string
	// NewTable builds the table of the arena called name from cfg: for
	// instance a recorder that stands in front of the world. A table with
	// a Snapshot() []byte method gives Arena.Recording. nil: the world
	// with a recorder of package game/replay in front, kept in memory up
	// to MaxRecording bytes.
	NewTable func(cfg game.Config, name string) (Table, error)
}

// Table is what an arena plays on: a world, or something in front of it
// that sees every event (a recorder of package game/replay). The arena
// calls it under its lock, from one goroutine at a time. A Table that is
// an io.Closer is closed when the arena ends.
type Table interface {
	World() *game.World
	Step(in *game.Inputs)               // World.StepAll
	Join(slot int, player string) error // World.Join; player names the slot's player
	Leave(slot int)
	SetStrategies(bullets, debris pool.Strategy) error
}

// WorldTable is a world as a Table.
type WorldTable struct{ W *game.World }

func (t WorldTable) World() *game.World            { return t.W }
func (t WorldTable) Step(in *game.Inputs)          { t.W.StepAll(in) }
func (t WorldTable) Join(slot int, _ string) error { return t.W.Join(slot) }
func (t WorldTable) Leave(slot int)                { t.W.Leave(slot) }
func (t WorldTable) SetStrategies(bullets, debris pool.Strategy) error {
	return t.W.SetStrategies(bullets, debris)
}

// Hub holds the open arenas. Its methods are safe for concurrent use.
type Hub struct {
	cfg    Config
	mu     sync.Mutex
	arenas map[string]*Arena
	opened uint64 // arenas opened so far
	closed bool
	wg     sync.WaitGroup // one per arena goroutine
}

// New checks cfg (building one world with it) and returns an empty hub.
func New(cfg Config) (*Hub, error) {
	if cfg.Size == 0 {
		cfg.Size = DefaultSize
	}
	if cfg.Size < 1 || cfg.Size > game.MaxShips {
		return nil, fmt.Errorf("hub: arena size %d: want 1 to %d", cfg.Size, game.MaxShips)
	}
	if cfg.Linger <= 0 {
		cfg.Linger = 10 * time.Second
	}
	if cfg.MaxArenas <= 0 {
		cfg.MaxArenas = DefaultMaxArenas
	}
	if cfg.MaxArenasPer <= 0 {
		cfg.MaxArenasPer = DefaultMaxArenasPer
	}
	if cfg.Unique == nil {
		cfg.Unique = UniqueName
	}
	if cfg.NewTable == nil {
		cfg.NewTable = newRecordTable
	}
	g := cfg.Game
	g.Ships = cfg.Size
	if _, err := game.New(g); err != nil {
		return nil, err
	}
	return &Hub{cfg: cfg, arenas: make(map[string]*Arena)}, nil
}

// Request asks [Hub.Join] for a seat.
type Request struct {
	Arena  string    // the arena's name
	Player string    // the player's name, already fit to show; made unique in the arena
	New    bool      // open a new arena: ErrExists if one of that name is open
	Mode   game.Mode // the mode of an arena this request opens
	// Owner is who opens an arena this request opens, for
	// Config.MaxArenasPer: the server's key for the player's address.
	// "": nobody in particular, bounded by MaxArenas only.
	Owner string
	// Input gives the seat's intent before every step. It runs on the
	// arena's goroutine, never with the arena locked, and must return at
	// once: the arena waits for it. nil: no input.
	Input func() game.Input
}

// Join seats a player in the arena r.Arena, opening it (as its creator)
// when there is none of that name. The seat's ship enters by the respawn
// rules at the next step. It fails with ErrExists for a new arena whose
// name is taken, ErrFull when every ship of the arena is taken, ErrTooMany
// when it would open one arena too many, and ErrClosed once the hub is
// closed.
func (h *Hub) Join(r Request) (*Seat, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	a := h.arenas[r.Arena]
	switch {
	case a != nil && r.New:
		return nil, fmt.Errorf("%w: %s (join it instead)", ErrExists, r.Arena)
	case a == nil:
		if err := h.room(r.Owner); err != nil {
			return nil, err
		}
		var err error
		if a, err = h.open(r.Arena, r.Mode, r.Owner); err != nil {
			return nil, err
		}
	}
	return a.seat(r)
}

// room tells why owner may not open one more arena, if so. The caller
// holds h.mu.
func (h *Hub) room(owner string) error {
	if len(h.arenas) >= h.cfg.MaxArenas {
		return fmt.Errorf("%w: %d, try later", ErrTooMany, len(h.arenas))
	}
	if owner == "" {
		return nil
	}
	n := 0
	for _, a := range h.arenas {
		if a.owner == owner {
			n++
		}
	}
	if n >= h.cfg.MaxArenasPer {
		return fmt.Errorf("%w from your address: %d, join one or try later", ErrTooMany, n)
	}
	return nil
}

// open starts an arena. The caller holds h.mu.
func (h *Hub) open(name string, mode game.Mode, owner string) (*Arena, error) {
	g := h.cfg.Game
	g.Ships, g.Mode, g.Seed = h.cfg.Size, mode, g.Seed+h.opened
	t, err := h.cfg.NewTable(g, name)
	if err != nil {
		return nil, err
	}
	if g.Ships == 1 {
		t.Leave(0) // a world of one plays its slot (the solo game); a Join takes an arena's
	}
	a := &Arena{hub: h, name: name, mode: mode, owner: owner, table: t, world: t.World(), stop: make(chan struct{}), done: make(chan struct{})}
	h.arenas[name] = a
	h.opened++
	h.wg.Add(1)
	go a.run()
	return a, nil
}

// Arena returns the open arena called name, or nil.
func (h *Hub) Arena(name string) *Arena {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.arenas[name]
}

// Info describes an open arena, for a lobby.
type Info struct {
	Name     string
	Mode     game.Mode
	Players  int // seats taken
	Size     int // seats in all
	Watchers int // watching (see Arena.AddWatchers)
}

// Arenas lists the open arenas by name, so that a lobby's list keeps its
// order from one refresh to the next.
func (h *Hub) Arenas() []Info {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := make([]Info, 0, len(h.arenas))
	for _, a := range h.arenas {
		a.mu.RLock()
		list = append(list, Info{Name: a.name, Mode: a.mode, Players: a.players, Size: h.cfg.Size, Watchers: a.Watchers()})
		a.mu.RUnlock()
	}
	slices.SortFunc(list, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// Worlds calls fn with the world of every open arena, each under its
// read lock: for metrics, which sum the arenas' pools. fn must be quick,
// since each arena waits for its step meanwhile.
func (h *Hub) Worlds(fn func(w *game.World)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range h.arenas {
		a.mu.RLock()
		fn(a.world)
		a.mu.RUnlock()
	}
}

// ArenaOf returns the name of the arena where a player called player (in
// any case) sits, or "" if none does.
func (h *Hub) ArenaOf(player string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range h.arenas {
		a.mu.RLock()
		for _, s := range a.seats {
			if s != nil && strings.EqualFold(s.name, player) {
				a.mu.RUnlock()
				return a.name
			}
		}
		a.mu.RUnlock()
	}
	return ""
}

// Close ends every arena and waits for their goroutines; Join then fails
// with ErrClosed. Players still seated see their arena's Done.
func (h *Hub) Close() {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		for name, a := range h.arenas {
			close(a.stop)
			delete(h.arenas, name)
		}
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// aloneLinger is how long an arena that nobody but its creator ever sat in
// stays open without players, when Linger is longer: long enough for the
// creator to come back, short enough that opening arenas in a loop holds
// few.
const aloneLinger = 2 * time.Second

// run steps the arena at game.TPS until it ends: stopped by Close, empty
// for Linger (aloneLinger when only its creator ever sat in it), or a
// panic (which ends this arena only; Err tells).
func (a *Arena) run() {
	h := a.hub
	defer h.wg.Done()
	defer close(a.done)
	defer a.closeTable()
	defer func() {
		if v := recover(); v != nil {
			err := fmt.Errorf("hub: arena %s: panic: %v\n%s", a.name, v, debug.Stack())
			h.mu.Lock()
			if h.arenas[a.name] == a {
				delete(h.arenas, a.name)
			}
			h.mu.Unlock()
			a.mu.Lock()
			a.err = err
			a.mu.Unlock()
		}
	}()
	t := clock.Or(h.cfg.Clock).NewTicker(time.Second / game.TPS)
	defer t.Stop()
	linger := uint64(h.cfg.Linger * game.TPS / time.Second)
	lingerAlone := uint64(min(h.cfg.Linger, aloneLinger) * game.TPS / time.Second)
	for {
		select {
		case <-a.stop:
			return
		case <-t.C():
		}
		if empty, alone := a.step(); (empty > linger || alone && empty > lingerAlone) && a.closeEmpty() {
			return
		}
	}
}

// closeTable closes the table if it is an io.Closer; an error ends the
// arena with it (Err).
func (a *Arena) closeTable() {
	c, ok := a.table.(io.Closer)
	if !ok {
		return
	}
	if err := c.Close(); err != nil {
		a.mu.Lock()
		a.err = errors.Join(a.err, err)
		a.mu.Unlock()
	}
}

// closeEmpty removes the arena from the hub if it still has no player.
func (a *Arena) closeEmpty() bool {
	h := a.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.players > 0 {
		return false
	}
	if h.arenas[a.name] == a {
		delete(h.arenas, a.name)
	}
	return true
}
