package ui

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/play"
	"poolroids/game/scores"
)

// TestLobbyDailyReplay: the lobby's daily board lists each game with its
// replay, as the other boards do, and chosen, the replay read is the one
// the board proved; a game gone from the board says so.
func TestLobbyDailyReplay(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	today := daily.DayOf(time.Now())
	ann, _ := dailytest.HandGame(t, today, nil, "ann", 3, 900)
	board := play.NewBoard(nil, nil)
	if _, res, err := board.Rank(t.Context(), store, "ann", ann); err != nil || !res.Counted {
		t.Fatalf("ann's game: %+v, %v", res, err)
	}
	var d LobbyData
	lobbyDaily(&d, store, "bob", today)
	b := d.Boards[len(d.Boards)-1]
	if len(b.Scores) != 1 || b.Scores[0].Name != "ann" || b.Scores[0].Replay == "" || !b.Scores[0].Daily {
		t.Fatalf("the daily board lists %+v, want ann's game with its replay", b.Scores)
	}
	o := Options{Scores: store, Board: board}
	got, err := readReplay(t.Context(), o, b.Scores[0])
	if err != nil || !bytes.Equal(got, ann) {
		t.Errorf("ann's daily replay: %d bytes, %v; want the %d bytes she played", len(got), err, len(ann))
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(120, 40)
	defer scr.Fini()
	if _, err := newReplaySession(scr, got, Options{}); err != nil {
		t.Errorf("ann's daily replay does not play: %v", err)
	}
	gone := b.Scores[0]
	gone.Replay = "2000-01-01-0000000000000000.prpl"
	if _, err := readReplay(t.Context(), o, gone); err == nil {
		t.Error("a replay gone from the board was read")
	}
}
