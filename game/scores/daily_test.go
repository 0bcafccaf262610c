package scores

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/scores/pgtest"
)

// dailyGame is a daily game's replay and what it proves.
type dailyGame struct {
	data  []byte
	proof daily.Proof
}

// dailyGames plays n daily games of today by hand, as player name, each
// of another score, and returns them lowest score first. Their hands' seeds
// start at from: the same seeds play the same games, whatever the name.
func dailyGames(t *testing.T, name string, n int, from uint64) []dailyGame {
	t.Helper()
	now := time.Now()
	seen := make(map[int]bool)
	var gs []dailyGame
	for seed := from; len(gs) < n; seed++ {
		if seed > from+100 {
			t.Fatalf("%d games of distinct scores in 100 seeds", len(gs))
		}
		data, _ := dailytest.HandGame(t, daily.DayOf(now), nil, name, seed, 1500+int(seed)*300)
		p, err := daily.Verify(t.Context(), data, now, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !seen[p.Score] {
			seen[p.Score] = true
			gs = append(gs, dailyGame{data, p})
		}
	}
	slices.SortFunc(gs, func(a, b dailyGame) int { return a.proof.Score - b.proof.Score })
	return gs
}

// dailyNames lists "name:score" of a board, practice games marked.
func dailyNames(es []DailyEntry) string {
	var s []string
	for _, e := range es {
		p := ""
		if e.Practice {
			p = "(practice)"
		}
		s = append(s, fmt.Sprintf("%s:%d%s", e.Name, e.Score, p))
	}
	return strings.Join(s, " ")
}

// testDaily is the daily board's contract on a store that open opens
// afresh on one table: the first game of a player counts and ranks, later
// ones are practice (kept while the player's best), a game added again
// by anyone is refused; a player is their key, whatever the name, else
// their name; every kept game's replay reads back re-played; another
// store sees it all.
func testDaily(t *testing.T, open func() *Store) {
	gs := dailyGames(t, "ann", 6, 1)
	eve, low, lo, mid, hi, top := gs[0], gs[1], gs[2], gs[3], gs[4], gs[5]
	d := lo.proof.Day
	s := open()
	ann := s.For(annKey)
	add := func(st *Store, name string, g dailyGame) DailyResult {
		t.Helper()
		res, err := st.AddDaily(name, g.proof, g.data)
		if err != nil {
			t.Fatalf("%s's game of %d: %v", name, g.proof.Score, err)
		}
		return res
	}

	r := add(ann, "ann", mid)
	if !r.Counted || r.Rank != 1 || r.Board != 1 || !r.Kept || r.Entry.Score != mid.proof.Score || r.Entry.Wave != mid.proof.Wave ||
		r.Entry.Practice || r.Entry.Fingerprint != annKey || r.Entry.Replay == "" {
		t.Errorf("ann's first game: %+v", r)
	}
	for _, st := range []*Store{ann, s.For(""), s.For(otherKey)} {
		_, err := st.AddDaily("bob", mid.proof, mid.data)
		if pe, ok := errors.AsType[*PostedError](err); !ok || pe.Entry.Name != "ann" || pe.Rank != 1 {
			t.Errorf("ann's game added again by %q: %v", st.key, err)
		}
	}
	if r := add(ann, "ann", lo); r.Counted || r.Kept || r.Rank != 2 || r.Board != 1 || !r.Entry.Practice {
		t.Errorf("ann's worse second game: %+v; want practice, not kept, would be #2", r)
	}
	if r := add(ann, "annie", hi); r.Counted || !r.Kept || r.Rank != 1 || r.Entry.Name != "annie" {
		t.Errorf("ann's better game as annie, with her key: %+v; want practice, kept, would be #1", r)
	}
	// The same name without her key is another player, whose first
	// game counts; a second player typing it, keyless, has none.
	if r := add(s.For(""), "ann", low); !r.Counted || r.Rank != 2 || r.Board != 2 {
		t.Errorf("ann without a key: %+v; want counted, #2", r)
	}
	if r := add(s.For(""), "ann", top); r.Counted || !r.Kept {
		t.Errorf("a second keyless ann: %+v; want practice: the name's game counts already", r)
	}
	if r := add(s.For(otherKey), "eve", eve); !r.Counted {
		t.Errorf("eve: %+v", r)
	}

	check := func(st *Store) {
		t.Helper()
		want := fmt.Sprintf("ann:%d ann:%d eve:%d", mid.proof.Score, low.proof.Score, eve.proof.Score)
		if got := dailyNames(st.Daily(d, 0)); got != want {
			t.Errorf("the board: %s, want %s", got, want)
		}
		if got := dailyNames(st.Daily(d, 1)); got != fmt.Sprintf("ann:%d", mid.proof.Score) {
			t.Errorf("the board's best one: %s", got)
		}
		if b, ok := st.DailyBest(d); !ok || b.Sum != mid.proof.Sum {
			t.Errorf("the day's best: %+v, %v", b, ok)
		}
		annK := st.For(annKey)
		if e, rank, ok := annK.DailyCounted(d, "whatever"); !ok || e.Sum != mid.proof.Sum || rank != 1 {
			t.Errorf("ann's counted game, by her key under any name: %+v #%d %v", e, rank, ok)
		}
		if e, ok := annK.DailyOwn(d, "ann"); !ok || e.Sum != hi.proof.Sum || !e.Practice {
			t.Errorf("ann's own best: %+v, %v; want her practice game", e, ok)
		}
		if e, rank, ok := st.For("").DailyCounted(d, "ann"); !ok || e.Sum != low.proof.Sum || rank != 2 {
			t.Errorf("keyless ann's counted game: %+v #%d %v", e, rank, ok)
		}
		if e, ok := st.For("").DailyOwn(d, "ann"); !ok || e.Sum != top.proof.Sum {
			t.Errorf("keyless ann's own best: %+v, %v", e, ok)
		}
		if _, _, ok := st.For("").DailyCounted(d, "bob"); ok {
			t.Error("bob, who added nothing, has a counted game")
		}
		if got := st.Daily(d-1, 0); len(got) != 0 {
			t.Errorf("yesterday's board: %s", dailyNames(got))
		}
		for _, g := range []dailyGame{mid, hi, low, top} {
			var e DailyEntry
			for _, o := range st.dailyOf(d) {
				if o.Sum == g.proof.Sum {
					e = o
				}
			}
			data, err := st.DailyReplay(t.Context(), e, nil)
			if err != nil || !bytes.Equal(data, g.data) {
				t.Errorf("the replay of %s's %d: %d bytes, %v", e.Name, g.proof.Score, len(data), err)
			}
		}
	}
	check(s)
	check(open())

	// A proof of another replay ranks what it says (the caller proved
	// it), but its replay, read, proves otherwise: refused.
	forged := lo.proof
	forged.Sum++
	r = add(s.For(""), "mal", dailyGame{mid.data, forged})
	if _, err := s.DailyReplay(t.Context(), r.Entry, nil); err == nil || !strings.Contains(err.Error(), "does not prove it") {
		t.Errorf("a replay that proves another game: %v", err)
	}
	old := lo.proof
	old.Day = d - KeepDays
	if _, err := s.AddDaily("old", old, lo.data); err == nil {
		t.Errorf("a game of %s, not kept at %s, was added", old.Day, d)
	}
}

// bobKey is a third key's fingerprint.
const bobKey = "SHA256:B0bKeyB0bKeyB0bKeyB0bKeyB0bKeyB0bKeyB0bKeyA"

// dailyOf returns the store's games of day d, practice ones included.
func (s *Store) dailyOf(d daily.Day) []DailyEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(dayOf(s.daily, d))
}

func TestDaily(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "scores.json")
	testDaily(t, func() *Store {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
	// Beside the table, in files of their own that a program knowing no
	// daily board leaves alone; the replays kept, and no other file.
	ents, _ := os.ReadDir(path + ".daily-replays")
	var files []string
	for _, e := range ents {
		files = append(files, e.Name())
	}
	s, _ := Open(path)
	var kept []string
	for _, e := range s.dailyOf(s.today()) {
		if e.Replay != "" {
			kept = append(kept, e.Replay)
		}
	}
	slices.Sort(kept)
	if !slices.Equal(files, kept) || len(kept) != 6 {
		t.Errorf("the replays directory holds %q; the boards keep %q", files, kept)
	}
	if _, err := os.Stat(path + ".daily"); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a daily game wrote the table")
	}
}

// The rules of a day's board, on games made up: one counted game a
// player, the first; one practice game, the best, only while it beats
// that one; MaxEntries on the board, the players below cut with their
// practice; the replays within DailyReplayBytes, the best first.
func TestDailyRules(t *testing.T) {
	t.Parallel()
	game := func(name string, score, minute int, practice bool) DailyEntry {
		e := DailyEntry{Entry: Entry{Name: name, Score: score, Wave: 1, When: t0.Add(time.Duration(minute) * time.Minute)},
			Day: daily.DayOf(t0), Sum: uint64(score)<<8 | uint64(minute), Practice: practice, Size: 100}
		e.Replay = dailyReplayName(e)
		return e
	}
	es := tidyDaily([]DailyEntry{
		game("ann", 500, 2, false), // a second counted game: not hers
		game("ann", 300, 1, false),
		game("ann", 200, 3, true), // worse than her counted one
		game("ann", 700, 4, true),
		game("ann", 600, 5, true), // her best practice is the 700
		game("bob", 400, 1, true), // practice without a counted game
		game("cy", 100, 1, false),
	})
	if got := dailyNames(es); got != "ann:700(practice) ann:300 cy:100" {
		t.Errorf("tidied: %s", got)
	}

	var day []DailyEntry
	for i := range MaxEntries {
		day = append(day, game(fmt.Sprint("p", i), 1000+i, i, false))
	}
	day = append(day, game("p0", 5000, 2000, true)) // p0 lowest, with a practice game
	out, res, err := addDaily(day, game("new", 1500, 3000, false))
	if err != nil || !res.Counted || !res.Kept || res.Board != MaxEntries {
		t.Fatalf("a game above the cut of a full board: %+v, %v", res, err)
	}
	if slices.ContainsFunc(out, func(e DailyEntry) bool { return e.Name == "p0" }) {
		t.Error("the player pushed off the board kept a game")
	}
	if _, res, _ := addDaily(out, game("low", 1, 3001, false)); !res.Counted || res.Kept || res.Rank != 0 {
		t.Errorf("a game below the cut: %+v; want counted, not kept, no rank", res)
	}
	if _, res, _ := addDaily(out, game("p5", 1, 3002, true)); res.Counted || res.Kept || res.Rank != 0 {
		t.Errorf("practice below the cut: %+v", res)
	}

	big := func(name string, score int) DailyEntry {
		e := game(name, score, score, false)
		e.Size = DailyReplayBytes/3 + 1
		return e
	}
	es = tidyDaily([]DailyEntry{big("a", 3), big("b", 2), big("c", 1), game("d", 0, 9, false)})
	var kept []string
	for _, e := range es {
		if e.Replay != "" {
			kept = append(kept, e.Name)
		}
	}
	if strings.Join(kept, " ") != "a b d" {
		t.Errorf("replays kept within the budget: %q, want a b d", kept)
	}
}

// TestDailyFileShared: two stores on one file (two processes) decide
// each game with the other's: a player's game counts once whichever
// store took it, and a game taken by one is refused by the other.
func TestDailyFileShared(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "scores.json")
	a, _ := Open(path)
	b, _ := Open(path)
	gs := dailyGames(t, "ann", 3, 1)
	d := gs[0].proof.Day
	if r, err := a.For(annKey).AddDaily("ann", gs[0].proof, gs[0].data); err != nil || !r.Counted {
		t.Fatalf("ann's first game on a: %+v, %v", r, err)
	}
	if r, err := b.For(annKey).AddDaily("ann", gs[1].proof, gs[1].data); err != nil || r.Counted || !r.Kept {
		t.Errorf("ann's second game on b: %+v, %v; want practice, her best", r, err)
	}
	if _, err := b.AddDaily("bob", gs[0].proof, gs[0].data); !errors.As(err, new(*PostedError)) {
		t.Errorf("a's game on b: %v, want a PostedError", err)
	}
	if r, err := a.AddDaily("cy", gs[2].proof, gs[2].data); err != nil || !r.Counted || r.Board != 2 {
		t.Errorf("cy's game on a: %+v, %v", r, err)
	}
	for _, s := range []*Store{a, b} {
		if _, err := s.AddDaily("cy", gs[2].proof, gs[2].data); !errors.As(err, new(*PostedError)) {
			t.Errorf("cy's game again: %v", err)
		}
		if got := dailyNames(s.Daily(d, 0)); got != fmt.Sprintf("cy:%d ann:%d", gs[2].proof.Score, gs[0].proof.Score) {
			t.Errorf("the board: %s", got)
		}
	}
}

// TestDailyFileUnusable: a daily file that is no board is set aside, as
// the table is, and the store starts a new one; one that is a directory
// is left alone, and a game then saves nothing, which the player is told.
func TestDailyFileUnusable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "scores.json")
	if err := os.WriteFile(path+".daily", []byte(`{"version":1,"entries":[`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if aside, ok := errors.AsType[*SetAsideError](err); !ok || !errors.Is(err, ErrCorrupt) || !strings.HasPrefix(aside.Aside, path+".daily.bad-") {
		t.Fatalf("Open of a corrupt daily file: %v", err)
	}
	g := dailyGames(t, "ann", 1, 1)[0]
	if r, err := s.AddDaily("ann", g.proof, g.data); err != nil || !r.Counted {
		t.Errorf("a game after: %+v, %v", r, err)
	}

	other := filepath.Join(dir, "other.json")
	if err := os.Mkdir(other+".daily", 0o755); err != nil {
		t.Fatal(err)
	}
	s, err = Open(other)
	if !errors.Is(err, ErrNotFile) {
		t.Fatalf("Open with a directory for the daily file: %v", err)
	}
	_, err = s.AddDaily("ann", g.proof, g.data)
	if se, ok := errors.AsType[*SaveError](err); !ok || se.Error() != "high score not saved: the score file is unusable" {
		t.Errorf("a game with the daily file a directory: %v", err)
	}
	if n := len(s.Daily(g.proof.Day, 0)); n != 0 {
		t.Errorf("the game not saved is on the board (%d)", n)
	}
}

// TestPostgresDaily: the daily board's contract on PostgreSQL; two
// servers taking one player's two games, and one game twice, at once,
// count one and keep the other once; and what the database holds is
// checked as a file's games are, however it got there.
func TestPostgresDaily(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	testDaily(t, func() *Store { return openPG(t, pg.URL) })

	a, b := openPG(t, pg.URL), openPG(t, pg.URL)
	gs := dailyGames(t, "bob", 3, 200)
	d := gs[0].proof.Day
	type answer struct {
		r   DailyResult
		err error
	}
	answers := make(chan answer, 4)
	for i, st := range []*Store{a, b} {
		go func() {
			r, err := st.For(bobKey).AddDaily("bob", gs[i].proof, gs[i].data)
			answers <- answer{r, err}
		}()
		go func() {
			r, err := st.AddDaily(fmt.Sprint("cy", i), gs[2].proof, gs[2].data)
			answers <- answer{r, err}
		}()
	}
	counted, posted := 0, 0
	for range 4 {
		x := <-answers
		switch _, ok := errors.AsType[*PostedError](x.err); {
		case ok:
			posted++
		case x.err != nil:
			t.Fatal(x.err)
		case x.r.Counted && x.r.Entry.Name == "bob":
			counted++
		}
	}
	if counted != 1 || posted != 1 {
		t.Errorf("at once on two servers: bob's games counted %d, the game taken twice refused %d; want 1 and 1", counted, posted)
	}
	if _, rank, ok := openPG(t, pg.URL).For(bobKey).DailyCounted(d, "bob"); !ok || rank == 0 {
		t.Errorf("bob's counted game: #%d, %v", rank, ok)
	}

	conn := pgConn(t, pg.URL)
	ctx := t.Context()
	junk := bytes.Repeat([]byte{'x'}, daily.MaxBytes+1)
	for _, r := range []struct {
		name        string
		day         daily.Day
		score       int
		sum, steps  int64
		replay      []byte
		fingerprint string
	}{
		{"\x1b]0;PWNED\x07evil", d, 9000, 1, 60, []byte("not a replay"), ""},
		{"neg", d, -5, 2, 60, nil, ""},
		{"old", d - KeepDays, 100, 3, 60, nil, ""},
		{"long", d, 100, 4, daily.MaxSteps + 1, nil, ""},
		{"big", d, 8000, 5, 60, junk, ""},
		{"nokey", d, 7000, 6, 60, nil, "SHA256:not a key"},
	} {
		if _, err := conn.Exec(ctx, `INSERT INTO poolroids_daily (day, name, fingerprint, score, wave, steps, sum, practice, at, size, replay)
			VALUES ($1, $2, $3, $4, 1, $5, $6, false, now(), 60, $7)`, int64(r.day), r.name, r.fingerprint, r.score, r.steps, r.sum, r.replay); err != nil {
			t.Fatal(err)
		}
	}
	s := openPG(t, pg.URL)
	board := s.Daily(d, 0)
	if got := dailyNames(board); !strings.HasPrefix(got, "evil:9000 big:8000 ") || strings.Contains(got, "neg:") ||
		strings.Contains(got, "old:") || strings.Contains(got, "long:") || strings.Contains(got, "nokey:") {
		t.Errorf("the board: %s; want the name cleaned, and neg, old, long and nokey left out", got)
	}
	if _, err := s.DailyReplay(ctx, board[0], nil); err == nil || !strings.Contains(err.Error(), "does not prove it") {
		t.Errorf("a row's replay that is no replay: %v", err)
	}
	if _, err := s.DailyReplay(ctx, board[1], nil); err == nil || !strings.Contains(err.Error(), "is over") {
		t.Errorf("a replay of daily.MaxBytes+1 bytes: %v, want refused unread", err)
	}
}

// TestPostgresDailyQueue: with the database down, a daily game waits in
// the queue (ErrQueued), counted for the player's notice and on no board;
// the database back, it is posted once and ranks by the board's rules: the
// first game of the player counts, a second queued behind it is practice.
// A queued game that posts after another server posted it is done.
func TestPostgresDailyQueue(t *testing.T) {
	was := postEvery
	t.Cleanup(func() { postEvery = was })
	postEvery = 20 * time.Millisecond
	pg := pgtest.Start(t)
	s := openPG(t, pg.URL)
	if err := s.SetQueue(filepath.Join(t.TempDir(), "queue")); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	s.SetLogger(slog.New(slog.NewTextHandler(&log, nil)))
	gs := dailyGames(t, "ann", 2, 400)
	d := gs[0].proof.Day
	pg.Stop()
	// The first game twice, as a retry whose answer was lost queues it.
	for _, g := range append(gs, gs[0]) {
		res, err := s.AddDaily("ann", g.proof, g.data)
		if !errors.Is(err, ErrQueued) || res.Entry.Score != g.proof.Score {
			t.Fatalf("a daily game with the database down: %+v, %v; want ErrQueued", res, err)
		}
	}
	if n := s.Queued("ann", time.Now().Add(-time.Minute)); n != 3 {
		t.Errorf("Queued(ann) = %d, want 3", n)
	}
	if got := s.dailyOf(d); len(got) != 0 {
		t.Errorf("the daily board during the outage: %s, want none: a queued game counts once posted", dailyNames(got))
	}
	pg.Start()
	if !eventually(10*time.Second, func() bool { return s.Stats().Queued == 0 }) {
		t.Fatalf("the daily queue was never posted: %+v", s.Stats())
	}
	// Lowest first: the first queued counts, the better second is practice.
	want := fmt.Sprintf("ann:%d(practice) ann:%d", gs[1].proof.Score, gs[0].proof.Score)
	if got := dailyNames(s.dailyOf(d)); got != want {
		t.Errorf("the daily board once posted: %s, want %s", got, want)
	}
	if _, err := s.DailyReplay(t.Context(), s.Daily(d, 1)[0], nil); err != nil {
		t.Errorf("the queued game's replay: %v", err)
	}
	// The copy is done, neither counted as posted nor a second entry.
	if st := s.Stats(); st.Down || st.Posted != 2 {
		t.Errorf("stats once posted: %+v, want 2 posted", st)
	}
	if text := log.String(); strings.Count(text, "queued daily game posted") != 2 || !strings.Contains(text, "queued daily game was posted already") {
		t.Errorf("the log says:\n%s", text)
	}
}
