package scores

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/levels"
)

// The daily board ranks the games of package daily: everyone's game of a
// day is the same, and each entry is proven by its replay. A board holds
// one day's games.
//
// # Proven, not claimed
//
// [Store.AddDaily] takes a [daily.Proof], what a replay proves by being
// re-played ([daily.Verify]), and the replay itself: the score and wave
// on the board are the proof's, never a number a client sends. A game is
// known by the proof's checksum (Sum): the same game added again, by
// anyone, on any server, is refused with a [*PostedError], and nothing is
// kept twice.
//
// # One game counts
//
// A player's first game of a day to reach the store counts, and is the
// one on the board; the later ones are practice, and say so
// ([DailyResult].Counted): else a player could play until one went well.
// A game left in play counts as left. A game played elsewhere, locally,
// reaches the store when it is posted: no store sees the games never
// posted, so only games played on a server are held to the rule whole. A practice game better than the
// player's best of the day is kept too, off the board, as their own best
// (a ghost to race, [Store.DailyOwn]); at most one is kept a player.
//
// Here a player is the SSH key's fingerprint when there is one, whatever
// the name, and otherwise the name, of no key: a name without a key is
// anyone's to type, so whoever takes it first takes its counted game
// too, whereas a key's game is its holder's alone, under any name.
//
// # Bounds
//
// A board ranks at most [MaxEntries] counted games; a game below the cut
// is not kept (nor its practice), and is then forgotten. The store keeps
// the boards of [KeepDays] days. Every entry keeps its replay, each at
// most [daily.MaxBytes], best first while a day's replays take at most
// [DailyReplayBytes]; an entry past that keeps none.
//
// # Trust
//
// What a store reads back (a file a person may edit, a database row any
// of a fleet's servers or its operator may write) is checked as the
// other boards' entries are: names cleaned, numbers in range, one counted
// game and one practice game a player and day. The numbers themselves
// are taken as written: re-playing every entry at each read would cost a
// server its cores. A replay, though, is re-played when it is read
// ([Store.DailyReplay]) and must prove its entry: one that does not is
// refused, so an edited row can show a number, never fly as a ghost of
// it.
//
// In PostgreSQL the rules hold across a fleet: each add is one
// transaction under the stores' advisory lock, and unique indexes hold a
// game, and a player's counted game of a day, to one row. A daily game
// the database cannot take waits in the queue, when the store has one
// ([ErrQueued]; see queue.go), else AddDaily returns a [*SaveError]:
// whether a queued game counts is the database's to say once it is back.

const (
	// KeepDays is how many daily boards the store keeps: the day's and
	// those of the days before it.
	KeepDays = 7
	// DailyReplayBytes bounds the replays a day's board keeps.
	DailyReplayBytes = 32 << 20
)

// DailyEntry is a game of a daily board.
type DailyEntry struct {
	// Entry holds the player (Name, Fingerprint), the proven Score and
	// Wave, When it was added, and the name of its Replay ("": none
	// kept). Strategy and Arena are empty.
	Entry
	Day      daily.Day `json:"day"`
	Steps    uint64    `json:"steps"`              // steps of play the proof re-played
	Sum      uint64    `json:"sum"`                // the proof's checksum: the game's identity
	Practice bool      `json:"practice,omitempty"` // not the player's counted game of the day
	Size     int       `json:"size"`               // its replay's bytes, kept or not
}

// Time returns how long the game was played.
func (e DailyEntry) Time() time.Duration {
	return time.Duration(e.Steps) * time.Second / game.TPS
}

// DailyResult is what [Store.AddDaily] did with a game.
type DailyResult struct {
	// Entry is the game as the store keeps it: its name cleaned, its time
	// set, Practice set.
	Entry DailyEntry
	// Counted is set for the player's game of the day, which is on the
	// board; a game that is not is practice.
	Counted bool
	// Rank is the game's place on the day's board, 1-based; for a
	// practice game, the place its score would take. 0: below the cut.
	Rank int
	// Board is how many games the day's board ranks.
	Board int
	// Kept is set for a game kept: a counted one, or a practice one that
	// is the player's best of the day.
	Kept bool
}

// PostedError is what [Store.AddDaily] returns for a game the store
// holds already: the same game (the same [daily.Proof].Sum), added again
// by whoever. Nothing is added.
type PostedError struct {
	Entry DailyEntry // the game as the store holds it
	Rank  int        // its place on its day's board; 0 for a practice game
}

func (e *PostedError) Error() string {
	where := "as practice"
	if e.Rank > 0 {
		where = fmt.Sprintf("#%d on the board", e.Rank)
	}
	return fmt.Sprintf("this game of %s is kept already: %s's, %s", e.Entry.Day, e.Entry.Name, where)
}

// compareDaily orders a day's games best first: the higher score, then
// the game added first, then name, key and checksum, so that no two
// games tie.
func compareDaily(a, b DailyEntry) int {
	return cmp.Or(cmp.Compare(b.Score, a.Score), a.When.Compare(b.When), strings.Compare(a.Name, b.Name),
		strings.Compare(a.Fingerprint, b.Fingerprint), cmp.Compare(a.Sum, b.Sum))
}

// dailyPlayer is whom e's game is: its key's fingerprint, or without
// one its name.
func dailyPlayer(name, key string) string {
	if key != "" {
		return key
	}
	return "name " + name // no fingerprint starts so
}

// dailyReplayName names the replay of e where the store keeps it.
func dailyReplayName(e DailyEntry) string {
	return fmt.Sprintf("%s-%016x%s", e.Day, e.Sum, replayExt)
}

// checkDaily makes e fit to keep and show, as check does an Entry, and
// reports false for one to refuse: a day not kept at today, more steps
// than a daily game has, a replay size out of range.
func checkDaily(e *DailyEntry, today daily.Day) bool {
	e.Strategy, e.Arena = "", ""
	if !check(&e.Entry) || e.Day <= today-KeepDays || e.Day > today+1 || e.Steps > daily.MaxSteps ||
		e.Size < 0 || e.Size > daily.MaxBytes {
		return false
	}
	if e.Replay != "" && e.Replay != dailyReplayName(*e) {
		e.Replay = ""
	}
	return true
}

// addDaily adds e, with a replay of e.Size bytes if e.Replay is set, to
// es, day e.Day's games in any order, by the rules of the package doc,
// and returns the day's games after it, tidied. Its error is a
// *PostedError for a game es holds.
func addDaily(es []DailyEntry, e DailyEntry) ([]DailyEntry, DailyResult, error) {
	es = tidyDaily(slices.Clone(es))
	player := dailyPlayer(e.Name, e.Fingerprint)
	var counted, practice *DailyEntry
	for i := range es {
		o := &es[i]
		if o.Sum == e.Sum {
			return es, DailyResult{}, &PostedError{Entry: *o, Rank: boardPlace(es, *o)}
		}
		if dailyPlayer(o.Name, o.Fingerprint) == player {
			if o.Practice {
				practice = o
			} else {
				counted = o
			}
		}
	}
	res := DailyResult{Counted: counted == nil}
	e.Practice = counted != nil
	switch {
	case counted == nil:
		es = append(es, e)
	case compareDaily(e, *counted) < 0 && (practice == nil || compareDaily(e, *practice) < 0):
		// The player's best of the day: it replaces their practice game.
		if practice != nil {
			*practice = e
		} else {
			es = append(es, e)
		}
	}
	es = tidyDaily(es)
	for _, o := range es {
		if o.Sum == e.Sum {
			res.Entry, res.Kept = o, true
		}
	}
	if !res.Kept {
		res.Entry = e
		res.Entry.Replay = ""
	}
	for _, o := range es {
		if !o.Practice {
			res.Board++
		}
	}
	if res.Counted {
		res.Rank = boardPlace(es, e)
	} else {
		res.Rank = 1
		for _, o := range es {
			if !o.Practice && compareDaily(o, e) < 0 {
				res.Rank++
			}
		}
		if res.Rank > MaxEntries {
			res.Rank = 0
		}
	}
	return es, res, nil
}

// boardPlace returns e's place among the counted games of es, sorted, 0
// for a practice game or one not in es.
func boardPlace(es []DailyEntry, e DailyEntry) int {
	if e.Practice {
		return 0
	}
	n := 0
	for _, o := range es {
		if !o.Practice {
			n++
			if o.Sum == e.Sum {
				return n
			}
		}
	}
	return 0
}

// tidyDaily makes es, one day's games, what the rules allow, sorted best
// first: one counted game a player, the first added; one practice game a
// player on the board, their best, and only while it beats their counted
// one; MaxEntries counted games, the players below them dropped; and the
// replays within DailyReplayBytes, the best games' first. es is changed
// in place.
func tidyDaily(es []DailyEntry) []DailyEntry {
	first := make(map[string]DailyEntry) // each player's counted game
	for _, e := range es {
		if p := dailyPlayer(e.Name, e.Fingerprint); !e.Practice {
			if f, ok := first[p]; !ok || e.When.Before(f.When) || e.When.Equal(f.When) && e.Sum < f.Sum {
				first[p] = e
			}
		}
	}
	slices.SortFunc(es, compareDaily)
	onBoard := make(map[string]bool, len(first))
	for _, e := range es {
		if p := dailyPlayer(e.Name, e.Fingerprint); !e.Practice && first[p].Sum == e.Sum && len(onBoard) < MaxEntries {
			onBoard[p] = true
		}
	}
	practiced := make(map[string]bool)
	budget := DailyReplayBytes
	out := es[:0]
	for _, e := range es {
		p := dailyPlayer(e.Name, e.Fingerprint)
		switch {
		case !onBoard[p]:
			continue
		case !e.Practice && first[p].Sum != e.Sum:
			continue
		case e.Practice && (practiced[p] || compareDaily(e, first[p]) >= 0):
			continue
		}
		practiced[p] = practiced[p] || e.Practice
		if e.Replay != "" {
			if e.Size > budget {
				e.Replay = ""
			} else {
				budget -= e.Size
			}
		}
		out = append(out, e)
	}
	clear(es[len(out):])
	return out
}

// today is the store's day now.
func (s *Store) today() daily.Day { return daily.DayOf(s.clock()) }

// AddDaily adds the daily game that p proves, whose replay file is replay,
// as the player name with the store's key (see [Store.For]), by the rules
// of the daily board (see daily.go): its result says whether it counts,
// its place, and whether it was kept. p must come from [daily.Verify] of
// replay (a proof of another file would rank the wrong game); the
// replay is kept with the entry while the day's board has room for it.
// The name is cleaned as [Store.Add] cleans it.
//
// The same game added before is refused with a [*PostedError]; a game of
// a day not kept, or a replay over [daily.MaxBytes], is an error; so is
// a save that fails, a [*SaveError], and then nothing is added. A
// database store with a queue answers [ErrQueued] instead: the game waits
// on disk, and the result holds only its entry.
func (s *Store) AddDaily(name string, p daily.Proof, replay []byte) (DailyResult, error) {
	if s == nil {
		return DailyResult{}, errNoStore
	}
	e := DailyEntry{
		Entry: Entry{Name: name, Score: p.Score, Wave: p.Wave, When: s.clock(), Fingerprint: s.key},
		Day:   p.Day, Steps: p.Steps, Sum: p.Sum, Size: len(replay),
	}
	if replay != nil {
		e.Replay = dailyReplayName(e)
	}
	if !checkDaily(&e, s.today()) {
		return DailyResult{}, fmt.Errorf("high scores: daily game refused: %s, score %d, wave %d, %d steps, %d bytes, key %q",
			e.Day, e.Score, e.Wave, e.Steps, len(replay), e.Fingerprint)
	}
	if s.db != nil {
		e.When = e.When.Truncate(time.Microsecond) // as PostgreSQL keeps it
		return s.db.addDaily(s, e, replay)
	}
	return s.addDailyFile(e, replay)
}

// setDaily makes the store's daily boards es, keeping the days kept at
// today, each tidied. The caller holds s.mu.
func (s *Store) setDaily(es []DailyEntry) {
	today := s.today()
	byDay := make(map[daily.Day][]DailyEntry)
	for _, e := range es {
		if checkDaily(&e, today) {
			byDay[e.Day] = append(byDay[e.Day], e)
		}
	}
	days := make([]daily.Day, 0, len(byDay))
	for d := range byDay {
		days = append(days, d)
	}
	slices.Sort(days)
	var all []DailyEntry
	for _, d := range slices.Backward(days) {
		all = append(all, tidyDaily(byDay[d])...)
	}
	s.daily = all
}

// dayOf returns day d's games from es, newest day first as setDaily
// keeps them: a slice of es.
func dayOf(es []DailyEntry, d daily.Day) []DailyEntry {
	i, _ := slices.BinarySearchFunc(es, d, func(e DailyEntry, d daily.Day) int { return cmp.Compare(d, e.Day) })
	j := i
	for j < len(es) && es[j].Day == d {
		j++
	}
	return es[i:j]
}

// Daily returns the best n games of day d's board, best first (all of
// them when n <= 0): each player's counted game. The slice is the
// caller's. It costs a pass over the day's games. A nil Store has none.
func (s *Store) Daily(d daily.Day, n int) []DailyEntry {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []DailyEntry
	for _, e := range dayOf(s.daily, d) {
		if !e.Practice {
			out = append(out, e)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// DailyBest returns the best game of day d's board that keeps its
// replay: the day's ghost. ok is false when there is none.
func (s *Store) DailyBest(d daily.Day) (e DailyEntry, ok bool) {
	if s == nil {
		return DailyEntry{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range dayOf(s.daily, d) {
		if !e.Practice && e.Replay != "" {
			return e, true
		}
	}
	return DailyEntry{}, false
}

// DailyCounted returns the counted game of day d of the player name, with
// the store's key (see the package doc's players: with a key, the key's
// whatever its name), and its place on the board; ok is false when the
// player has none: their next game counts.
func (s *Store) DailyCounted(d daily.Day, name string) (e DailyEntry, rank int, ok bool) {
	if s == nil {
		return DailyEntry{}, 0, false
	}
	player := dailyPlayer(cleanName(name), s.key)
	s.mu.Lock()
	defer s.mu.Unlock()
	es := dayOf(s.daily, d)
	for _, e := range es {
		if !e.Practice && dailyPlayer(e.Name, e.Fingerprint) == player {
			return e, boardPlace(es, e), true
		}
	}
	return DailyEntry{}, 0, false
}

// DailyOwn returns the best game of day d of the player name, with the
// store's key, that keeps its replay: counted or practice, their own
// ghost. ok is false when there is none.
func (s *Store) DailyOwn(d daily.Day, name string) (e DailyEntry, ok bool) {
	if s == nil {
		return DailyEntry{}, false
	}
	player := dailyPlayer(cleanName(name), s.key)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range dayOf(s.daily, d) {
		if e.Replay != "" && dailyPlayer(e.Name, e.Fingerprint) == player {
			return e, true
		}
	}
	return DailyEntry{}, false
}

// DailyReplay returns the replay kept with e, a game of one of the
// store's daily boards, once re-played: it must prove e's day, score,
// wave, steps and checksum on set (nil: the shipped levels), as the game
// was proven when it was added, else it is refused. That costs a proof
// ([daily.Verify]: a fraction of a second of one core for a game of 20
// minutes), within ctx. A replay over [daily.MaxBytes] is refused unread.
func (s *Store) DailyReplay(ctx context.Context, e DailyEntry, set *levels.Set) ([]byte, error) {
	if s == nil {
		return nil, errNoStore
	}
	if e.Replay == "" || e.Replay != dailyReplayName(e) {
		return nil, fmt.Errorf("high scores: %s's daily game of %s keeps no replay", e.Name, e.Day)
	}
	var data []byte
	var err error
	if s.db != nil {
		data, err = s.db.readDailyReplay(ctx, e)
	} else {
		data, err = readKept(s.dailyDir(), e.Replay, daily.MaxBytes)
	}
	if err != nil {
		return nil, err
	}
	// Any instant of the day: its game is open then.
	p, err := daily.Verify(ctx, data, e.Day.Start().Add(12*time.Hour), set)
	if err == nil && (p.Day != e.Day || p.Score != e.Score || p.Wave != e.Wave || p.Steps != e.Steps || p.Sum != e.Sum) {
		err = fmt.Errorf("it proves score %d, wave %d, %d steps, checksum %016x; its entry says %d, %d, %d, %016x",
			p.Score, p.Wave, p.Steps, p.Sum, e.Score, e.Wave, e.Steps, e.Sum)
	}
	if err != nil {
		err = fmt.Errorf("high scores: the replay of %s's daily game of %s does not prove it: %w", e.Name, e.Day, err)
		if s.log != nil && !errors.Is(err, ctx.Err()) {
			s.log.Warn("daily replay refused", "player", e.Name, "day", e.Day, "err", err)
		}
		return nil, err
	}
	return data, nil
}
