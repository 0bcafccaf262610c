package play

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
)

// Default watcher bounds of a [Live] whose LiveConfig leaves them 0.
const (
	DefaultWatchersPerGame = 8
	DefaultWatchers        = 64
)

// Errors of [Live.Watch], for errors.Is. Watchers read them.
var (
	ErrNoGame       = errors.New("no live game of that name")
	ErrWatchersFull = errors.New("too many watchers")
)

// LiveConfig configures a [Live]. Its zero value bounds watchers to
// DefaultWatchersPerGame a game and DefaultWatchers in all.
type LiveConfig struct {
	PerGame int // watchers of one game; 0: DefaultWatchersPerGame
	Total   int // watchers of all games; 0: DefaultWatchers
	// Unique returns name, or a variant of it for which taken is false:
	// solo games' names are unique among solo games and open arenas.
	// nil: [hub.UniqueName].
	Unique func(name string, taken func(string) bool) string
}

// Live lists the games that may be watched — the hub's arenas and the solo
// games registered with [Live.Add] — and counts and bounds their watchers.
// A name is an arena's first: a solo game never takes the name of an open
// arena, and an arena opened later under a solo game's name hides it from
// watch by name. Its methods are safe for concurrent use.
type Live struct {
	hub *hub.Hub
	cfg LiveConfig

	mu       sync.Mutex
	solos    map[string]*Solo
	watchers int
}

// NewLive returns an empty registry of live games whose arenas are h's
// (nil: none).
func NewLive(h *hub.Hub, cfg LiveConfig) (*Live, error) {
	if cfg.PerGame == 0 {
		cfg.PerGame = DefaultWatchersPerGame
	}
	if cfg.Total == 0 {
		cfg.Total = DefaultWatchers
	}
	if cfg.PerGame < 0 || cfg.Total < 0 {
		return nil, fmt.Errorf("play: watcher bounds %d a game, %d in all: want 0 or more", cfg.PerGame, cfg.Total)
	}
	if cfg.Unique == nil {
		cfg.Unique = hub.UniqueName
	}
	return &Live{hub: h, cfg: cfg, solos: make(map[string]*Solo)}, nil
}

// Solo is a solo [Game] registered with [Live.Add]. Its front end steps
// it; watchers read its View through their [Watcher], and draw at their
// own pace.
type Solo struct {
	live *Live
	name string
	game *Game
	// done is closed while the game is hidden, and once it is removed:
	// its watchers leave. Opened again, it has a new one. Guarded by
	// live.mu.
	done chan struct{}

	open     atomic.Bool
	watchers atomic.Int32
}

// Add registers the solo game g under a name made from name, unique among
// the solo games and the open arenas. open says whether it may be watched
// (see [Solo.SetOpen]). The game's lock may be held meanwhile: the
// registry takes it only through g's View, and never under its own.
func (l *Live) Add(name string, g *Game, open bool) *Solo {
	l.mu.Lock()
	defer l.mu.Unlock()
	name = l.cfg.Unique(name, func(n string) bool {
		return l.solos[n] != nil || (l.hub != nil && l.hub.Arena(n) != nil)
	})
	s := &Solo{live: l, name: name, game: g, done: make(chan struct{})}
	s.open.Store(open)
	if !open {
		close(s.done)
	}
	l.solos[name] = s
	return s
}

// Solo returns the solo game registered as name, open or hidden, or nil.
func (l *Live) Solo(name string) *Solo {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.solos[name]
}

// Name returns the name the game is watched by.
func (s *Solo) Name() string { return s.name }

// Game returns the game given to Add.
func (s *Solo) Game() *Game { return s.game }

// SetOpen opens the game to watchers (listed, and watch NAME finds it) or
// hides it; its watchers see Done, and Open false, and leave.
func (s *Solo) SetOpen(open bool) {
	l := s.live
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.open.Swap(open) == open || l.solos[s.name] != s {
		return
	}
	if open {
		s.done = make(chan struct{})
	} else {
		close(s.done)
	}
}

// Open reports whether the game may be watched.
func (s *Solo) Open() bool { return s.open.Load() }

// Watchers returns how many watch the game. It costs an atomic load.
func (s *Solo) Watchers() int { return int(s.watchers.Load()) }

// Remove takes the game off the registry; its watchers see Done. Removing
// twice does nothing.
func (s *Solo) Remove() {
	l := s.live
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.solos[s.name] == s {
		delete(l.solos, s.name)
		if s.open.Load() { // a hidden game's is closed already
			close(s.done)
		}
	}
}

// Watcher is one watcher's hold on a live game, and the watcher's own
// Game: read-only, it shows the watched game's [Watcher.View]. Exactly
// one of Arena and Solo is set. Stop gives it up.
type Watcher struct {
	Arena *hub.Arena
	Solo  *Solo
	live  *Live
	done  <-chan struct{} // a solo game's, as it was when watched
	once  sync.Once
}

// Watch makes the caller a watcher of the live game called name: the open
// arena of that name, else the open solo game. It fails with ErrNoGame
// when there is none (a hidden solo game is none), and ErrWatchersFull when
// the game or the server has as many watchers as allowed.
func (l *Live) Watch(name string) (*Watcher, error) {
	var a *hub.Arena
	if l.hub != nil {
		a = l.hub.Arena(name)
	}
	w, err := l.watch(name, a)
	if errors.Is(err, ErrNoGame) && l.hub != nil {
		if in := l.hub.ArenaOf(name); in != "" {
			err = fmt.Errorf("%w; %s plays in the arena %s: watch %s", err, name, in, in)
		}
	}
	return w, err
}

// watch is Watch once the arena called name, if any, is found.
func (l *Live) watch(name string, a *hub.Arena) (*Watcher, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.solos[name]
	var n int
	switch {
	case a != nil:
		n = a.Watchers()
	case s != nil && s.Open():
		n = s.Watchers()
	default:
		return nil, fmt.Errorf("%w: %s", ErrNoGame, name)
	}
	switch {
	case l.watchers >= l.cfg.Total:
		return nil, fmt.Errorf("%w: the server has %d watching, its most", ErrWatchersFull, l.watchers)
	case n >= l.cfg.PerGame:
		return nil, fmt.Errorf("%w: %s has %d watching, its most", ErrWatchersFull, name, n)
	}
	l.watchers++
	if a != nil {
		a.AddWatchers(1)
		return &Watcher{Arena: a, live: l}, nil
	}
	s.watchers.Add(1)
	return &Watcher{Solo: s, live: l, done: s.done}, nil
}

// Name returns the watched game's name.
func (w *Watcher) Name() string {
	if w.Arena != nil {
		return w.Arena.Name()
	}
	return w.Solo.Name()
}

// Done is closed when the watched game is gone: the arena closed, the
// solo game's player left or hid it.
func (w *Watcher) Done() <-chan struct{} {
	if w.Arena != nil {
		return w.Arena.Done()
	}
	return w.done
}

// View calls fn with the watched game as it stands, under its lock, as
// [Game.View] does: a solo game's View is its player's (game-over screen
// and high score included); an arena's shows its world in play, read
// under the arena's read lock, and its step time. It allocates nothing.
func (w *Watcher) View(fn func(v View)) {
	if w.Solo != nil {
		w.Solo.game.View(fn)
		return
	}
	w.Arena.View(func(v hub.ArenaView) {
		fn(View{World: v.World(), Phase: match.Play, Step: v.StepTime()})
	})
}

// Watchers returns how many watch w's game, w included.
func (w *Watcher) Watchers() int {
	if w.Solo != nil {
		return w.Solo.Watchers()
	}
	return w.Arena.Watchers()
}

// Stop stops watching. Stopping twice does nothing.
func (w *Watcher) Stop() {
	w.once.Do(func() {
		l := w.live
		l.mu.Lock()
		defer l.mu.Unlock()
		l.watchers--
		if w.Solo != nil {
			w.Solo.watchers.Add(-1)
			return
		}
		w.Arena.AddWatchers(-1)
	})
}

// LiveGame describes a live game, for a lobby.
type LiveGame struct {
	Name     string // what Watch takes
	Arena    bool   // an arena, not a solo game
	Players  int
	Watchers int
}

// Games lists the open arenas and the open solo games, arenas first, each
// sorted by name.
func (l *Live) Games() []LiveGame {
	var list []LiveGame
	if l.hub != nil {
		for _, in := range l.hub.Arenas() { // by name
			if in.Players > 0 { // an arena closing after its last player shows nothing
				list = append(list, LiveGame{Name: in.Name, Arena: true, Players: in.Players, Watchers: in.Watchers})
			}
		}
	}
	arenas := len(list)
	l.mu.Lock()
	for _, s := range l.solos {
		if s.Open() {
			list = append(list, LiveGame{Name: s.name, Players: 1, Watchers: s.Watchers()})
		}
	}
	l.mu.Unlock()
	slices.SortFunc(list[arenas:], func(a, b LiveGame) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// Worlds calls fn with the world of every live game, each under its read
// lock: the hub's open arenas (arena true) and every solo game, hidden or
// not. It is for metrics, which sum the games' pools; fn must be quick,
// since each game waits for its step meanwhile.
func (l *Live) Worlds(fn func(w *game.World, arena bool)) {
	if l.hub != nil {
		l.hub.Worlds(func(w *game.World) { fn(w, true) })
	}
	// A solo game's lock may be held around Add, which takes l.mu: the
	// games are read once l.mu is released.
	l.mu.Lock()
	solos := make([]*Solo, 0, len(l.solos))
	for _, s := range l.solos {
		solos = append(solos, s)
	}
	l.mu.Unlock()
	solo := func(v View) { fn(v.World, false) }
	for _, s := range solos {
		s.game.View(solo)
	}
}

// Watchers returns how many watch a live game, in all.
func (l *Live) Watchers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.watchers
}
