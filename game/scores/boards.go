package scores

import (
	"time"
)

// Period is the span a board covers, as game services keep leaderboards
// that start afresh on a schedule: all time, this week, today. Weeks start
// on Monday and days at midnight, UTC, so that every instance of a server
// agrees wherever it runs.
type Period uint8

const (
	AllTime Period = iota
	ThisWeek
	Today
)

// Periods lists every Period, the longest first.
var Periods = [...]Period{AllTime, ThisWeek, Today}

var periodNames = [...]string{"all time", "this week", "today"}

func (p Period) String() string {
	if int(p) < len(periodNames) {
		return periodNames[p]
	}
	return "Period(?)"
}

// Start returns when the period that holds now began, in UTC; the zero
// Time for AllTime.
func (p Period) Start(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	switch p {
	case Today:
		return day
	case ThisWeek:
		return day.AddDate(0, 0, -(int(day.Weekday())+6)%7) // back to Monday
	}
	return time.Time{}
}

// places writes into place, for each entry of es (sorted best first), its
// 1-based place on the board of the period that began at since: the
// entries from since on, each player's best PerPlayer, MaxEntries in all;
// 0 for an entry off the board. place is as long as es.
func places(es []Entry, since time.Time, place []int) {
	type player struct{ name, key string }
	perPlayer := make(map[player]int)
	n := 0
	for i, e := range es {
		place[i] = 0
		if e.When.Before(since) || n == MaxEntries {
			continue
		}
		var p player
		p.name, p.key = playerOf(e)
		if perPlayer[p]++; perPlayer[p] > PerPlayer {
			continue
		}
		n++
		place[i] = n
	}
}

// prune drops the entries on no board: a store keeps each period's
// board whole, so that today's best stays listed though it is not among
// the player's best of all time. The caller holds s.mu (or owns s).
func (s *Store) prune() {
	now := s.clock()
	keep := make([]bool, len(s.entries))
	place := make([]int, len(s.entries))
	for _, p := range Periods {
		places(s.entries, p.Start(now), place)
		for i, n := range place {
			keep[i] = keep[i] || n > 0
		}
	}
	j := 0
	for i, e := range s.entries {
		if keep[i] {
			s.entries[j] = e
			j++
		}
	}
	clear(s.entries[j:])
	s.entries = s.entries[:j]
}

// clock returns now, as the store's periods see it.
func (s *Store) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// board returns the board of p, best first. The caller holds s.mu.
func (s *Store) board(p Period) []Entry {
	place := make([]int, len(s.entries))
	places(s.entries, p.Start(s.clock()), place)
	var out []Entry
	for i, n := range place {
		if n > 0 {
			out = append(out, s.entries[i])
		}
	}
	return out
}

// Board returns the best n entries of the period p, best first (all of
// them when n <= 0). The slice is the caller's. Board(AllTime, n) is
// Top(n). It costs a pass over the table.
func (s *Store) Board(p Period, n int) []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(p)
	if n > 0 && n < len(b) {
		b = b[:n]
	}
	return b
}

// Best returns the best entry of the player name, with the store's key
// (see [Store.For]), in the period p, and its place on that board; ok is
// false when the player has none there. The name is cleaned as
// [Store.Add] cleans it.
func (s *Store) Best(p Period, name string) (e Entry, place int, ok bool) {
	name = cleanName(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, o := range s.board(p) {
		if owns(o, name, s.key) {
			return o, i + 1, true
		}
	}
	return Entry{}, 0, false
}
