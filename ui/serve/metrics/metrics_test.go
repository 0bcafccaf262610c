package metrics

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"poolroids/game"
	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/pool"
)

// newSolo makes a solo game for a play.Live, and returns its world, which
// the test changes by itself: it never runs the game.
func newSolo(t *testing.T, cfg game.Config) (*play.Game, *game.World) {
	t.Helper()
	g, err := play.NewSolo(cfg, false, play.Scoring{}, play.Controls{})
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

// TestStoreAndFleet: the store's and the fleet's figures are exported as
// read at the scrape, a relay in each direction labelled.
func TestStoreAndFleet(t *testing.T) {
	m := New()
	last := time.Unix(1700000000, 500e6)
	m.Store(func() scores.Stats {
		return scores.Stats{Down: true, Queued: 3, Posted: 7, Failures: 12, LastSuccess: last}
	})
	m.Fleet(func() FleetStats {
		return FleetStats{DirectoryUp: true, DirectoryFailures: 2, Members: 3, Rooms: 5, RelaysIn: 1, RelaysOut: 4, RelayedIn: 10, RelayedOut: 20}
	})
	want := `
# HELP poolroids_fleet_members Live members of the fleet, this server included, as the directory last read.
# TYPE poolroids_fleet_members gauge
poolroids_fleet_members 3
# HELP poolroids_fleet_relays Sessions relayed now: in, played here for another member's player; out, this server's player playing on another.
# TYPE poolroids_fleet_relays gauge
poolroids_fleet_relays{direction="in"} 1
poolroids_fleet_relays{direction="out"} 4
# HELP poolroids_fleet_relayed_total Sessions relayed, by direction (see poolroids_fleet_relays).
# TYPE poolroids_fleet_relayed_total counter
poolroids_fleet_relayed_total{direction="in"} 10
poolroids_fleet_relayed_total{direction="out"} 20
# HELP poolroids_scores_database_up 1 when the last attempt to reach the score database succeeded.
# TYPE poolroids_scores_database_up gauge
poolroids_scores_database_up 0
# HELP poolroids_scores_database_last_success_timestamp_seconds When the score database last answered, in Unix seconds; 0: never.
# TYPE poolroids_scores_database_last_success_timestamp_seconds gauge
poolroids_scores_database_last_success_timestamp_seconds 1.7000000005e+09
# HELP poolroids_scores_queued High scores saved on local disk, waiting for the score database.
# TYPE poolroids_scores_queued gauge
poolroids_scores_queued 3
`
	if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want), "poolroids_fleet_members", "poolroids_fleet_relays",
		"poolroids_fleet_relayed_total", "poolroids_scores_database_up", "poolroids_scores_queued",
		"poolroids_scores_database_last_success_timestamp_seconds"); err != nil {
		t.Error(err)
	}
}

// TestHealth: /healthz answers while the server serves; /readyz says what
// is not ready, with 503; pprof's command line is refused where it holds
// a secret.
func TestHealth(t *testing.T) {
	m := New()
	var problems []string
	m.Ready(func() []string { return problems })
	h := m.Handler(false)
	get := func(h http.Handler, path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	for _, c := range []struct {
		path     string
		problems []string
		code     int
		body     string
	}{
		{"/healthz", nil, 200, "ok\n"},
		{"/readyz", nil, 200, "ready\n"},
		{"/healthz", []string{"draining"}, 200, "ok\n"},
		{"/readyz", []string{"draining", "score database unreachable"}, 503, "draining\nscore database unreachable\n"},
		{"/debug/pprof/", nil, 404, "404 page not found\n"},
	} {
		problems = c.problems
		if code, body := get(h, c.path); code != c.code || body != c.body {
			t.Errorf("GET %s with %q: %d %q, want %d %q", c.path, c.problems, code, body, c.code, c.body)
		}
	}
	if code, body := get(Pprof(false), "/debug/pprof/cmdline"); code != 403 || !strings.Contains(body, "holds a secret") {
		t.Errorf("cmdline with a secret: %d %q", code, body)
	}
	if code, body := get(Pprof(true), "/debug/pprof/cmdline"); code != 200 || body == "" {
		t.Errorf("cmdline: %d %q", code, body)
	}
	if code, _ := get(Pprof(false), "/debug/pprof/heap"); code != 200 {
		t.Errorf("a heap profile: %d", code)
	}
}
