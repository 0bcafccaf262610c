package metrics

import (
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"poolroids/game"
	"poolroids/game/play"
	"poolroids/pool"
)

// newSolo makes a solo game for a play.Live, and returns its world, which
// the test changes by itself: it never runs the game.
func newSolo(t *testing.T, cfg game.Config) (*play.Game, *game.World) {
	t.Helper()
	g, err := play.NewSolo(cfg, false, play.Scoring{}, play.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	var w *game.World
	g.View(func(v play.View) { w = v.World })
	return g, w
}

// acquire takes n bullets from w's pool.
func acquire(t *testing.T, w *game.World, n int) {
	t.Helper()
	for range n {
		if _, _, ok := w.Bullets().Acquire(); !ok {
			t.Fatal("pool full")
		}
	}
}

// TestPoolsNeverGoDown checks the pools' counters across what live games
// do between scrapes: they sum every game, hidden ones too; they keep what
// a game that ended counted; they count under the strategy in use.
func TestPoolsNeverGoDown(t *testing.T) {
	live, err := play.NewLive(nil, play.LiveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m := New()
	m.Games(live)
	cfg := game.Config{Strategy: pool.FreeList, Bullets: 8, Debris: 8}
	ga, a := newSolo(t, cfg)
	gb, b := newSolo(t, cfg)
	sa := live.Add("a", ga, true)
	live.Add("b", gb, false) // hidden from watchers, not from metrics
	check := func(step, want string) {
		t.Helper()
		err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want),
			"poolroids_pool_acquires_total", "poolroids_pool_in_use", "poolroids_players")
		if err != nil {
			t.Errorf("%s: %v", step, err)
		}
	}
	acquire(t, a, 3)
	acquire(t, b, 2)
	check("two games", `
# HELP poolroids_players Players in a game now, in arenas and solo.
# TYPE poolroids_players gauge
poolroids_players 2
# HELP poolroids_pool_acquires_total Items the live games' pools handed out.
# TYPE poolroids_pool_acquires_total counter
poolroids_pool_acquires_total{pool="bullets",strategy="freelist"} 5
poolroids_pool_acquires_total{pool="debris",strategy="freelist"} 0
# HELP poolroids_pool_in_use Items in use in the live games' pools now.
# TYPE poolroids_pool_in_use gauge
poolroids_pool_in_use{pool="bullets",strategy="freelist"} 5
poolroids_pool_in_use{pool="debris",strategy="freelist"} 0
`)
	sa.Remove()
	if err := b.Bullets().SetStrategy(pool.Bitset); err != nil {
		t.Fatal(err)
	}
	acquire(t, b, 1)
	check("a gone, b switched", `
# HELP poolroids_players Players in a game now, in arenas and solo.
# TYPE poolroids_players gauge
poolroids_players 1
# HELP poolroids_pool_acquires_total Items the live games' pools handed out.
# TYPE poolroids_pool_acquires_total counter
poolroids_pool_acquires_total{pool="bullets",strategy="bitset"} 1
poolroids_pool_acquires_total{pool="bullets",strategy="freelist"} 5
poolroids_pool_acquires_total{pool="debris",strategy="freelist"} 0
# HELP poolroids_pool_in_use Items in use in the live games' pools now.
# TYPE poolroids_pool_in_use gauge
poolroids_pool_in_use{pool="bullets",strategy="bitset"} 3
poolroids_pool_in_use{pool="bullets",strategy="freelist"} 0
poolroids_pool_in_use{pool="debris",strategy="freelist"} 0
`)
}

// TestFrameAllocs: counting a frame, on the drawing goroutine, allocates
// nothing.
func TestFrameAllocs(t *testing.T) {
	m := New()
	if n := testing.AllocsPerRun(100, func() { m.Frame(true, 120) }); n != 0 {
		t.Errorf("Frame allocates %v times", n)
	}
}

// A shot refused over its ship's share counts as a bullet miss, as the
// panel counts it.
func TestMissesOverShare(t *testing.T) {
	live, err := play.NewLive(nil, play.LiveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m := New()
	m.Games(live)
	g, w := newSolo(t, game.Config{Seed: 1}) // the shipped set: four shots a ship
	live.Add("a", g, true)
	for range 2 * game.TPS {
		w.Step(game.Input{Fire: true})
	}
	if w.OverShare() == 0 {
		t.Fatal("a ship firing for 2 s was refused no shot over its share")
	}
	want := fmt.Sprintf(`
# HELP poolroids_pool_misses_total Acquires the live games' pools refused: being full, or (bullets) over a ship's share.
# TYPE poolroids_pool_misses_total counter
poolroids_pool_misses_total{pool="bullets",strategy="freelist"} %d
poolroids_pool_misses_total{pool="debris",strategy="freelist"} 0
`, w.OverShare()+w.Bullets().Stats().Misses)
	if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want), "poolroids_pool_misses_total"); err != nil {
		t.Error(err)
	}
}
