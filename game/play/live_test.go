package play

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
)

// newHub opens a hub of arenas, closed when the test ends.
func newHub(t *testing.T) *hub.Hub {
	t.Helper()
	h, err := hub.New(hub.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// join seats player in the arena called arena.
func join(t *testing.T, h *hub.Hub, arena, player string) *hub.Seat {
	t.Helper()
	s, err := h.Join(hub.Request{Arena: arena, Player: player})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newLive(t *testing.T, h *hub.Hub, cfg LiveConfig) *Live {
	t.Helper()
	l, err := NewLive(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func addSolo(t *testing.T, l *Live, name string, open bool) *Solo {
	t.Helper()
	g, _ := newSolo(t, nil)
	return l.Add(name, g, open)
}

func watch(t *testing.T, l *Live, name string) *Watcher {
	t.Helper()
	w, err := l.Watch(name)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestLiveConfig(t *testing.T) {
	if _, err := NewLive(nil, LiveConfig{PerGame: -1}); err == nil {
		t.Error("a negative bound accepted")
	}
	l := newLive(t, nil, LiveConfig{})
	if l.cfg.PerGame != DefaultWatchersPerGame || l.cfg.Total != DefaultWatchers {
		t.Errorf("zero config: %d a game, %d in all", l.cfg.PerGame, l.cfg.Total)
	}
}

// TestLiveNames: solo games' names are unique among solo games and open
// arenas, and watch finds the arena first.
func TestLiveNames(t *testing.T) {
	h := newHub(t)
	join(t, h, "den", "x")
	l := newLive(t, h, LiveConfig{})
	a, b, c := addSolo(t, l, "ann", true), addSolo(t, l, "ann", true), addSolo(t, l, "den", true)
	if a.Name() != "ann" || b.Name() != "ann-2" || c.Name() != "den-2" {
		t.Errorf("names %q %q %q, want ann ann-2 den-2", a.Name(), b.Name(), c.Name())
	}
	var ar *hub.Arena
	watch(t, l, "den").View(func(v View) { ar = v.Arena.Arena() })
	if ar == nil || ar != h.Arena("den") {
		t.Errorf("watch den: the View's arena %p, want the arena's %p", ar, h.Arena("den"))
	}
	var got, want *game.World
	watch(t, l, "ann-2").View(func(v View) { got = v.World })
	b.Game().View(func(v View) { want = v.World })
	if got != want {
		t.Errorf("watch ann-2: another world than the second solo game's")
	}
}

// TestLiveBounds: a game takes PerGame watchers, the registry Total; the
// next is refused with ErrWatchersFull, and a stopped watcher frees its
// place once however often it stops.
func TestLiveBounds(t *testing.T) {
	l := newLive(t, nil, LiveConfig{PerGame: 2, Total: 3})
	ann, bob := addSolo(t, l, "ann", true), addSolo(t, l, "bob", true)
	w1, w2 := watch(t, l, "ann"), watch(t, l, "ann")
	if _, err := l.Watch("ann"); !errors.Is(err, ErrWatchersFull) {
		t.Fatalf("a third watcher of ann: %v, want ErrWatchersFull", err)
	}
	watch(t, l, "bob")
	if _, err := l.Watch("bob"); !errors.Is(err, ErrWatchersFull) {
		t.Fatalf("a fourth watcher in all: %v, want ErrWatchersFull", err)
	}
	if ann.Watchers() != 2 || bob.Watchers() != 1 {
		t.Errorf("watchers: ann %d bob %d, want 2 and 1", ann.Watchers(), bob.Watchers())
	}
	w1.Stop()
	w1.Stop()
	if ann.Watchers() != 1 || w2.Watchers() != 1 {
		t.Errorf("after a stop: ann has %d watchers, want 1", ann.Watchers())
	}
	watch(t, l, "bob")
	if _, err := l.Watch("ann"); !errors.Is(err, ErrWatchersFull) {
		t.Errorf("past the total after a stop: %v, want ErrWatchersFull", err)
	}
}

// TestLiveHidden: a hidden solo game is neither listed nor watched; opened
// again, it is both. A removed game ends its watchers' Done.
func TestLiveHidden(t *testing.T) {
	l := newLive(t, nil, LiveConfig{})
	ann := addSolo(t, l, "ann", false)
	if g := l.Games(); len(g) != 0 {
		t.Errorf("a hidden game listed: %+v", g)
	}
	if _, err := l.Watch("ann"); !errors.Is(err, ErrNoGame) {
		t.Errorf("watching a hidden game: %v, want ErrNoGame", err)
	}
	ann.SetOpen(true)
	w := watch(t, l, "ann")
	if g := l.Games(); !slices.Equal(g, []LiveGame{{Name: "ann", Players: 1, Watchers: 1}}) {
		t.Errorf("games %+v", g)
	}
	ann.Remove()
	ann.Remove()
	select {
	case <-w.Done():
	default:
		t.Error("a removed game's watcher is not done")
	}
	if _, err := l.Watch("ann"); !errors.Is(err, ErrNoGame) {
		t.Errorf("watching a removed game: %v, want ErrNoGame", err)
	}
}

// TestLiveArenas: arenas are listed first with their players and
// watchers, while they have players.
func TestLiveArenas(t *testing.T) {
	h := newHub(t)
	join(t, h, "zoo", "a")
	join(t, h, "zoo", "b")
	c := join(t, h, "den", "c")
	l := newLive(t, h, LiveConfig{})
	addSolo(t, l, "ann", true)
	w := watch(t, l, "zoo")
	watch(t, l, "zoo")
	want := []LiveGame{
		{Name: "den", Arena: true, Players: 1},
		{Name: "zoo", Arena: true, Players: 2, Watchers: 2},
		{Name: "ann", Players: 1},
	}
	if g := l.Games(); !slices.Equal(g, want) {
		t.Errorf("games\n%+v, want\n%+v", g, want)
	}
	w.Stop()
	if n := h.Arena("zoo").Watchers(); n != 1 {
		t.Errorf("zoo has %d watchers after a stop, want 1", n)
	}

	// A player in an arena is watched through it, and asking for them
	// by name says which.
	if _, err := l.Watch("B"); !errors.Is(err, ErrNoGame) || !strings.Contains(err.Error(), "B plays in the arena zoo: watch zoo") {
		t.Errorf("watching a player in an arena: %v", err)
	}
	// An arena whose last player left has nothing to show while it
	// lingers: not listed.
	c.Leave()
	want = []LiveGame{{Name: "zoo", Arena: true, Players: 2, Watchers: 1}, {Name: "ann", Players: 1}}
	if g := l.Games(); !slices.Equal(g, want) {
		t.Errorf("games after den's last player left\n%+v, want\n%+v", g, want)
	}
}

// TestWatchSeesTheSoloGame: a watcher's View is the watched Game's, its
// world as it steps and, once the game ends, its result and rank.
func TestWatchSeesTheSoloGame(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLive(t, nil, LiveConfig{})
		g, _ := newSolo(t, newStore(t))
		l.Add("ann", g, true)
		w := watch(t, l, "ann")
		defer w.Stop()
		var seen View
		w.View(func(v View) { seen = v })
		if seen.World != view(g).World || seen.Phase != match.Title {
			t.Fatalf("the watcher sees %+v, want ann's title", seen)
		}
		over := play(t, g)
		g.Close()
		w.View(func(v View) { seen = v })
		if seen.Phase != match.Over || seen.Over.Entry != over.Entry || seen.Over.Rank != 1 || seen.High != over.Entry.Score {
			t.Errorf("the watcher sees %v, %+v, high %d; want ann's game over at rank 1", seen.Phase, seen.Over, seen.High)
		}
	})
}

// TestWatchArena: an arena's watcher sees its world in play, read under
// its lock, and the arena's step time.
func TestWatchArena(t *testing.T) {
	h := newHub(t)
	seat := join(t, h, "den", "ann")
	l := newLive(t, h, LiveConfig{})
	w := watch(t, l, "den")
	defer w.Stop()
	w.View(func(v View) {
		if v.World != seat.Arena().World() || v.Phase != match.Play {
			t.Errorf("the watcher sees %+v, want den's world in play", v)
		}
		if v.Arena.Arena() != seat.Arena() || v.Ship != -1 || v.Names[seat.Slot()] != "ann" || v.Watchers != 1 || v.Arena.Players() != 1 {
			t.Errorf("the watcher sees arena %p, ship %d, names %q, %d watching, %d players; want den's, -1, ann in slot %d, 1, 1",
				v.Arena.Arena(), v.Ship, v.Names, v.Watchers, v.Arena.Players(), seat.Slot())
		}
	})
	if n := testing.AllocsPerRun(100, func() { w.View(func(View) {}) }); n != 0 {
		t.Errorf("an arena's View allocates %v times", n)
	}
	h.Close()
	<-w.Done()
	if got := w.Gone(); got != "the arena den closed" {
		t.Errorf("Gone = %q", got)
	}
}

// TestSeatView: a seat's View is its Game's and its arena's, read under
// the arena's lock within the Game's: the seat's slot, the players'
// names, the watchers; it allocates nothing.
func TestSeatView(t *testing.T) {
	h := newHub(t)
	join(t, h, "den", "ann")
	seat := join(t, h, "den", "bob")
	l := newLive(t, h, LiveConfig{})
	defer watch(t, l, "den").Stop()
	g := NewSeat(seat, Scoring{Player: "bob"}, Controls{})
	defer g.Close()
	v := view(g)
	if v.Arena.Arena() != seat.Arena() || v.Ship != seat.Slot() || v.Watchers != 1 || v.World != seat.Arena().World() {
		t.Errorf("bob's View: arena %p, ship %d, %d watching; want den's, %d, 1", v.Arena.Arena(), v.Ship, v.Watchers, seat.Slot())
	}
	if v.Names[0] != "ann" || v.Names[seat.Slot()] != "bob" {
		t.Errorf("bob's View names %q", v.Names)
	}
	var players int
	fn := func(v View) { players += v.Arena.Players() }
	if n := testing.AllocsPerRun(100, func() { g.View(fn) }); n != 0 {
		t.Errorf("a seat's View allocates %v times", n)
	}
}

// TestSoloViewCountsWatchers: a solo game offered to watchers counts
// them in its own View, and says when it is hidden.
func TestSoloViewCountsWatchers(t *testing.T) {
	l := newLive(t, nil, LiveConfig{})
	ann := addSolo(t, l, "ann", true)
	w := watch(t, l, "ann")
	if v := view(ann.Game()); v.Watchers != 1 || v.Hidden || v.Ship != 0 {
		t.Errorf("ann's View: %d watching, hidden %v, ship %d; want 1, not hidden, 0", v.Watchers, v.Hidden, v.Ship)
	}
	ann.SetOpen(false)
	if got := w.Gone(); got != "ann hid their game" {
		t.Errorf("Gone = %q", got)
	}
	w.Stop()
	if v := view(ann.Game()); v.Watchers != 0 || !v.Hidden {
		t.Errorf("ann's View hidden: %d watching, hidden %v", v.Watchers, v.Hidden)
	}
	ann.SetOpen(true)
	w = watch(t, l, "ann")
	ann.Remove()
	if got := w.Gone(); got != "ann left: the game is over" {
		t.Errorf("Gone = %q", got)
	}
}

// TestHiddenEndsWatchers: hiding a solo game ends its watchers at once
// (Done), and opened again it takes new ones, which its removal ends.
func TestHiddenEndsWatchers(t *testing.T) {
	l := newLive(t, nil, LiveConfig{})
	ann := addSolo(t, l, "ann", true)
	w := watch(t, l, "ann")
	ann.SetOpen(false)
	ann.SetOpen(false)
	select {
	case <-w.Done():
	default:
		t.Fatal("a hidden game's watcher is not done")
	}
	w.Stop()
	ann.SetOpen(true)
	w2 := watch(t, l, "ann")
	select {
	case <-w2.Done():
		t.Fatal("a watcher of the game opened again is done")
	default:
	}
	ann.Remove()
	select {
	case <-w2.Done():
	default:
		t.Error("a removed game's watcher is not done")
	}
	if n := l.Watchers(); n != 1 {
		t.Errorf("%d watchers, want 1 (w2 not stopped)", n)
	}
}
