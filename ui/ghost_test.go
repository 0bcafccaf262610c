package ui

import (
	"path/filepath"
	"testing"
	"time"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/play"
	"poolroids/game/scores"
)

// TestGhostDrawAllocs: a frame of a daily game with its ghost flying,
// the ghost's pools in the panel or not, allocates nothing, and the
// ghost's ship and name are drawn in the ghost's style.
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
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Scores: store, Player: "bob", Daily: &today, Board: board})
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
	s.startGame()
	for range 300 {
		s.step()
	}
	s.root.SetRect(0, 0, 200, 60)
	s.root.Draw(s.screen)
	ghostCells := 0
	for _, c := range s.arena.cv.cells {
		if c.ink == inkGhost {
			ghostCells++
		}
	}
	if ghostCells == 0 {
		t.Fatal("no cell of the ghost's ship drawn")
	}
	named := false
	for _, l := range s.arena.labels {
		named = named || l.name == "ghost ann" && l.st == ghostStyle
	}
	if !named {
		t.Errorf("the ghost's name is not among the labels: %+v", s.arena.labels)
	}
	frame := func() {
		s.step()
		s.step()
		s.drain()
		s.root.Draw(s.screen)
	}
	for _, ghostPools := range []bool{false, true} {
		s.show.(*soloShow).ghostPools.Store(ghostPools)
		s.sample()
		frame()
		if n := testing.AllocsPerRun(50, frame); n != 0 {
			t.Errorf("ghost's pools in the panel %v: %v allocs per frame, want 0", ghostPools, n)
		}
	}
}
