package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/game/scores"
)

// watcherOf is a session watching w, drawn on a simulation screen of
// w×h cells as Watch sets it up, without its goroutines.
func watcherOf(t testing.TB, hw *play.Watcher, w, h int) (*session, tcell.SimulationScreen) {
	t.Helper()
	scr := newSim(t, "UTF-8", w, h)
	s, err := newWatchSession(scr, hw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.syncList()
	s.root.SetRect(0, 0, w, h)
	return s, scr
}

// watchArena is a watcher of h's arena name, drawn on w×h cells.
func watchArena(t *testing.T, h *hub.Hub, name string, w, ht int) (*session, tcell.SimulationScreen) {
	t.Helper()
	live, err := play.NewLive(h, play.LiveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	hw, err := live.Watch(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hw.Stop)
	return watcherOf(t, hw, w, ht)
}

// watchedSolo is a solo game drawn on w×h cells with opts, offered to
// watchers, and a watcher of it drawn on ww×wh cells.
func watchedSolo(t *testing.T, opts Options, w, h, ww, wh int) (*drawn, *session, tcell.SimulationScreen) {
	t.Helper()
	live, err := play.NewLive(nil, play.LiveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Live = live
	d := newDrawn(t, "UTF-8", w, h, opts)
	d.s.offer()
	t.Cleanup(d.s.solo().Remove)
	hw, err := live.Watch(d.s.solo().Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hw.Stop)
	ws, scr := watcherOf(t, hw, ww, wh)
	return d, ws, scr
}

// TestWatchSoloDraw: a watcher of a busy solo game draws its world, header
// and panel (watch-stress-160x50), the player's header counts the watcher
// (watched-200x60), the watcher's keys change nothing in the game, neither
// frame allocates, and o hides the game (hidden-200x60).
func TestWatchSoloDraw(t *testing.T) { synctest.Test(t, testWatchSoloDraw) }

func testWatchSoloDraw(t *testing.T) {
	live, err := play.NewLive(nil, play.LiveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	d := newDrawn(t, "UTF-8", 200, 60, Options{Seed: 9, Stress: true, Live: live, Name: "Ann"})
	d.s.offer()
	t.Cleanup(d.s.solo().Remove)
	busyWorld(t, d.s, 400) // before the watcher's first sample
	hw, err := live.Watch("ann")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hw.Stop)
	ws, scr := watcherOf(t, hw, 160, 50)
	ws.sample()
	ws.root.Draw(scr)
	scr.Show()
	looksLike(t, scr, "watch-stress-160x50")
	d.frame()
	looksLike(t, d.scr, "watched-200x60")

	ship, world := d.s.world().Player(0).Ship, d.s.world()
	for _, r := range "wasd hpxb1?" {
		ws.onKey(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
	}
	for _, k := range []tcell.Key{tcell.KeyUp, tcell.KeyLeft, tcell.KeyEnter, tcell.KeyEsc} {
		ws.onKey(tcell.NewEventKey(k, 0, tcell.ModNone))
	}
	if d.s.world() != world || d.s.world().Player(0).Ship != ship || d.s.world().Paused() || !d.s.game().Stress() {
		t.Error("a watcher's keys changed the game")
	}
	select {
	case <-ws.life.quit:
		t.Fatal("a watcher's key other than q ended the watch")
	default:
	}
	form := ws.fit.form
	ws.onKey(tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone))
	if ws.fit.form == form || ws.list.HasFocus() {
		t.Errorf("Tab: the panel's form stays %v (list focused: %v), want the next form", form, ws.list.HasFocus())
	}

	for name, draw := range map[string]func(){
		"watcher": func() { ws.root.Draw(scr) },
		"player":  func() { d.s.root.Draw(d.scr) },
	} {
		if n := testing.AllocsPerRun(30, draw); n != 0 {
			t.Errorf("%s: %v allocs per frame, want 0", name, n)
		}
	}

	d.key(tcell.KeyRune, 'o')
	d.frame()
	if d.s.solo().Open() {
		t.Error("o did not hide the game")
	}
	looksLike(t, d.scr, "hidden-200x60")
	select {
	case <-hw.Done():
	default:
		t.Error("the watcher of a hidden game watches on")
	}
	if g := live.Games(); len(g) != 0 {
		t.Errorf("a hidden game listed: %+v", g)
	}
	ws.onKey(tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone))
	select {
	case <-ws.life.quit:
	default:
		t.Error("q did not end the watch")
	}
}

// TestWatchSoloGameOver: a watcher's game-over screen is the watched
// Game's result, with its rank once saved, formatted by the watcher
// (watch-game-over-100x30).
func TestWatchSoloGameOver(t *testing.T) { synctest.Test(t, testWatchSoloGameOver) }

func testWatchSoloGameOver(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, ws, scr := watchedSolo(t, Options{Seed: 7, Scores: store, Player: "ann"}, 100, 30, 100, 30)
	d.key(tcell.KeyEnter, 0)
	for i := 0; d.s.game().Phase() == match.Play; i++ {
		if i > 600*game.TPS {
			t.Fatalf("step %d: no game over", i)
		}
		d.s.game().Step(game.Input{Fire: i%8 == 0, Left: true, Hyperspace: i%30 == 0})
		time.Sleep(time.Second / game.TPS) // at the game's pace: the watcher's rates are per second
	}
	d.s.game().Close() // waits for the save
	ws.root.Draw(scr)
	scr.Show()
	looksLike(t, scr, "watch-game-over-100x30")
}

// TestWatchPause: a watcher of a paused game is told that only leaving
// is up to them; the player's overlay offers p to resume.
func TestWatchPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, ws, scr := watchedSolo(t, Options{Seed: 7, Player: "ann"}, 100, 30, 100, 30)
		d.key(tcell.KeyEnter, 0)
		d.key(tcell.KeyRune, 'p')
		d.frame()
		ws.root.Draw(scr)
		scr.Show()
		mine, theirs := d.text(), screenText(scr)
		if !strings.Contains(mine, "p: resume") {
			t.Errorf("the player's paused screen offers no p:\n%s", mine)
		}
		if !strings.Contains(theirs, "PAUSED") || !strings.Contains(theirs, "q: leave") || strings.Contains(theirs, "p: resume") {
			t.Errorf("the watcher's paused screen, want PAUSED and q: leave only:\n%s", theirs)
		}
	})
}

// TestWatchArenaDraw: a watcher of an arena sees its ships, its players
// box and how many watch, under a header that names the arena and no one
// player's score (watch-arena-200x60), and a frame allocates nothing.
func TestWatchArenaDraw(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, err := hub.New(hub.Config{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		for _, name := range []string{"ann", "bob"} {
			seat, err := h.Join(hub.Request{Arena: "den", Player: name})
			if err != nil {
				t.Fatal(err)
			}
			seat.SetAutopilot(true)
			t.Cleanup(seat.Leave)
		}
		ws, scr := watchArena(t, h, "den", 200, 60)
		var ar *hub.Arena
		ws.scene.View(func(v play.View) { ar = v.Arena.Arena() })
		busy := func() (flying bool) {
			ar.View(func(v hub.ArenaView) { flying = v.World().Bullets().Len() > 0 })
			return flying
		}
		for deadline := time.Now().Add(10 * time.Second); !busy(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("no bullet ever flew in the arena")
			}
		}
		ws.sample()
		ws.root.Draw(scr)
		ws.root.Draw(scr)
		scr.Show()
		looksLike(t, scr, "watch-arena-200x60")
		if n := testing.AllocsPerRun(30, func() { ws.root.Draw(scr) }); n != 0 {
			t.Errorf("%v allocs per frame, want 0", n)
		}
	})
}

// BenchmarkWatchPaint measures how long a frame holds a busy solo game's
// lock (paint: the copy of the world and header onto the canvas), for its
// player and for a watcher: a watcher must cost the game no more than its
// player's own frames do.
func BenchmarkWatchPaint(b *testing.B) {
	live, err := play.NewLive(nil, play.LiveConfig{})
	if err != nil {
		b.Fatal(err)
	}
	scr := newSim(b, "UTF-8", 200, 60)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 9, Stress: true, Live: live})
	if err != nil {
		b.Fatal(err)
	}
	s.offer()
	busyWorld(b, s, 400)
	hw, err := live.Watch(s.solo().Name())
	if err != nil {
		b.Fatal(err)
	}
	ws, wscr := watcherOf(b, hw, 200, 60)
	s.root.SetRect(0, 0, 200, 60)
	s.root.Draw(scr)
	ws.root.Draw(wscr)
	paint := func(v play.View) { s.paint(&v) }
	wpaint := func(v play.View) { ws.paint(&v) }
	b.Run("player", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.scene.View(paint)
		}
	})
	b.Run("watcher", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ws.scene.View(wpaint)
		}
	})
}

// TestWatchArenaEmpties: a watcher of an arena whose every player left
// is told so over the field, which stands still until the arena closes
// (the watch then ends, and the lobby says the arena closed: see Gone);
// 1-0 say why a watcher switches nothing.
func TestWatchArenaEmpties(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{Linger: time.Minute})
		seat, err := h.Join(hub.Request{Arena: "den", Player: "ann"})
		if err != nil {
			t.Fatal(err)
		}
		ws, scr := watchArena(t, h, "den", 120, 40)
		draw := func() string {
			ws.root.Draw(scr)
			scr.Show()
			return screenText(scr)
		}
		if text := draw(); strings.Contains(text, emptyArenaScreen[0]) {
			t.Errorf("ann plays, and the watcher is told the arena ended:\n%s", text)
		}
		ws.onKey(tcell.NewEventKey(tcell.KeyRune, '5', tcell.ModNone))
		if text := draw(); !strings.Contains(text, errWatching.Error()) {
			t.Errorf("a watcher's 5 says nothing:\n%s", text)
		}
		seat.Leave()
		time.Sleep(time.Second)
		if text := draw(); !strings.Contains(text, emptyArenaScreen[0]) || !strings.Contains(text, emptyArenaScreen[2]) {
			t.Errorf("every player left, and the watcher is not told:\n%s", text)
		}
	})
}

// TestWatcherKeys: a watcher of a game on its title screen, at 80×24, is
// offered none of the player's keys: the compact panel names the player,
// who switches the pools, where the player's says what 1-0 switch; the
// title says the player has not started, where the player's says to
// press space.
func TestWatcherKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, ws, scr := watchedSolo(t, Options{Player: "ann"}, 80, 24, 80, 24)
		for _, want := range []string{"1-0 → both", "press space to play"} {
			if txt := d.text(); !strings.Contains(txt, want) {
				t.Errorf("the player's screen does not say %q:\n%s", want, txt)
			}
		}
		ws.frame()
		txt := screenText(scr)
		for _, want := range []string{"pools: " + d.s.solo().Name(), "the player has not started yet", " DEMO "} {
			if !strings.Contains(txt, want) {
				t.Errorf("the watcher's screen does not say %q:\n%s", want, txt)
			}
		}
		for _, key := range []string{"1-0", "space"} {
			if strings.Contains(txt, key) {
				t.Errorf("the watcher's screen offers %s:\n%s", key, txt)
			}
		}
	})
}
