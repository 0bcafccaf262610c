package serve

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/pool"
	"poolroids/ui"
)

// arenaPlay plays the real game with arenas and the lobby, wired as
// `poolroids serve` wires it.
func arenaPlay(h *hub.Hub) PlayFunc {
	return func(ctx context.Context, screen tcell.Screen, s Session) (int, error) {
		o := ui.Options{Seed: 1, ASCII: s.ASCII, Keys: s.Keys, Player: s.Player()}
		if s.Command.Verb == VerbLobby {
			res, err := ui.PlayLobby(ctx, screen, ui.LobbyOptions{Game: o, Hub: h, Name: s.Name})
			return res.Score, err
		}
		if c := s.Command; c.Verb == VerbJoin || c.Verb == VerbNew {
			kind := ui.ChoiceJoin
			if c.Verb == VerbNew {
				kind = ui.ChoiceNew
			}
			seat, err := ui.Join(h, ui.Choice{Kind: kind, Name: c.Name, PvP: c.PvP}, s.Name, s.Address())
			if err != nil {
				return 0, &RefusedError{Message: err.Error()}
			}
			defer seat.Leave()
			o.Arena = seat
		}
		res, err := ui.Run(ctx, screen, o)
		return res.Score, err
	}
}

func startArenas(t *testing.T) (*testServer, *hub.Hub) {
	t.Helper()
	h, err := hub.New(hub.Config{Linger: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Play: arenaPlay(h)})
	t.Cleanup(h.Close) // after the server's shutdown: cleanups run last first
	return ts, h
}

// shipOf reads slot's player in the arena.
func shipOf(a *hub.Arena, slot int) (p game.Player) {
	a.View(func(v hub.ArenaView) { p = v.World().Player(slot) })
	return p
}

// stepsOf reads how many times a's world has stepped.
func stepsOf(a *hub.Arena) (n uint64) {
	a.View(func(v hub.ArenaView) { n = v.World().Steps() })
	return n
}

// waitSteps waits until a's world has stepped n more times.
func waitSteps(t *testing.T, a *hub.Arena, n uint64) {
	t.Helper()
	if from := stepsOf(a); !waitUntil(t, func() bool { return stepsOf(a) >= from+n }) {
		t.Fatalf("arena %s stopped stepping at step %d", a.Name(), stepsOf(a))
	}
}

// TestArena: two players join one arena over SSH and see each other; one's
// keys move only its ship; the creator's strategy switch shows on both
// screens and the other's is refused; one leaves and the other plays on;
// the arena closes after the last one leaves.
func TestArena(t *testing.T) {
	ts, h := startArenas(t)
	ann := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 120, h: 40, cmd: "join den"})
	ann.waitScreen(t, "arena den", "ann")
	bobc := ts.mustDial(t, "bob\x1b[31m", nil) // escapes are cleaned out of names
	bob := play(t, bobc, ptyOpts{w: 120, h: 40, cmd: "join DEN"})
	bob.waitScreen(t, "arena den", "ann", "bob", "bob joined")
	ann.waitScreen(t, "bob", "bob joined")
	if s := bob.vt.text(); strings.Contains(s, "[31m") {
		t.Errorf("an escape sequence of a name reached a screen:\n%s", s)
	}

	a := h.Arena("den")
	if a == nil {
		t.Fatal("no arena den")
	}
	// Both ships in the field, then ann turns and thrusts.
	if !waitUntil(t, func() bool { return shipOf(a, 0).Ship.Alive && shipOf(a, 1).Ship.Alive }) {
		t.Fatal("the ships never entered the field")
	}
	bobShip := shipOf(a, 1).Ship
	annShip := shipOf(a, 0).Ship
	if !waitUntil(t, func() bool {
		ann.keys(t, "aw") // held down: the terminal repeats the keys
		s := shipOf(a, 0).Ship
		return s.Pos != annShip.Pos && s.Angle != annShip.Angle
	}) {
		t.Errorf("ann's keys did not move ann's ship")
	}
	if s := shipOf(a, 1).Ship; s.Pos != bobShip.Pos || s.Angle != bobShip.Angle {
		t.Errorf("ann's keys moved bob's ship: %+v, was %+v", s, bobShip)
	}

	// The creator switches; both see it. bob may not.
	dense := strategyKey(t, pool.Dense)
	ann.keys(t, dense)
	ann.waitScreen(t, "ann switched to dense")
	bob.waitScreen(t, "ann switched to dense", "pools: ann at")
	if !waitUntil(t, func() bool { return strategyRow(bob.vt.text()) == "dense dense" }) {
		t.Errorf("bob's panel shows strategies %q, want dense dense", strategyRow(bob.vt.text()))
	}
	bob.keys(t, strategyKey(t, pool.Scan))
	bob.waitScreen(t, "only ann switches the pools")
	waitSteps(t, a, 6) // in which a switch would show
	var b pool.Strategy
	a.View(func(v hub.ArenaView) { b = v.World().Bullets().Strategy() })
	if b != pool.Dense {
		t.Errorf("bob's switch went through: bullets %v", b)
	}

	// bob drops the connection; ann plays on without bob's ship.
	bobc.Close()
	ann.waitScreen(t, "bob left")
	if !waitUntil(t, func() bool { return shipOf(a, 1).Phase == game.Absent }) {
		t.Error("bob's ship stayed in the arena")
	}
	n := stepsOf(a)
	if !waitUntil(t, func() bool { return stepsOf(a) > n+30 }) {
		t.Error("the arena stopped with one player left")
	}

	// ann quits (q asks first in a game); the arena closes.
	ann.keys(t, "qq")
	if st := ann.exit(t); st != 0 {
		t.Errorf("ann's exit status %d", st)
	}
	if !waitUntil(t, func() bool { return h.Arena("den") == nil }) {
		t.Error("the arena is still open after its last player left")
	}
	if !waitUntil(t, func() bool { return closed(a.Done()) }) {
		t.Error("the arena's goroutine did not end")
	}
}

// strategyKey is the key that picks s.
func strategyKey(t *testing.T, s pool.Strategy) string {
	t.Helper()
	for i, x := range pool.Strategies() {
		if x == s {
			return string("1234567890"[i])
		}
	}
	t.Fatalf("no key for %v", s)
	return ""
}

// TestArenaRefused: a new arena of a taken name, a full arena, a command
// without a terminal and watching are refused with a line that says why.
func TestArenaRefused(t *testing.T) {
	ts, _ := startArenas(t)
	p := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 100, h: 30, cmd: "new den --pvp"})
	p.waitScreen(t, "arena den · pvp")

	q := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: 100, h: 30, cmd: "new den"})
	if st := q.exit(t); st != 1 || !strings.Contains(q.vt.text(), "an arena of that name is open") {
		t.Errorf("new of a taken name: status %d, screen:\n%s", st, q.vt.text())
	}
	st, out := run(t, ts.mustDial(t, "bob", nil), "join den")
	if st != 1 || !strings.Contains(out, "connect with a terminal") {
		t.Errorf("join without a terminal: status %d, %q", st, out)
	}
	st, out = run(t, ts.mustDial(t, "bob", nil), "join")
	if st != 1 || !strings.Contains(out, "join needs a name") {
		t.Errorf("join without a name: status %d, %q", st, out)
	}
	p.keys(t, "qq")
	p.exit(t)
}

// TestArenaNoLeaks joins and leaves an arena 50 times, half quitting, half
// dropping the connection, beside a player who stays: no goroutine is
// left, and the arena closes once everyone has gone.
func TestArenaNoLeaks(t *testing.T) {
	ts, h := startArenas(t)
	warm := play(t, ts.mustDial(t, "warm", nil), ptyOpts{w: 100, h: 30, cmd: "join warm"})
	warm.waitScreen(t, "arena warm")
	warm.keys(t, "qq")
	warm.exit(t)
	ts.waitIdle(t)
	waitUntil(t, func() bool { return h.Arena("warm") == nil })
	base := runtime.NumGoroutine()

	stay := play(t, ts.mustDial(t, "stay", nil), ptyOpts{w: 100, h: 30, cmd: "join loop", quiet: true})
	stay.waitScreen(t, "arena loop")
	for i := range 50 {
		comeAndGo(t, ts, i, ptyOpts{w: 100, h: 30, quiet: true, cmd: "join loop"}, "qq", "arena loop", "leaky")
	}
	stay.keys(t, "qq")
	stay.exit(t)
	ts.waitIdle(t)
	if !waitUntil(t, func() bool { return h.Arena("loop") == nil }) {
		t.Fatal("the arena is still open")
	}
	if n := settle(t, base); n > base {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("goroutines: %d before, %d after 50 arena sessions\n%s", base, n, buf)
	}
}

// TestLobby: a player without a command meets the lobby, sees the open
// arena, joins it, and on quitting comes back to the lobby, which q leaves.
func TestLobby(t *testing.T) {
	ts, _ := startArenas(t)
	ann := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 120, h: 40, cmd: "join den"})
	ann.waitScreen(t, "arena den")

	carl := play(t, ts.mustDial(t, "carl", nil), ptyOpts{w: 120, h: 40})
	carl.waitScreen(t, "Play solo", "den", "1/8")
	carl.keys(t, "\x1b[B\r") // down: from Play solo to den
	carl.waitScreen(t, "arena den", "ann", "carl")
	ann.waitScreen(t, "carl joined")
	carl.keys(t, "q") // in a game, q asks first
	carl.waitScreen(t, "quit?")
	carl.keys(t, "q")
	carl.waitScreen(t, "Play solo")
	ann.waitScreen(t, "carl left")

	carl.keys(t, "\x1b[H ") // home: back up to Play solo
	carl.waitScreen(t, "pools", "P O O L R O I D S")
	carl.keys(t, "q")
	carl.waitScreen(t, "Play solo")
	carl.keys(t, "q")
	if st := carl.exit(t); st != 0 {
		t.Errorf("leaving the lobby: exit status %d", st)
	}
	ann.keys(t, "qq")
	ann.exit(t)
}

// TestArenaShutdown: shutting the server down tells every player of an
// arena, and one in the lobby.
func TestArenaShutdown(t *testing.T) {
	ts, _ := startArenas(t)
	var players []*player
	for _, o := range []ptyOpts{{cmd: "join den"}, {cmd: "join den"}, {}} {
		o.w, o.h = 100, 30
		p := play(t, ts.mustDial(t, "frank", nil), o)
		if o.cmd != "" {
			p.waitScreen(t, "arena den")
		} else {
			p.waitScreen(t, "Play solo")
		}
		players = append(players, p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	for _, p := range players {
		if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "poolroids: server shutting down") {
			t.Errorf("at shutdown: status %d, output ends %q", st, tail(p.output()))
		}
	}
	<-ts.served
	ts.served <- ErrServerClosed // for the cleanup's check
}

// TestEscAtOnce: over SSH a lone Esc acts when pressed, not when the next
// key comes: it closes the lobby's new-arena form and the game's key help,
// and leaves the lobby.
func TestEscAtOnce(t *testing.T) {
	ts, _ := startArenas(t)
	p := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 120, h: 40})
	gone := func(what string) {
		t.Helper()
		if !waitUntil(t, func() bool { return !strings.Contains(p.vt.text(), what) }) {
			t.Fatalf("%q still shows after Esc:\n%s", what, p.vt.text())
		}
	}
	p.waitScreen(t, "Play solo")
	p.keys(t, "n")
	p.waitScreen(t, "(*) co-op")
	p.keys(t, "\x1b")
	gone("(*) co-op")
	p.keys(t, " ") // Play solo
	p.waitScreen(t, "P O O L R O I D S")
	p.keys(t, "?")
	p.waitScreen(t, "any key closes this help")
	p.keys(t, "\x1b")
	gone("any key closes this help")
	p.keys(t, "q")
	p.waitScreen(t, "Play solo")
	p.keys(t, "\x1b")
	if st := p.exit(t); st != 0 {
		t.Errorf("Esc in the lobby: exit status %d, want 0", st)
	}
}
