package match

import (
	"testing"

	"poolroids/game"
	"poolroids/pool"
)

func newMatch(t *testing.T, cfg game.Config, stress bool) *Match {
	t.Helper()
	m, err := New(cfg, stress)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// until steps m with keys until done, for at most n steps, and returns the
// game that ended meanwhile, if one did.
func until(t *testing.T, m *Match, keys game.Input, n int, done func() bool) (Result, bool) {
	t.Helper()
	var res Result
	var ended bool
	for range n {
		if r, ok := m.Step(keys); ok {
			res, ended = r, true
		}
		if done() {
			return res, ended
		}
	}
	t.Fatalf("not done after %d steps", n)
	return res, ended
}

// TestFlow: the demo plays under the title; space starts a game the keys
// play; its end shows the game over and counts; the next game starts from
// zero figures.
func TestFlow(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 3}, false)
	if m.Phase() != Title || !m.Assisted() {
		t.Fatalf("start: %v, assisted %v", m.Phase(), m.Assisted())
	}
	until(t, m, game.Input{}, 30*game.TPS, func() bool { return m.World().Bullets().Stats().Acquires > 0 })
	if m.Start() != true || m.Phase() != Play || m.Assisted() {
		t.Fatalf("after Start: %v, assisted %v", m.Phase(), m.Assisted())
	}
	if m.Start() {
		t.Error("Start during a game started another")
	}
	if st := m.World().Bullets().Stats(); st.Acquires != 0 || st.HighWater != 0 {
		t.Errorf("a new game's pool figures carry the demo's: %+v", st)
	}
	w := m.World()
	before := w.Ship()
	for range 20 {
		m.Step(game.Input{Thrust: true, Left: true})
	}
	if s := w.Ship(); s.Pos == before.Pos || s.Angle == before.Angle {
		t.Errorf("the keys did not move the ship: %+v", s)
	}

	// Jumping all the time loses every ship soon.
	res, ended := until(t, m, game.Input{Hyperspace: true}, 600*game.TPS, func() bool { return m.Phase() == Over })
	if !ended || !res.Counts || res.Strategy != string(pool.FreeList) || res.Wave < 1 {
		t.Errorf("game over: %+v, ended %v", res, ended)
	}
	if m.Best() != res.Score {
		t.Errorf("Best %d, the game scored %d", m.Best(), res.Score)
	}
	// The game-over screen stays until Start.
	for range 2 * OverSteps {
		m.Step(game.Input{})
	}
	if m.Phase() != Over {
		t.Errorf("the game-over screen left by itself: %v", m.Phase())
	}
	m.Start()
	if w = m.World(); m.Phase() != Play || w.Lives() != game.StartLives {
		t.Errorf("after game over, Start: %v with %d ships", m.Phase(), w.Lives())
	}
}

// TestOverHold: the game-over screen of the player's game stays
// OverHold at the least: Start is ignored in its first OverDeaf (a
// player still tapping fire), and later in the hold starts the next game
// once the hold is over.
func TestOverHold(t *testing.T) {
	for _, at := range []int{0, OverDeaf - 1, OverDeaf, OverHold - 1, OverHold} {
		m := newMatch(t, game.Config{Seed: 3}, false)
		m.Start()
		until(t, m, game.Input{Hyperspace: true}, 600*game.TPS, func() bool { return m.Phase() == Over })
		for range at {
			m.Step(game.Input{})
		}
		started := m.Start()
		if want := at >= OverDeaf; started != want {
			t.Errorf("Start %d steps into the game-over screen: %v, want %v", at, started, want)
		}
		n := 0
		for ; m.Phase() == Over && n < 3*OverHold; n++ {
			m.Step(game.Input{Fire: true})
			if at < OverDeaf {
				m.Start() // taps of fire go on
			}
		}
		if at+n < OverHold {
			t.Errorf("Start %d steps into the game-over screen: a game after %d more, want %d at the least", at, n, OverHold-at)
		}
		if at >= OverDeaf && at < OverHold && at+n > OverHold+1 {
			t.Errorf("Start %d steps into the game-over screen: a game after %d more, want it as the hold ends", at, n)
		}
	}
}

// TestDemoRestarts: the title's demo starts again after its game ends.
func TestDemoRestarts(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 1}, false)
	until(t, m, game.Input{}, 3600*game.TPS, func() bool { return m.World().Phase() == game.GameOver })
	if res, ended := until(t, m, game.Input{}, 2*OverSteps, func() bool { return m.World().Phase() != game.GameOver }); ended {
		t.Errorf("the demo's end was reported as a game: %+v", res)
	}
	if m.Phase() != Title {
		t.Errorf("phase %v after the demo ended", m.Phase())
	}
}

// TestStressFillsPools: the stress autopilot on the shipped levels and
// capacities fills both pools within three seconds (issue 19), and its
// score does not count; x again goes back to the title and the player's
// world, with the strategy chosen meanwhile.
func TestStressFillsPools(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 4}, false)
	m.Start()
	play := m.World()
	for range 60 {
		m.Step(game.Input{})
	}
	if err := m.ToggleStress(); err != nil {
		t.Fatal(err)
	}
	if !m.Stress() || m.Phase() != Play || !m.Assisted() || m.World() == play {
		t.Fatalf("stress: %v %v %v", m.Stress(), m.Phase(), m.Assisted())
	}
	w := m.World()
	if w.Bullets().Cap() != play.Bullets().Cap() || w.Debris().Cap() != play.Debris().Cap() {
		t.Errorf("stress pools %d/%d, the player's %d/%d", w.Bullets().Cap(), w.Debris().Cap(), play.Bullets().Cap(), play.Debris().Cap())
	}
	for range 3 * game.TPS {
		if res, ended := m.Step(game.Input{}); ended && res.Counts {
			t.Errorf("a stress game counted: %+v", res)
		}
	}
	if b, d := w.Bullets().Stats(), w.Debris().Stats(); b.HighWater != b.Capacity || b.Misses == 0 || d.HighWater != d.Capacity {
		t.Errorf("after 3 s of stress: bullets %d of %d (%d misses), debris high-water %d of %d",
			b.HighWater, b.Capacity, b.Misses, d.HighWater, d.Capacity)
	}
	if err := m.SetStrategies(pool.Dense, ""); err != nil {
		t.Fatal(err)
	}
	if err := m.ToggleStress(); err != nil {
		t.Fatal(err)
	}
	if m.Stress() || m.Phase() != Title || m.World() != play || play.Bullets().Strategy() != pool.Dense {
		t.Errorf("stress off: stress %v, %v, own world %v, bullets %v", m.Stress(), m.Phase(), m.World() == play, play.Bullets().Strategy())
	}
}

func TestPause(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 2}, false)
	if m.TogglePause() {
		t.Error("the title paused")
	}
	m.Start()
	if !m.TogglePause() || !m.World().Paused() {
		t.Fatal("no pause")
	}
	n := m.World().Steps()
	m.Step(game.Input{})
	if m.World().Steps() != n {
		t.Error("a paused game stepped")
	}
}

// TestStressLeavesGameUncounted: x during a game by hand leaves it, and
// like the score table Best does not count it (the header's high score
// showed a game the table never had).
func TestStressLeavesGameUncounted(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 5}, false)
	m.Start()
	var ap game.Autopilot
	for range 120 * game.TPS {
		if m.World().Score() > 0 {
			break
		}
		m.Step(ap.Input(m.World()))
	}
	if m.World().Score() == 0 {
		t.Fatal("no score in two minutes of autopilot")
	}
	if err := m.ToggleStress(); err != nil {
		t.Fatal(err)
	}
	if m.Best() != 0 {
		t.Errorf("Best = %d after the only game was left for stress, want 0", m.Best())
	}
}

// TestLeaveCounts: a game the player leaves (quits, or hands to the stress
// autopilot) counts as it stands, with its recording for the score table;
// one the autopilot played part of does not.
func TestLeaveCounts(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 5}, false)
	if _, left := m.Leave(); left {
		t.Error("Leave on the title left a game")
	}
	m.Start()
	var ap game.Autopilot
	for i := 0; m.World().Score() == 0; i++ {
		if i == 120*game.TPS {
			t.Fatal("no score in two minutes of autopilot")
		}
		m.Step(ap.Input(m.World()))
	}
	score := m.World().Score()
	res, left := m.Leave()
	if !left || !res.Counts || res.Score != score || len(res.Replay) == 0 {
		t.Fatalf("Leave = %+v (replay %d bytes), %v; want score %d, counted, recorded", res, len(res.Replay), left, score)
	}
	if m.Best() != score || m.Phase() != Over {
		t.Errorf("after Leave: Best %d, phase %v; want %d, Over", m.Best(), m.Phase(), score)
	}
	if _, again := m.Leave(); again {
		t.Error("a second Leave left a game again")
	}

	m.Start()
	if err := m.ToggleStress(); err != nil {
		t.Fatal(err)
	}
	if res, left := m.Leave(); !left || res.Counts {
		t.Errorf("Leave of a stress game = %+v, %v; want left, not counted", res, left)
	}
}
