package play

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/match"
	"poolroids/game/replay"
	"poolroids/game/scores"
)

// newDaily makes today's daily Game of player on st, its games written
// to a directory of the test's, and waits for its ghosts to be proven.
func newDaily(t *testing.T, st *scores.Store, player string, board *Board) (*Game, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "daily")
	today := daily.DayOf(time.Now())
	g, err := NewSolo(daily.Config(today, nil), false,
		Scoring{Player: player, Scores: st, Daily: &Daily{Day: today, Board: board, Dir: dir}}, Controls{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	for end := time.Now().Add(10 * time.Second); dailyView(g).Change == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the daily game's board was never read")
		}
	}
	return g, dir
}

// dailyView returns a copy of g's DailyView, taken in its View.
func dailyView(g *Game) DailyView {
	var d DailyView
	g.View(func(v View) { d = *v.Daily })
	return d
}

// waitOver waits for the save of the game that ended to end.
func waitOver(t *testing.T, g *Game) Over {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if o := view(g).Over; !o.Saving && o.Daily != nil {
			return o
		}
		if time.Now().After(end) {
			t.Fatalf("the daily game's save never ended: %+v", view(g).Over)
		}
	}
}

// TestDailyGame: a daily Game plays the day's game with the day's best
// flying beside it as a ghost in a world of its own, stepped with the
// player's and never touching it; its first game is written to its
// directory, proven and counted, the next is practice; g switches the
// ghost; the stress autopilot does not play; the ghost's step and the
// View allocate nothing.
func TestDailyGame(t *testing.T) {
	st := newStore(t)
	best, _ := dailytest.HandGame(t, daily.DayOf(time.Now()), nil, "ann", 3, 3000)
	board := NewBoard(nil, nil)
	if _, res, err := board.Rank(t.Context(), st, "ann", best); err != nil || !res.Counted {
		t.Fatalf("ann's game: %+v, %v", res, err)
	}
	g, dir := newDaily(t, st, "bob", board)
	if d := dailyView(g); d.Counted || d.Ghost != GhostBest || d.GhostName != "ann" || d.Why != "" {
		t.Fatalf("before bob's first game: %+v; want it to count, ann's ghost ready", d)
	}
	if err := g.ToggleStress(); !errors.Is(err, match.ErrDaily) {
		t.Errorf("the stress autopilot in a daily game: %v, want ErrDaily", err)
	}
	g.Start()
	for range 200 {
		g.Tick()
	}
	v := view(g)
	gh := v.Ghost
	if gh == nil || gh.Steps() != v.World.Steps() || gh.Name() != "ann" {
		t.Fatalf("the ghost after 200 steps: %+v; want ann's, at the world's step %d", gh, v.World.Steps())
	}
	if gh.World() == v.World || gh.World().Bullets() == v.World.Bullets() || gh.World().Debris() == v.World.Debris() {
		t.Fatal("the ghost shares the player's world or pools")
	}
	if n := testing.AllocsPerRun(100, g.Tick); n != 0 {
		t.Errorf("a step with a ghost allocates %v times", n)
	}
	fn := func(v View) { _ = v.Ghost.Ship() }
	if n := testing.AllocsPerRun(100, func() { g.View(fn) }); n != 0 {
		t.Errorf("a View with a ghost allocates %v times", n)
	}
	if k := g.SwitchGhost(); k != GhostOwn || view(g).Ghost != nil || dailyView(g).Why == "" {
		t.Errorf("g: %v, ghost %v, why %q; want bob's own, none yet, and why", k, view(g).Ghost, dailyView(g).Why)
	}
	if k := g.SwitchGhost(); k != GhostOff {
		t.Errorf("g twice: %v, want off", k)
	}
	if k := g.SwitchGhost(); k != GhostBest || view(g).Ghost == nil || view(g).Ghost.Steps() != view(g).World.Steps() {
		t.Errorf("g thrice: %v; want the day's best again, at the world's step", k)
	}

	steps := view(g).World.Steps()
	g.Leave()
	o := waitOver(t, g)
	d := o.Daily
	if o.Err != nil || !d.Result.Counted || d.Proof.Score != o.Entry.Score || d.Proof.Steps != steps {
		t.Fatalf("bob's first game: %+v, err %v; want it proven (%d steps) and counted", d, o.Err, steps)
	}
	data, err := os.ReadFile(d.File)
	if err != nil || filepath.Dir(d.File) != dir {
		t.Fatalf("bob's replay: %v, in %s, want in %s", err, d.File, dir)
	}
	if _, err := daily.Verify(t.Context(), data, time.Now(), nil); err != nil {
		t.Errorf("bob's replay does not prove itself: %v", err)
	}
	// Watched again, the replay shows the ghost that flew beside it.
	w, err := replay.NewWatch(data)
	if err != nil {
		t.Fatal(err)
	}
	w.StepOnce()
	if gh := w.Ghost(); gh == nil || gh.Name() != "ann" {
		t.Errorf("bob's replay shows the ghost %+v, want ann's", gh)
	}
	for end := time.Now().Add(10 * time.Second); !dailyView(g).Counted; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("after bob's first game, the daily game does not say the next is practice")
		}
	}

	for range match.OverHold + 1 {
		g.Tick()
	}
	if !g.Start() {
		t.Fatal("no second game")
	}
	for range 100 {
		g.Tick()
	}
	g.Leave()
	o = waitOver(t, g)
	if o.Daily.Result.Counted || o.Daily.Err != nil {
		t.Errorf("bob's second game: %+v; want practice", o.Daily)
	}
	if files := g.DailyFiles(); len(files) != 2 || files[0] != d.File {
		t.Errorf("the files written: %q", files)
	}
	if best, ok := st.DailyBest(daily.DayOf(time.Now())); !ok || best.Name != "ann" && best.Name != "bob" {
		t.Errorf("the day's best: %+v", best)
	}
}

// TestBoardRankRefuses: a Board refuses what daily.Verify refuses, with
// its reason, and ranks nothing then.
func TestBoardRankRefuses(t *testing.T) {
	st := newStore(t)
	_, _, err := NewBoard(nil, nil).Rank(t.Context(), st, "ann", []byte("not a replay"))
	if r, ok := errors.AsType[*daily.RefusedError](err); !ok || r.Reason != daily.Malformed {
		t.Errorf("junk: %v, want refused as malformed", err)
	}
	if es := st.Daily(daily.DayOf(time.Now()), 0); len(es) != 0 {
		t.Errorf("the board after junk: %+v", es)
	}
}
