package scores

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"poolroids/game/scores/pgtest"
)

// pgConn is a connection to the database at url of the test's own, as
// another program's, to write what a store would not.
func pgConn(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func openPG(t testing.TB, url string) *Store {
	t.Helper()
	s, err := OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestPostgres: a database store keeps the file store's table: ranks, each
// player's best PerPlayer, the boards of each period, the best games'
// replays; another store on the same database sees it all, and the schema
// is at this program's version.
func TestPostgres(t *testing.T) {
	pg := pgtest.Start(t)
	s := openPG(t, pg.URL)
	now := time.Date(2025, 3, 5, 12, 0, 0, 0, time.UTC) // a Wednesday
	s.now = func() time.Time { return now }
	for i := range PerPlayer {
		if _, err := s.AddReplay(Entry{Name: "ann", Score: 1000 + i, Wave: 2, When: now.AddDate(0, -1, i)}, replayOf(fmt.Sprint("ann", i))); err != nil {
			t.Fatal(err)
		}
	}
	rank, err := s.AddReplay(Entry{Name: "bob", Score: 1005, Wave: 3, When: now.AddDate(0, 0, -1)}, replayOf("bob"))
	if err != nil || rank != 6 {
		t.Errorf("bob's game: rank %d, %v; want 6, after ann's earlier 1005", rank, err)
	}
	if rank, err := s.Add(Entry{Name: "ann", Score: 5, Wave: 1, When: now.Add(-time.Hour)}); err != nil || rank != 0 {
		t.Errorf("ann's weak game of today: rank %d, %v; want 0, off the board of all time", rank, err)
	}
	want := map[Period]string{
		AllTime:  "ann:1009 ann:1008 ann:1007 ann:1006 ann:1005 bob:1005 ann:1004 ann:1003 ann:1002 ann:1001 ann:1000",
		ThisWeek: "bob:1005 ann:5",
		Today:    "ann:5",
	}
	for p, w := range want {
		if got := names(s.Board(p, 0)); got != w {
			t.Errorf("%v: %s, want %s", p, got, w)
		}
	}
	// Another server loads the boards of its own today: 2025's all time.
	other := openPG(t, pg.URL)
	if got := names(other.Top(0)); got != want[AllTime] {
		t.Errorf("another store: %s, want %s", got, want[AllTime])
	}
	// The best KeepReplays keep their replays: ann's worst lost hers to bob.
	top := other.Top(0)
	for i, e := range top {
		if (e.Replay != "") != (i < KeepReplays) {
			t.Errorf("#%d %s:%d replay %q", i+1, e.Name, e.Score, e.Replay)
			continue
		}
		if e.Replay == "" {
			continue
		}
		data, err := other.ReadReplay(e.Replay)
		if err != nil || !strings.HasPrefix(string(data), "replay of "+e.Name) {
			t.Errorf("#%d's replay: %q, %v", i+1, data, err)
		}
	}
	var replays, version int
	conn := pgConn(t, pg.URL)
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM poolroids_replays`).Scan(&replays); err != nil || replays != KeepReplays {
		t.Errorf("%d replays in the database, %v; want %d", replays, err, KeepReplays)
	}
	if err := conn.QueryRow(context.Background(), `SELECT version FROM poolroids_schema`).Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("schema version %d, %v; want %d", version, err, SchemaVersion)
	}
	if _, err := conn.Exec(context.Background(), `UPDATE poolroids_schema SET version = version + 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPostgres(context.Background(), pg.URL); err == nil || !strings.Contains(err.Error(), "newer than this program's") {
		t.Errorf("a newer schema: OpenPostgres said %v", err)
	}
}

// TestPostgresUnreachable: no server at the address is an error at once.
func TestPostgresUnreachable(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := OpenPostgres(ctx, "postgres://poolroids@/postgres?host="+dir)
	if err == nil || !strings.Contains(err.Error(), "high scores: postgres://") {
		t.Errorf("OpenPostgres with no server: %v", err)
	}
}

// TestPostgresProcessesShare: two processes (this test binary again, see
// TestHelperPostgres) open a new database at once, both making its schema,
// and save into it at once; none of their entries is lost.
func TestPostgresProcessesShare(t *testing.T) {
	pg := pgtest.Start(t)
	const games = 30 // and both processes create the schema at once
	var wg sync.WaitGroup
	for p := range 2 {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperPostgres$")
			cmd.Env = append(os.Environ(), "POOLROIDS_PG_HELPER="+pg.URL, fmt.Sprintf("POOLROIDS_PG_PLAYER=p%d", p), fmt.Sprint("POOLROIDS_PG_GAMES=", games))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("process %d: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	if got := len(openPG(t, pg.URL).Top(0)); got != 2*games {
		t.Errorf("%d entries, want %d", got, 2*games)
	}
}

// TestHelperPostgres is a process of TestPostgresProcessesShare: it saves
// games of players named after POOLROIDS_PG_PLAYER, from goroutines.
func TestHelperPostgres(t *testing.T) {
	url := os.Getenv("POOLROIDS_PG_HELPER")
	if url == "" {
		t.Skip("a helper process of TestPostgresProcessesShare")
	}
	s := openPG(t, url)
	games, _ := strconv.Atoi(os.Getenv("POOLROIDS_PG_GAMES"))
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			// A player each, so that PerPlayer drops none.
			e := Entry{Name: fmt.Sprintf("%s-%d", os.Getenv("POOLROIDS_PG_PLAYER"), g), Score: g}
			if _, err := s.AddReplay(e, replayOf(e.Name)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestPostgresRestart: the database stops under a server and starts again.
// A save meanwhile costs its retries and a message, and the table in
// memory answers at once all along; nothing saved before is lost, and
// saves work again once the database is back.
func TestPostgresRestart(t *testing.T) {
	pg := pgtest.Start(t)
	s := openPG(t, pg.URL)
	if _, err := s.Add(Entry{Name: "before", Score: 100}); err != nil {
		t.Fatal(err)
	}
	pg.Stop()

	saved := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := s.Add(Entry{Name: "during", Score: 200})
		saved <- err
	}()
	// A frame a 30th of a second reads the table meanwhile.
	var slowest time.Duration
	var err error
	for wait := true; wait; {
		select {
		case err = <-saved:
			wait = false
		case <-time.After(time.Second / 30):
			t0 := time.Now()
			_ = s.Board(Today, 8)
			_ = s.Top(8)
			slowest = max(slowest, time.Since(t0))
		}
	}
	t.Logf("a save with the database down failed after %v; the slowest read meanwhile took %v", time.Since(start).Round(time.Millisecond), slowest)
	var se *SaveError
	if !errors.As(err, &se) || !errors.Is(err, ErrDatabase) || err.Error() != "high score not saved: the score database is unreachable" {
		t.Errorf("a save with the database down: %v", err)
	}
	if slowest > 50*time.Millisecond {
		t.Errorf("reading the table took %v while a save retried", slowest)
	}

	pg.Start()
	if _, err := s.Add(Entry{Name: "after", Score: 300}); err != nil {
		t.Fatalf("a save once the database is back: %v", err)
	}
	if got := names(openPG(t, pg.URL).Top(0)); got != "after:300 before:100" {
		t.Errorf("the database holds %s, want after:300 before:100", got)
	}
}

// TestPostgresReplayPushedOut: a replay pushed out of the best by games
// without one goes, though no entry of the best keeps one.
func TestPostgresReplayPushedOut(t *testing.T) {
	pg := pgtest.Start(t)
	s := openPG(t, pg.URL)
	if _, err := s.AddReplay(Entry{Name: "low", Score: 1}, replayOf("low")); err != nil {
		t.Fatal(err)
	}
	for i := range KeepReplays {
		if _, err := s.Add(Entry{Name: fmt.Sprint("p", i), Score: 100 + i}); err != nil {
			t.Fatal(err)
		}
	}
	if top := s.Top(0); len(top) != KeepReplays+1 || top[KeepReplays].Replay != "" {
		t.Errorf("the table: %+v; want low's replay forgotten", top)
	}
	conn := pgConn(t, pg.URL)
	var replays int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM poolroids_replays`).Scan(&replays); err != nil || replays != 0 {
		t.Errorf("%d replays in the database, %v; want none", replays, err)
	}
}

// TestPostgresRowsChecked: what the database holds is checked as a file's
// entries are, however it got there: names are cleaned (an OSC sequence in
// one retitled a player's terminal), a replay name the store never gives
// is dropped, a row that cannot be shown right is left out; and a replay
// over maxReplay is refused without being read (a 150 MB row took a
// server from 23 MB to 317 MB for one viewer).
func TestPostgresRowsChecked(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	openPG(t, pg.URL) // the schema
	conn := pgConn(t, pg.URL)
	ctx := context.Background()
	for _, r := range []struct {
		name, strategy, arena, replay string
		score                         int
	}{
		{"\x1b]0;PWNED\x07evil", "dense", "", "", 300},
		{"ann", "\x1b[2Jdense", "\x1b]2;x\x07den", "../../../etc/passwd.prpl", 200},
		{"neg", "dense", "", "", -5},
	} {
		if _, err := conn.Exec(ctx, `INSERT INTO poolroids_scores (name, score, wave, strategy, at, arena, replay) VALUES ($1, $2, 1, $3, now(), $4, $5)`,
			r.name, r.score, r.strategy, r.arena, r.replay); err != nil {
			t.Fatal(err)
		}
	}
	big := make([]byte, maxReplay+1)
	if _, err := conn.Exec(ctx, `INSERT INTO poolroids_replays (name, data) VALUES ('big.prpl', $1)`, big); err != nil {
		t.Fatal(err)
	}
	s := openPG(t, pg.URL)
	top := s.Top(0)
	if got := names(top); got != "evil:300 ann:200" {
		t.Errorf("the database's table shows %q, want the names cleaned and the negative score left out", got)
	}
	if len(top) == 2 && (top[1].Strategy != "" || top[1].Arena != "den" || top[1].Replay != "") {
		t.Errorf("ann's row: %+v; want no strategy, the arena cleaned, no replay", top[1])
	}
	if _, err := s.ReadReplay("big.prpl"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a replay of maxReplay+1 bytes: %v, want refused", err)
	}
}

// TestPostgresQueue: with the database down, saves wait in the queue on
// disk (the player told ErrQueued, at once once the outage is known) and
// stay on the boards; the database back, the store posts each exactly
// once, and the outage is logged once as it starts and once as it ends.
// Then a save queued by a store that closes before the database is back,
// as a server killed during an outage leaves it, is posted by the next
// store on the directory, and a save posted twice is kept once.
func TestPostgresQueue(t *testing.T) {
	was := postEvery
	t.Cleanup(func() { postEvery = was }) // after the stores' Close
	postEvery = 20 * time.Millisecond
	pg := pgtest.Start(t)
	dir := filepath.Join(t.TempDir(), "queue")
	var log syncBuffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	open := func() *Store {
		s := openPG(t, pg.URL)
		s.SetLogger(logger)
		if err := s.SetQueue(dir); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	if _, err := s.Add(Entry{Name: "before", Score: 100}); err != nil {
		t.Fatal(err)
	}
	pg.Stop()
	_, err := s.AddReplay(Entry{Name: "ann", Score: 300, Wave: 2}, replayOf("ann"))
	if !errors.Is(err, ErrQueued) || err.Error() != "saved, will be posted when the score database is back" {
		t.Fatalf("a save with the database down: %v, want ErrQueued", err)
	}
	t0 := time.Now()
	if _, err := s.Add(Entry{Name: "bob", Score: 200}); !errors.Is(err, ErrQueued) {
		t.Fatalf("a second save: %v, want ErrQueued", err)
	}
	if d := time.Since(t0); d > 100*time.Millisecond {
		t.Errorf("a save once the outage is known took %v: it should not try the database", d)
	}
	if got := names(s.Top(0)); got != "ann:300 bob:200 before:100" {
		t.Errorf("the boards during the outage: %s", got)
	}
	if st := s.Stats(); !st.Down || st.Queued != 2 || st.Failures == 0 {
		t.Errorf("stats during the outage: %+v", st)
	}
	if n := s.Queued("ann", t0.Add(-time.Minute)); n != 1 {
		t.Errorf("Queued(ann) = %d, want 1", n)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 2 {
		t.Errorf("the queue holds %v, want 2 files", files)
	}

	pg.Start()
	if !eventually(10*time.Second, func() bool { return s.Stats().Queued == 0 }) {
		t.Fatalf("the queue was never posted: %+v", s.Stats())
	}
	if st := s.Stats(); st.Down || st.Posted != 2 {
		t.Errorf("stats after the outage: %+v", st)
	}
	top := s.Top(1)
	if r, err := s.ReadReplay(top[0].Replay); err != nil || string(r) != "replay of ann" {
		t.Errorf("ann's queued replay: %q, %v", r, err)
	}
	text := log.String()
	if strings.Count(text, "score database unreachable") != 1 || strings.Count(text, "score database back") != 1 ||
		!strings.Contains(text, "failures=") {
		t.Errorf("want the outage logged once as it starts, once as it ends with its failures:\n%s", text)
	}

	pg.Stop()
	if _, err := s.Add(Entry{Name: "cid", Score: 50}); !errors.Is(err, ErrQueued) {
		t.Fatalf("a save in the second outage: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("the queue holds %v, want cid's save", files)
	}
	cid, err := s.db.queue.Load().read(filepath.Base(files[0]))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	pg.Start()
	again := open()
	if got := names(again.Top(0)); !strings.Contains(got, "cid:50") {
		t.Errorf("the boards of a store opened on the queue: %s, want cid's queued game", got)
	}
	if !eventually(10*time.Second, func() bool { return again.Stats().Queued == 0 }) {
		t.Fatalf("the queue left by a closed store was never posted: %+v", again.Stats())
	}
	// A save posted again (a retry whose answer was lost) is kept once.
	ctx := context.Background()
	if _, err := again.db.saveOnce(ctx, time.Now(), cid.Key, cid.Entry, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var got string
	if err := conn.QueryRow(ctx, `SELECT string_agg(name || ':' || score, ' ' ORDER BY score DESC) FROM poolroids_scores`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "ann:300 bob:200 before:100 cid:50" {
		t.Errorf("the database holds %s, want each game once", got)
	}
}

// eventually polls ok until it holds, for at most within.
func eventually(within time.Duration, ok func() bool) bool {
	for end := time.Now().Add(within); ; time.Sleep(10 * time.Millisecond) {
		if ok() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
