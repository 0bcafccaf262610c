package ui_test

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/ui"
	"poolroids/ui/internal/golden"
)

// TestGoldenDaily: the daily game's title says whether the game counts
// and which ghost flies; in play, the day's best flies beside the player
// as a faint ship named "ghost ann", and the border says so; g switches
// it off (the ghost's ship goes), f shows the ghost's pools in the panel;
// its game-over screen says it counted, and its place on the day's board.
func TestGoldenDaily(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
		if err != nil {
			t.Fatal(err)
		}
		today := daily.DayOf(time.Now())
		best, _ := dailytest.HandGame(t, today, nil, "ann", 3, 3000)
		board := play.NewBoard(nil, nil)
		if _, res, err := board.Rank(t.Context(), store, "ann", best); err != nil || !res.Counted {
			t.Fatalf("ann's game: %+v, %v", res, err)
		}
		tm := run(t, bigW, bigH, ui.Options{Seed: 7, Scores: store, Player: "bob", Daily: &today, Board: board})
		tm.wait(time.Second)
		golden.Check(t, "daily-title-120x40", tm.frame())
		tm.press(" ")
		tm.wait(time.Second)
		tm.press("aaaa", "w")
		tm.wait(2 * time.Second)
		f := tm.frame()
		golden.Check(t, "daily-ghost-120x40", f)
		if !strings.Contains(f.Text, "ghost ann") || !strings.Contains(f.Text, "ghost ann ") {
			t.Errorf("the ghost's name and the border's status do not show:\n%s", f.Text)
		}
		tm.press("f")
		tm.wait(500 * time.Millisecond)
		if f := tm.frame(); !strings.Contains(f.Text, "pools of the ghost") {
			t.Errorf("f: the panel does not say it shows the ghost's pools:\n%s", f.Text)
		}
		tm.press("g", "g")
		tm.wait(500 * time.Millisecond)
		if f := tm.frame(); strings.Contains(f.Text, "ghost ann") || !strings.Contains(f.Text, "ghost: off") {
			t.Errorf("g twice: the ghost still flies:\n%s", f.Text)
		}
		for end := time.Now().Add(5 * time.Minute); !strings.Contains(tm.frame().Text, "THE DAILY BOARD"); {
			if time.Now().After(end) {
				t.Fatalf("no game over after 5 minutes of hyperspace:\n%s", tm.frame().Text)
			}
			tm.press("h")
			tm.wait(50 * time.Millisecond)
		}
		f = tm.frame()
		golden.Check(t, "daily-over-120x40", f)
		if !strings.Contains(f.Text, "counted: #2 of 2 on the daily board") || !strings.Contains(f.Text, "space: practice") {
			t.Errorf("the game-over screen does not say the game counted, nor that the next is practice:\n%s", f.Text)
		}
	})
}
