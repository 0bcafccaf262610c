package match

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// replayed plays a game's replay to the end, failing the test unless every
// checksum matches, and returns the player.
func replayed(t *testing.T, data []byte) *replay.Player {
	t.Helper()
	if data == nil {
		t.Fatal("no replay")
	}
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRecorded: each game is recorded from its own start, pauses and
// strategy switches included, and its result carries a replay that checks
// to its end with its score; the demo before it is not in it.
func TestRecorded(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 7}, false)
	m.SetPlayer("ann")
	for range 300 {
		m.Step(game.Input{})
	}
	for g := range 2 {
		if err := m.SetStrategies("", pool.Dense); err != nil { // between games
			t.Fatal(err)
		}
		m.Start()
		w := m.World()
		for i := range 240 {
			m.Step(game.Input{Left: i%50 < 20, Thrust: i%70 < 9, Fire: i%9 == 0})
		}
		if err := m.SetStrategies(pool.Bitset, ""); err != nil {
			t.Fatal(err)
		}
		m.TogglePause()
		for range 30 {
			m.Step(game.Input{Fire: true})
		}
		m.TogglePause()
		res, ended := until(t, m, game.Input{Hyperspace: true}, 600*game.TPS, func() bool { return m.Phase() == Over })
		if !ended || !res.Counts {
			t.Fatalf("game %d: %+v, ended %v", g, res, ended)
		}
		p := replayed(t, res.Replay)
		rw := p.World()
		if p.Steps() != w.Steps() || rw.Score() != res.Score || rw.Phase() != game.GameOver || rw.Checksum() != w.Checksum() {
			t.Errorf("game %d: the replay plays %d steps to score %d (%v), the game %d steps to %d",
				g, p.Steps(), rw.Score(), rw.Phase(), w.Steps(), res.Score)
		}
		if b, d := rw.Bullets().Strategy(), rw.Debris().Strategy(); b != pool.Bitset || d != pool.Dense {
			t.Errorf("game %d: the replay ends on %s/%s, want bitset/dense", g, b, d)
		}
		if names := p.File().Names; !slices.Equal(names, []string{"ann"}) {
			t.Errorf("game %d: players %q", g, names)
		}
		// What the game-over screen steps is not recorded.
		for range OverHold {
			m.Step(game.Input{})
		}
	}
}

// TestNotRecorded: stress games and a game left unfinished carry no
// replay.
func TestNotRecorded(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 3}, true)
	for range 60 * game.TPS {
		if res, ended := m.Step(game.Input{}); ended && res.Replay != nil {
			t.Fatalf("a stress game kept %d bytes", len(res.Replay))
		}
	}
	if err := m.ToggleStress(); err != nil {
		t.Fatal(err)
	}
	m.Start()
	m.Step(game.Input{})
	if m.rec == nil {
		t.Fatal("a game by hand is not recorded")
	}
	if err := m.ToggleStress(); err != nil { // leaves the game
		t.Fatal(err)
	}
	if m.rec != nil {
		t.Error("the left game is still recorded")
	}
}

// TestRecordedStepAllocs: a step of a recorded game allocates nothing.
func TestRecordedStepAllocs(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 9}, false)
	m.Start()
	keys := [...]game.Input{{Left: true}, {Thrust: true, Fire: true}, {}, {Right: true, Fire: true}}
	i := 0
	step := func() {
		i++
		m.Step(keys[i/5%len(keys)])
	}
	for range 100 {
		step()
	}
	if a := testing.AllocsPerRun(1000, step); a != 0 || m.rec == nil {
		t.Errorf("a recorded step allocates %v times (recording %v)", a, m.rec != nil)
	}
}

// newHub is a hub of arenas of two ships, closed after the test.
func newHub(t *testing.T) *hub.Hub {
	t.Helper()
	h, err := hub.New(hub.Config{Size: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// join seats player in h's arena "den", holding in.
func join(t *testing.T, h *hub.Hub, player string, in game.Input) *hub.Seat {
	t.Helper()
	seat, err := h.Join(hub.Request{Arena: "den", Player: player, Input: func() game.Input { return in }})
	if err != nil {
		t.Fatal(err)
	}
	return seat
}

// TestArenaRecorded: an arena player's game over carries the arena's
// recording up to then, which checks to its end.
func TestArenaRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t)
		other := join(t, h, "bo", game.Input{Fire: true})
		seat := join(t, h, "ann", game.Input{Hyperspace: true})
		m := NewSeat(seat)
		a := seat.Arena()
		var res Result
		for ended := false; !ended; {
			time.Sleep(time.Second)
			a.View(func(hub.ArenaView) { res, ended = m.Observe() })
		}
		p := replayed(t, res.Replay)
		if got := p.World().Player(seat.Slot()); got.Phase != game.GameOver || got.Score != res.Score {
			t.Errorf("the replay ends with ann's ship %v scoring %d; the game %d", got.Phase, got.Score, res.Score)
		}
		seat.Leave()
		other.Leave()
	})
}

// TestArenaRefusesStress: in an arena the stress autopilot would play in a
// world others share; ToggleStress says so and changes nothing.
func TestArenaRefusesStress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, err := hub.New(hub.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		seat, err := h.Join(hub.Request{Arena: "den", Player: "ann"})
		if err != nil {
			t.Fatal(err)
		}
		defer seat.Leave()
		m := NewSeat(seat)
		if err := m.ToggleStress(); !errors.Is(err, ErrShared) || m.Stress() || m.Assisted() {
			t.Errorf("ToggleStress in an arena = %v, stress %v, assisted %v; want ErrShared, neither", err, m.Stress(), m.Assisted())
		}
	})
}

// TestArenaOverHold: an arena player's game-over screen holds as a solo
// one does: Start is ignored in its first two seconds, and later starts
// the next game as the hold ends, by the arena's steps.
func TestArenaOverHold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		seat := join(t, newHub(t), "ann", game.Input{Hyperspace: true})
		defer seat.Leave()
		m := NewSeat(seat)
		a := seat.Arena()
		observe := func() {
			a.View(func(hub.ArenaView) { m.Observe() })
			m.StartDue()
		}
		for m.Phase() != Over {
			time.Sleep(time.Second / 4)
			observe()
		}
		if m.Start() {
			t.Error("Start at once on the game-over screen started a game")
		}
		time.Sleep(2500 * time.Millisecond)
		observe()
		if !m.Start() || m.Phase() != Over {
			t.Errorf("Start 2.5 s into the game-over screen: phase %v, want a game due, the screen still up", m.Phase())
		}
		time.Sleep(600 * time.Millisecond)
		observe()
		if m.Phase() != Play {
			t.Errorf("3.1 s into the game-over screen: phase %v, want the game started", m.Phase())
		}
	})
}

// TestSeatLeaveScoresNow: a seat left between two Observes scores its
// ship as the arena has it, not as last observed.
func TestSeatLeaveScoresNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, err := hub.New(hub.Config{Size: 1, Game: game.Config{Levels: levels.Pressure()}})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		seat, err := h.Join(hub.Request{Arena: "den", Player: "ann", Input: func() game.Input { return game.Input{Fire: true} }})
		if err != nil {
			t.Fatal(err)
		}
		defer seat.Leave()
		m := NewSeat(seat)
		a := seat.Arena()
		score := 0
		for score == 0 {
			time.Sleep(time.Second / 10)
			a.View(func(v hub.ArenaView) { score = v.World().Player(seat.Slot()).Score })
		}
		var res Result
		var left bool
		a.View(func(v hub.ArenaView) {
			score = v.World().Player(seat.Slot()).Score
			res, left = m.Leave()
		})
		if !left || res.Score != score {
			t.Errorf("Leave = %d, %v; want the ship's %d", res.Score, left, score)
		}
	})
}
