package serve

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	gameplay "poolroids/game/play"
	"poolroids/ui"
)

// watchPlay is arenaPlay with live games to watch, wired as `poolroids
// serve` wires them: solo games offered through live, watch NAME.
func watchPlay(h *hub.Hub, live *gameplay.Live) PlayFunc {
	return func(ctx context.Context, screen tcell.Screen, s Session) (int, error) {
		o := ui.Options{Seed: 1, ASCII: s.ASCII, Keys: s.Keys, Player: s.Player(), Name: s.Name, Live: live, Watching: s.SetWatching}
		var res ui.Result
		var err error
		switch c := s.Command; c.Verb {
		case VerbWatch:
			w, werr := live.Watch(c.Name)
			if werr != nil {
				return 0, &RefusedError{Message: werr.Error()}
			}
			if res, err = ui.Watch(ctx, screen, w, o); err == nil && res.Reason == ui.ReasonGone {
				return 0, &EndError{Message: ui.Gone(w)}
			}
		case VerbJoin:
			seat, jerr := ui.Join(h, ui.Choice{Kind: ui.ChoiceJoin, Name: c.Name}, s.Name, s.Address())
			if jerr != nil {
				return 0, &RefusedError{Message: jerr.Error()}
			}
			defer seat.Leave()
			o.Arena = seat
			res, err = ui.Run(ctx, screen, o)
		default:
			res, err = ui.PlayLobby(ctx, screen, ui.LobbyOptions{Game: o, Hub: h, Name: s.Name})
		}
		return res.Score, err
	}
}

func startWatch(t *testing.T, cfg gameplay.LiveConfig) (*testServer, *hub.Hub, *gameplay.Live) {
	t.Helper()
	return startWatchOn(t, cfg, startServer, 0)
}

// startWatchOn is startWatch with the server started by start, with the
// idle limit idle (0: its default).
func startWatchOn(t *testing.T, cfg gameplay.LiveConfig, start func(testing.TB, Config) *testServer, idle time.Duration) (*testServer, *hub.Hub, *gameplay.Live) {
	t.Helper()
	h, err := hub.New(hub.Config{Linger: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	live, err := gameplay.NewLive(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := start(t, Config{Play: watchPlay(h, live), Idle: idle})
	t.Cleanup(h.Close)
	return ts, h, live
}

// TestWatcherNotIdle: a watcher, who has no reason to type, outlasts the
// server's idle limit while the game it watches goes on; back in the
// lobby, the limit applies again. It runs on a synctest bubble's clock,
// the server in memory.
func TestWatcherNotIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle = 500 * time.Millisecond
		ts, _, live := startWatchOn(t, gameplay.LiveConfig{}, startPipeServer, idle)
		ann := playSolo(t, ts, live, "ann")
		wes := play(t, ts.mustDial(t, "wes", nil), ptyOpts{w: 120, h: 40})
		wes.waitScreen(t, "WATCH")
		for range 4 { // the lobby lists ann's game among the live ones
			wes.keys(t, "\x1b[B")
		}
		wes.keys(t, "\r")
		wes.waitScreen(t, "1 watching", "tab/v panel")
		for start := time.Now(); time.Since(start) < 3*idle; time.Sleep(idle / 5) {
			ann.keys(t, "w") // the player types; the watcher does not
		}
		if strings.Contains(ts.log.String(), "user=wes") && strings.Contains(ts.log.String(), "reason=idle") {
			t.Fatalf("the watcher was cut as idle:\n%s", ts.log.String())
		}
		wes.keys(t, "q") // back to the lobby
		wes.waitScreen(t, "WATCH")
		if st := wes.exit(t); st != 1 || !strings.Contains(wes.output(), "no input for 500ms") {
			t.Errorf("idle in the lobby: status %d, output ends %q", st, tail(wes.output()))
		}
	})
}

// soloState is what a watcher's keys must not change in a solo game.
type soloState struct {
	world    *game.World
	ship     game.Ship
	paused   bool
	bullets  string
	phase    game.Phase
	watchers int
	steps    uint64 // not compared: the game goes on
}

func soloOf(t *testing.T, live *gameplay.Live, name string) soloState {
	t.Helper()
	src := live.Solo(name)
	if src == nil {
		t.Fatalf("no solo game %s", name)
	}
	var st soloState
	src.Game().View(func(v gameplay.View) {
		w := v.World
		p := w.Player(0)
		st = soloState{world: w, ship: p.Ship, paused: w.Paused(), bullets: string(w.Bullets().Strategy()), phase: p.Phase, steps: w.Steps()}
	})
	st.watchers = src.Watchers()
	return st
}

// playSolo logs name in, plays a solo game from the lobby and waits until
// watchers can find it.
func playSolo(t *testing.T, ts *testServer, live *gameplay.Live, name string) *player {
	t.Helper()
	p := play(t, ts.mustDial(t, name, nil), ptyOpts{w: 120, h: 40})
	p.waitScreen(t, "Play solo")
	p.keys(t, " ") // Play solo
	p.waitScreen(t, "P O O L R O I D S")
	p.keys(t, " ") // from the title into the game
	if !waitUntil(t, func() bool { return live.Solo(name) != nil }) {
		t.Fatalf("%s's solo game never became live", name)
	}
	return p
}

// TestWatchSolo: a watcher sees the player's game and changes nothing in
// it; the player sees one watcher; the bound refuses the next watcher; a
// hidden game is neither listed nor watched; a lobby watcher is told when
// the player leaves and is back in the lobby.
func TestWatchSolo(t *testing.T) {
	ts, _, live := startWatch(t, gameplay.LiveConfig{PerGame: 1})
	ann := playSolo(t, ts, live, "ann")

	lobby := play(t, ts.mustDial(t, "lou", nil), ptyOpts{w: 120, h: 40})
	lobby.waitScreen(t, "WATCH", "0 solo")

	bob := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: 120, h: 40, cmd: "watch ann"})
	bob.waitScreen(t, "1 watching", "tab/v panel")
	ann.waitScreen(t, "1 watching")

	carl := play(t, ts.mustDial(t, "carl", nil), ptyOpts{w: 120, h: 40, cmd: "watch ann"})
	if st := carl.exit(t); st != 1 || !strings.Contains(carl.output(), "too many watchers") {
		t.Errorf("a second watcher past the bound: status %d, output %q", st, carl.output())
	}

	// Every key of the game, from the watcher, then the help: once it
	// shows, the keys before it have been read.
	before := soloOf(t, live, "ann")
	if before.phase != game.Playing {
		t.Fatalf("ann's ship is %v, want playing", before.phase)
	}
	bob.keys(t, "wwwaaaddd hhh pxb2\x1b[A\x1b[C\x1b[D\r ")
	bob.keys(t, "?")
	bob.waitScreen(t, "your keys move nothing")
	// A few steps, in which keys passed on would show (unless p paused
	// the game: then it never steps again).
	shown := soloOf(t, live, "ann").steps
	var after soloState
	if !waitUntil(t, func() bool { after = soloOf(t, live, "ann"); return after.steps >= shown+6 }) {
		t.Fatalf("ann's game stopped stepping at step %d", after.steps)
	}
	if after.world != before.world || after.ship.Vel != before.ship.Vel || after.ship.Angle != before.ship.Angle ||
		after.paused || after.bullets != before.bullets {
		t.Errorf("the watcher's keys changed ann's game:\nbefore %+v\nafter  %+v", before, after)
	}
	if after.watchers != 1 {
		t.Errorf("%d watchers, want 1", after.watchers)
	}
	bob.keys(t, "?") // takes the help down

	// The watcher sees the player's game change (x asks first in a game).
	ann.keys(t, "xx")
	ann.waitScreen(t, "STRESS AUTOPILOT")
	bob.waitScreen(t, "STRESS AUTOPILOT")

	// Hidden: the watcher is told, the lobby drops it, watch refuses it.
	ann.keys(t, "o")
	ann.waitScreen(t, "hidden")
	if st := bob.exit(t); st != 0 || !strings.Contains(bob.output(), "ann hid their game") {
		t.Errorf("watcher of a hidden game: status %d, output %q", st, bob.output())
	}
	lobby.waitScreen(t, "no live game")
	dan := play(t, ts.mustDial(t, "dan", nil), ptyOpts{w: 120, h: 40, cmd: "watch ann"})
	if st := dan.exit(t); st != 1 || !strings.Contains(dan.output(), "no live game") {
		t.Errorf("watching a hidden game: status %d, output %q", st, dan.output())
	}

	// Open again, watched from the lobby: the player leaves, the watcher
	// is told in the lobby.
	ann.keys(t, "o")
	lobby.waitScreen(t, "0 solo")
	lobby.keys(t, "\x1b[B\x1b[B\r")
	lobby.waitScreen(t, "1 watching", "STRESS AUTOPILOT")
	ann.keys(t, "q")
	ann.waitScreen(t, "Play solo")
	lobby.waitScreen(t, "ann left: the game is over", "Play solo")
	lobby.keys(t, "q")
	ann.keys(t, "q")
	if st := lobby.exit(t); st != 0 {
		t.Errorf("leaving the lobby after watching: status %d", st)
	}
	ann.exit(t)
}

// TestWatchArena: an arena's watcher sees it and its player sees the
// watcher; when the arena closes the watcher is told.
func TestWatchArena(t *testing.T) {
	ts, h, _ := startWatch(t, gameplay.LiveConfig{})
	ann := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 120, h: 40, cmd: "join den"})
	ann.waitScreen(t, "arena den")
	bob := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: 120, h: 40, cmd: "watch den"})
	bob.waitScreen(t, "1 watching", "tab/v panel", "arena den", "score sh miss")
	ann.waitScreen(t, "1 watching")
	a := h.Arena("den")
	before := shipOf(a, 0)
	bob.keys(t, "wwwddd hhh\x1b[A")
	bob.keys(t, "?")
	bob.waitScreen(t, "your keys move nothing")
	waitSteps(t, a, 6) // in which keys passed on would show
	if after := shipOf(a, 0); after.Ship.Vel != before.Ship.Vel || after.Ship.Angle != before.Ship.Angle {
		t.Errorf("the watcher's keys moved ann's ship: %+v, then %+v", before.Ship, after.Ship)
	}
	ann.keys(t, "qq")
	ann.exit(t)
	if st := bob.exit(t); st != 0 || !strings.Contains(bob.output(), "the arena den closed") {
		t.Errorf("watcher of a closed arena: status %d, output %q", st, bob.output())
	}
}

// TestWatchNoLeaks: watchers coming and going leave no goroutine behind.
func TestWatchNoLeaks(t *testing.T) {
	ts, _, live := startWatch(t, gameplay.LiveConfig{})
	ann := playSolo(t, ts, live, "ann")
	warm := play(t, ts.mustDial(t, "warm", nil), ptyOpts{w: 100, h: 30, cmd: "watch ann"})
	warm.waitScreen(t, "1 watching")
	warm.keys(t, "q")
	warm.exit(t)
	conns := func() int {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return len(ts.conns)
	}
	waitUntil(t, func() bool { return conns() == 1 }) // ann's
	base := runtime.NumGoroutine()
	for i := range 20 {
		comeAndGo(t, ts, i, ptyOpts{w: 100, h: 30, quiet: true, cmd: "watch ann"}, "q", "1 watching")
	}
	if !waitUntil(t, func() bool { return conns() == 1 && live.Solo("ann").Watchers() == 0 }) {
		t.Fatalf("%d watchers left", live.Solo("ann").Watchers())
	}
	if n := settle(t, base); n > base {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("goroutines: %d before, %d after 20 watchers\n%s", base, n, buf)
	}
	ann.keys(t, "qq") // in a game, q asks first
	ann.waitScreen(t, "Play solo")
	ann.keys(t, "q")
	ann.exit(t)
}
