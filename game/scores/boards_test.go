package scores

import (
	"path/filepath"
	"testing"
	"time"
)

func TestPeriodStart(t *testing.T) {
	wed := time.Date(2025, 3, 5, 17, 30, 0, 0, time.FixedZone("UTC+10", 10*3600)) // 07:30 UTC
	for _, c := range []struct {
		p    Period
		want time.Time
	}{
		{AllTime, time.Time{}},
		{ThisWeek, time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)},
		{Today, time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC)},
	} {
		if got := c.p.Start(wed); !got.Equal(c.want) {
			t.Errorf("%v.Start(%v) = %v, want %v", c.p, wed, got, c.want)
		}
	}
	sun := time.Date(2025, 3, 9, 23, 0, 0, 0, time.UTC)
	if got := ThisWeek.Start(sun); !got.Equal(time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a Sunday's week starts %v, want the Monday before", got)
	}
}

// TestBoards: a player's weak game of today is on today's board and this
// week's, and kept in the file, though their best of all time push it off
// that board; a game of last week is on the board of all time only.
func TestBoards(t *testing.T) {
	now := time.Date(2025, 3, 5, 12, 0, 0, 0, time.UTC) // a Wednesday
	path := filepath.Join(t.TempDir(), "scores.json")
	s, _ := Open(path)
	s.now = func() time.Time { return now }
	at := func(name string, score int, when time.Time) {
		t.Helper()
		if _, err := s.Add(Entry{Name: name, Score: score, Wave: 1, When: when}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range PerPlayer {
		at("ann", 1000+i, now.AddDate(0, -1, 0)) // a month ago
	}
	at("bob", 700, now.AddDate(0, 0, -3)) // Sunday: last week
	at("ann", 5, now.Add(-time.Hour))     // today, her worst
	at("cy", 50, now.AddDate(0, 0, -1))   // Tuesday: this week

	for _, c := range []struct {
		p    Period
		want string
	}{
		{AllTime, "ann:1009 ann:1008 ann:1007 ann:1006 ann:1005 ann:1004 ann:1003 ann:1002 ann:1001 ann:1000 bob:700 cy:50"},
		{ThisWeek, "cy:50 ann:5"},
		{Today, "ann:5"},
	} {
		if got := names(s.Board(c.p, 0)); got != c.want {
			t.Errorf("%v: %s, want %s", c.p, got, c.want)
		}
	}
	if got := names(s.Board(AllTime, 2)); got != "ann:1009 ann:1008" {
		t.Errorf("Board(AllTime, 2) = %s", got)
	}
	for _, c := range []struct {
		p     Period
		name  string
		score int
		place int
	}{
		{AllTime, "ann", 1009, 1}, {ThisWeek, "ann", 5, 2}, {Today, "ann", 5, 1},
		{AllTime, "bob", 700, 11}, {ThisWeek, "bob", 0, 0},
	} {
		e, place, ok := s.Best(c.p, c.name)
		if e.Score != c.score || place != c.place || ok != (c.place > 0) {
			t.Errorf("Best(%v, %s) = %d at %d (%v), want %d at %d", c.p, c.name, e.Score, place, ok, c.score, c.place)
		}
	}

	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	again.now = s.now
	if got := names(again.Board(Today, 0)); got != "ann:5" {
		t.Errorf("reopened, today's board is %q: the file lost ann's game of today", got)
	}
	// The next Monday, ann's weak game is on no board and goes.
	now = now.AddDate(0, 0, 5)
	at("dee", 1, now)
	if got := names(s.entries); got != "ann:1009 ann:1008 ann:1007 ann:1006 ann:1005 ann:1004 ann:1003 ann:1002 ann:1001 ann:1000 bob:700 cy:50 dee:1" {
		t.Errorf("the next week, the table holds %s", got)
	}
}
