package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/play"
	"poolroids/game/scores"
)

// TestGhostDrawAllocs: a frame of a daily game with its ghost flying,
// the ghost's pools in the panel or not, allocates nothing, and the
// ghost's ship and name are drawn in the ghost's style, on the player's
// screen, on a watcher's and in the game's replay.
func TestGhostDrawAllocs(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	today := daily.DayOf(time.Now())
	best, _ := dailytest.HandGame(t, today, nil, "ann", 3, 3000)
	board := play.NewBoard(nil, nil)
	if _, _, err := board.Rank(t.Context(), store, "ann", best); err != nil {
		t.Fatal(err)
	}
	scr := newSim(t, "UTF-8", 200, 60)
	live, err := play.NewLive(nil, play.LiveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Scores: store, Player: "bob", Daily: &today, Board: board, Live: live, DailyDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.show.close() })
	g := s.game()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		var ready bool
		g.View(func(v play.View) { ready = v.Daily.GhostName != "" })
		if ready {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the ghost was never proven")
		}
	}
	// shows tells whether arena a shows the ghost's ship, named.
	shows := func(a *arena) bool {
		return slices.ContainsFunc(a.cv.cells, func(c cell) bool { return c.ink == inkGhost }) &&
			slices.ContainsFunc(a.labels, func(l label) bool { return l.name == "ghost ann" && l.st == ghostStyle })
	}
	// Ten seconds in, or later where the day's ghost is between ships
	// or in hyperspace then.
	s.startGame()
	s.root.SetRect(0, 0, 200, 60)
	steps := 0
	for ; steps < 300 || !shows(s.arena) && steps < 3000; steps++ {
		s.step()
		s.root.Draw(s.screen)
	}
	s.offer()
	t.Cleanup(s.solo().Remove)
	hw, err := live.Watch("bob")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hw.Stop)
	ws, wscr := watcherOf(t, hw, 160, 50)
	ws.root.Draw(wscr)
	for who, a := range map[string]*arena{"player": s.arena, "watcher": ws.arena} {
		if !shows(a) {
			t.Errorf("%s: the ghost's ship is not drawn, named, after %d steps: labels %+v", who, steps, a.labels)
		}
	}
	frame := func() {
		s.step()
		s.step()
		s.root.Draw(s.screen)
	}
	for _, ghostPools := range []bool{false, true} {
		s.ghostPools.Store(ghostPools)
		s.sample()
		frame()
		if n := testing.AllocsPerRun(50, frame); n != 0 {
			t.Errorf("ghost's pools in the panel %v: %v allocs per frame, want 0", ghostPools, n)
		}
	}
	if n := testing.AllocsPerRun(50, func() { s.step(); ws.root.Draw(wscr) }); n != 0 {
		t.Errorf("a watcher's frame with the ghost: %v allocs, want 0", n)
	}

	// The game's replay, watched again, shows the ghost beside it.
	g.Leave()
	var file string
	for end := time.Now().Add(10 * time.Second); file == ""; time.Sleep(time.Millisecond) {
		if files := g.DailyFiles(); len(files) > 0 {
			file = files[0]
		}
		if time.Now().After(end) {
			t.Fatal("bob's game was never written")
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := newWatched(t, data, 200, 60)
	r.ticks(steps)
	r.frame()
	if !shows(r.s.arena) {
		t.Errorf("the replay of bob's game does not show the ghost beside it after %d steps", steps)
	}
}
