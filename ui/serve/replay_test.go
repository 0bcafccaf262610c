package serve

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
	"poolroids/game/scores"
	"poolroids/ui"
)

// TestLobbyReplay: a high score kept with its replay is listed in the
// lobby; choosing it plays the replay over SSH, and q comes back to the
// lobby. A kept file that went bad is a line in the lobby, not the end of
// the session.
func TestLobbyReplay(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	annGame := replaytest.Record(t, game.Config{Seed: 12}, replay.Options{Players: []string{"ann"}}, 20*game.TPS)
	if _, err := store.AddReplay(scores.Entry{Name: "ann", Score: 4321, Wave: 2, Strategy: "freelist"}, annGame); err != nil {
		t.Fatal(err)
	}
	kept := store.Top(1)[0].Replay
	if kept == "" {
		t.Fatal("the store kept no replay")
	}

	h, err := hub.New(hub.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Play: func(ctx context.Context, screen tcell.Screen, s Session) (int, error) {
		o := ui.Options{ASCII: s.ASCII, Keys: s.Keys, Player: s.Player(), Scores: store}
		res, err := ui.PlayLobby(ctx, screen, ui.LobbyOptions{Game: o, Hub: h, Name: s.Name})
		return res.Score, err
	}})
	t.Cleanup(h.Close)

	bob := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: 100, h: 30})
	bob.waitScreen(t, "Play solo", "HIGH SCORES", "ann", "4321")
	// Down: from Play solo past New arena... to the score.
	choose := func() { bob.keys(t, "\x1b[B\x1b[B\r") }
	choose()
	bob.waitScreen(t, "PLAYING", "/ 00:20", "pools", "wave 1")
	bob.keys(t, " ")
	bob.waitScreen(t, "PAUSED")
	bob.keys(t, "q")
	bob.waitScreen(t, "Play solo", "HIGH SCORES")

	if err := os.WriteFile(filepath.Join(store.Path()+".replays", kept), []byte("not a replay"), 0o644); err != nil {
		t.Fatal(err)
	}
	choose()
	bob.waitScreen(t, "Play solo", "the replay of ann's 4321: byte 0")
	bob.keys(t, "q")
	if st := bob.exit(t); st != 0 {
		t.Errorf("leaving the lobby: exit status %d", st)
	}
}
