package ui

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/match"
	"poolroids/game/replay"
	"poolroids/game/scores"
)

// TestHighScoreKeepsReplay: a game played to its end stores its score
// with its replay, which plays and checks to the game's end.
func TestHighScoreKeepsReplay(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := newDrawn(t, "UTF-8", 100, 30, Options{Seed: 7, Scores: store, Player: "ann"})
	d.key(tcell.KeyEnter, 0)
	if d.s.game().Phase() != match.Play {
		t.Fatalf("after Enter: %v, want play", d.s.game().Phase())
	}
	for i := 0; d.s.game().Phase() == match.Play; i++ {
		if i > 600*game.TPS {
			t.Fatalf("step %d: no game over", i)
		}
		d.key(tcell.KeyRune, ' ')
		if i%30 == 0 {
			d.key(tcell.KeyRune, 'h') // jumping often loses every ship soon
		}
		// The press-only hold times run on the session's clock.
		d.s.step()
	}
	d.s.game().Close() // waits for the score, stored on a goroutine of the Game
	top := store.Top(1)
	if len(top) != 1 || top[0].Name != "ann" || top[0].Replay == "" {
		t.Fatalf("the table: %+v", top)
	}
	p := playStored(t, store, top[0])
	if w := p.World(); w.Score() != top[0].Score || w.Phase() != game.GameOver || len(p.File().Names) != 1 || p.File().Names[0] != "ann" {
		t.Errorf("the replay ends at %d (%v), players %q; the entry scored %d", w.Score(), w.Phase(), p.File().Names, top[0].Score)
	}
}

// playStored plays the replay stored with e to its end, checking it.
func playStored(t *testing.T, store *scores.Store, e scores.Entry) *replay.Player {
	t.Helper()
	data, err := store.ReadReplay(e.Replay)
	if err != nil {
		t.Fatal(err)
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
