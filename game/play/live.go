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
	g.live.Store(s) // its View counts its watchers
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
// Game: read-only, it shows the watched game's [Watcher.View], whatever
// the game is (a solo game, an arena). Stop gives it up.
type Watcher struct {
	w    watched
	live *Live
	done <-chan struct{} // the game's, as it was when watched
	once sync.Once
}

// watched is a live game as its watchers see it: a registered solo game
// or an arena. It is chosen once, by Live.Watch.
type watched interface {
	view(fn func(View))
	name() string
	done() <-chan struct{}
	watchers() int
	add(n int) // n watchers more (fewer, for n < 0)
	gone() string
}

// watchedSolo is a solo game watched: its player's View.
type watchedSolo struct{ s *Solo }

func (w watchedSolo) view(fn func(View))    { w.s.game.View(fn) }
func (w watchedSolo) name() string          { return w.s.name }
func (w watchedSolo) done() <-chan struct{} { return w.s.done }
func (w watchedSolo) watchers() int         { return w.s.Watchers() }
func (w watchedSolo) add(n int)             { w.s.watchers.Add(int32(n)) }

func (w watchedSolo) gone() string {
	if !w.s.Open() {
		return w.s.name + " hid their game"
	}
	return w.s.name + " left: the game is over"
}

// watchedArena is an arena watched: its world in play, read under its
// read lock, with its players' names and no one ship's score.
type watchedArena struct{ a *hub.Arena }

func (w watchedArena) view(fn func(View)) {
	a := w.a
	a.View(func(av hub.ArenaView) {
		fn(View{
			World: av.World(), Phase: match.Play, Ship: -1, Names: seated(av), Arena: av,
			Watchers: a.Watchers(), Step: av.StepTime(), Samples: av.Samples(),
		})
	})
}
func (w watchedArena) name() string          { return w.a.Name() }
func (w watchedArena) done() <-chan struct{} { return w.a.Done() }
func (w watchedArena) watchers() int         { return w.a.Watchers() }
func (w watchedArena) add(n int)             { w.a.AddWatchers(n) }
func (w watchedArena) gone() string          { return "the arena " + w.a.Name() + " closed" }

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
	var w watched
	switch s := l.solos[name]; {
	case a != nil:
		w = watchedArena{a}
	case s != nil && s.Open():
		w = watchedSolo{s}
	default:
		return nil, fmt.Errorf("%w: %s", ErrNoGame, name)
	}
	switch n := w.watchers(); {
	case l.watchers >= l.cfg.Total:
		return nil, fmt.Errorf("%w: the server has %d watching, its most", ErrWatchersFull, l.watchers)
	case n >= l.cfg.PerGame:
		return nil, fmt.Errorf("%w: %s has %d watching, its most", ErrWatchersFull, name, n)
	}
	l.watchers++
	w.add(1)
	return &Watcher{w: w, live: l, done: w.done()}, nil
}

// Name returns the watched game's name.
func (w *Watcher) Name() string { return w.w.name() }

// Done is closed when the watched game is gone: the arena closed, the
// solo game's player left or hid it.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// Gone says why the watched game is gone, once Done is closed: "the
// arena den closed", "ann hid their game", "ann left: the game is over".
func (w *Watcher) Gone() string { return w.w.gone() }

// View calls fn with the watched game as it stands, under its lock, as
// [Game.View] does: a solo game's View is its player's (game-over screen
// and high score included); an arena's shows its world in play, read
// under the arena's read lock, with its players' names, no one ship's
// score (Ship -1), its watchers and its step time. It allocates nothing.
func (w *Watcher) View(fn func(v View)) { w.w.view(fn) }

// Watchers returns how many watch w's game, w included.
func (w *Watcher) Watchers() int { return w.w.watchers() }

// Stop stops watching. Stopping twice does nothing.
func (w *Watcher) Stop() {
	w.once.Do(func() {
		l := w.live
		l.mu.Lock()
		defer l.mu.Unlock()
		l.watchers--
		w.w.add(-1)
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
