package scores

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"poolroids/game/scores/outage"
)

// A Store opened with [OpenPostgres] keeps its table in PostgreSQL, which
// every server of a fleet may share: one leaderboard for them all.
//
// The table is read into memory, as the file is, so that [Store.Top],
// [Store.Board] and the rest never wait on the network: the lobby and the
// game-over screen draw from memory. [Store.AddReplay] inserts the entry
// in a transaction that holds an advisory lock, as the file store holds
// its file lock: it reads the boards back, keeps the replay while the
// entry is among the best [KeepReplays] of all time, drops the replays
// pushed out and the player's entries on no board, and the memory then
// takes the boards as the database holds them, every server's entries
// included. Between saves, the memory is refreshed every refreshEvery.
//
// A database that cannot be reached costs a save its retries (saveTries,
// each bounded by tryTimeout) and a [SaveError] the player is shown:
// never a game or a session. Given a queue ([Store.SetQueue]), it costs
// one attempt, or none while the database is known to be down: the save
// waits on local disk, the player is told [ErrQueued], and it is posted,
// once, when the database answers again (see queue.go). Entries already
// saved are the database's: they survive the database's restart and the
// server's.
//
// An outage is logged twice: as it starts, and as it ends with its
// length, its failed attempts and the saves posted ([Store.Stats] has
// the figures, for metrics).
//
// The schema lives in tables named poolroids_*, so that the database may
// hold other things; its version is in poolroids_schema. OpenPostgres
// creates or migrates it, under an advisory lock so that servers starting
// together migrate once, and refuses a schema newer than it knows.

const (
	saveTries  = 3
	tryTimeout = 2 * time.Second
	// lockKey keys the advisory locks of the migration and of the saves.
	lockKey = 0x706f6f6c726f6964 // "poolroid"
)

// retryAfter is how long a failed attempt to save waits before the next.
var retryAfter = [saveTries - 1]time.Duration{100 * time.Millisecond, 500 * time.Millisecond}

// refreshEvery is how often the boards are read again; postEvery how often
// the queue is posted, at first, after a failed attempt: each failure
// doubles the wait, up to postMax. Variables, for the tests.
var (
	refreshEvery = 15 * time.Second
	postEvery    = time.Second
	postMax      = 5 * time.Second
)

// ErrDatabase is wrapped by a [SaveError] when the database could not be
// reached or refused the save.
var ErrDatabase = errors.New("score database unreachable")

// migrations are the schema's versions: migrations[i] takes version i to
// i+1. Append; never edit one that has shipped.
var migrations = [][]string{
	{ // 1: the entries, and the replays of the best.
		`CREATE TABLE poolroids_scores (
			id       bigserial PRIMARY KEY,
			name     text NOT NULL,
			score    integer NOT NULL,
			wave     integer NOT NULL,
			strategy text NOT NULL,
			at       timestamptz NOT NULL,
			arena    text NOT NULL DEFAULT '',
			replay   text NOT NULL DEFAULT ''
		)`,
		`CREATE INDEX poolroids_scores_best ON poolroids_scores (score DESC, at, name COLLATE "C")`,
		`CREATE INDEX poolroids_scores_name ON poolroids_scores (name)`,
		`CREATE TABLE poolroids_replays (
			name text PRIMARY KEY,
			data bytea NOT NULL
		)`,
	},
	{ // 2: each game's key, so that a save posted twice is written once.
		`ALTER TABLE poolroids_scores ADD COLUMN key text`,
		`CREATE UNIQUE INDEX poolroids_scores_key ON poolroids_scores (key)`,
	},
	{ // 3: the fingerprint of a player's key, in a column of its own;
		// names of version 2 and before that end with the start of one
		// keep it there, and have it as their legacy fingerprint (see
		// player.go).
		`ALTER TABLE poolroids_scores ADD COLUMN fingerprint text NOT NULL DEFAULT ''`,
		`UPDATE poolroids_scores SET fingerprint = 'SHA256:' || right(name, 8) WHERE name ~ ' [A-Za-z0-9+/]{8}$'`,
		`CREATE INDEX poolroids_scores_player ON poolroids_scores (` + playerColumns + `)`,
	},
	{ // 4: the daily boards (see daily.go and dailypg.go): a row a game,
		// its replay in it. A game is kept once; a player, their key or
		// else their name, has one counted game and one practice game a
		// day.
		`CREATE TABLE poolroids_daily (
			id          bigserial PRIMARY KEY,
			day         integer NOT NULL,
			name        text NOT NULL,
			fingerprint text NOT NULL DEFAULT '',
			score       integer NOT NULL,
			wave        integer NOT NULL,
			steps       bigint NOT NULL,
			sum         bigint NOT NULL,
			practice    boolean NOT NULL,
			at          timestamptz NOT NULL,
			size        integer NOT NULL,
			replay      bytea
		)`,
		`CREATE UNIQUE INDEX poolroids_daily_game ON poolroids_daily (day, sum)`,
		`CREATE UNIQUE INDEX poolroids_daily_player ON poolroids_daily
			(day, practice, (CASE WHEN fingerprint = '' THEN 'name ' || name ELSE fingerprint END))`,
	},
}

// playerColumns is playerOf in SQL: the name and the start of the
// fingerprint that boards count an entry under.
const playerColumns = `(CASE WHEN length(fingerprint) = 15 THEN left(name, -9) ELSE name END), left(fingerprint, 15)`

// SchemaVersion is the version of the database schema this program makes.
var SchemaVersion = len(migrations)

// database is a Store's PostgreSQL.
type database struct {
	pool    *pgxpool.Pool
	where   string // the server and database, without credentials, for the log
	stop    chan struct{}
	done    sync.WaitGroup
	saving  sync.WaitGroup // the saves under way, which Close waits for
	closing sync.Once
	mu      sync.Mutex // guards closed, and saving's Add against Close's Wait
	closed  bool
	queue   atomic.Pointer[queue] // nil: none, a save that fails is lost
	log     atomic.Pointer[slog.Logger]
	outage  *outage.Log
	posted  atomic.Uint64 // queued saves posted
}

// OpenPostgres opens the high-score table in the PostgreSQL database at
// connURL (postgres://user@host/db?…, or any form pgx takes), creating or
// migrating its schema, and loads it. An error means the database cannot
// be used now: a server should say so and not start. Close the store to
// stop its refreshes and close its connections.
func OpenPostgres(ctx context.Context, connURL string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(connURL)
	if err != nil {
		return nil, fmt.Errorf("high scores: %w", err)
	}
	cfg.MaxConns = 4
	where := (&url.URL{Scheme: "postgres", Host: cfg.ConnConfig.Host, Path: cfg.ConnConfig.Database}).String()
	if cfg.ConnConfig.Port != 0 && cfg.ConnConfig.Host != "" && cfg.ConnConfig.Host[0] != '/' {
		where = (&url.URL{Scheme: "postgres", Host: fmt.Sprintf("%s:%d", cfg.ConnConfig.Host, cfg.ConnConfig.Port), Path: cfg.ConnConfig.Database}).String()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("high scores: %s: %w", where, err)
	}
	d := &database{pool: pool, where: where, stop: make(chan struct{})}
	d.outage = outage.New("score database", "saves fail")
	s := &Store{table: &table{path: where, db: d}}
	if err := d.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("high scores: %s: %w", where, err)
	}
	entries, err := d.load(ctx, pool, s.clock())
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("high scores: %s: %w", where, err)
	}
	s.entries = entries
	boards, err := d.dailyBoards(ctx, pool, s.today())
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("high scores: %s: %w", where, err)
	}
	s.setDaily(boards)
	d.outage.OK()
	d.done.Add(1)
	go d.run(s)
	return s, nil
}

// Close waits for the saves under way (a save the database cannot take
// is queued by then, given a queue), stops a database store's refreshes
// and closes its connections; a file store has nothing to close. The
// store must not be used after; a second Close does nothing.
func (s *Store) Close() {
	if s.db == nil {
		return
	}
	s.db.closing.Do(func() {
		s.db.mu.Lock()
		s.db.closed = true
		s.db.mu.Unlock()
		s.db.saving.Wait()
		close(s.db.stop)
		s.db.done.Wait()
		s.db.pool.Close()
	})
}

// Stats is what a store tells metrics and a readiness check of its
// database. A file store's is the zero Stats.
type Stats struct {
	Down        bool      // the last attempt to reach the database failed
	Queued      int       // saves waiting in the queue
	Posted      uint64    // queued saves posted since the store opened
	Failures    uint64    // attempts to reach the database that failed
	LastSuccess time.Time // when the database last answered
}

// Stats returns the store's figures now.
func (s *Store) Stats() Stats {
	if s == nil || s.db == nil {
		return Stats{}
	}
	d := s.db
	st := Stats{Down: d.outage.Down(), Posted: d.posted.Load(), Failures: d.outage.Failures(), LastSuccess: d.outage.LastOK()}
	if q := d.queue.Load(); q != nil {
		st.Queued = q.len()
	}
	return st
}

// migrate brings the schema to SchemaVersion.
func (d *database) migrate(ctx context.Context) error {
	return pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(lockKey)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS poolroids_schema (version integer NOT NULL)`); err != nil {
			return err
		}
		var v int
		err := tx.QueryRow(ctx, `SELECT version FROM poolroids_schema`).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, `INSERT INTO poolroids_schema (version) VALUES (0)`)
		}
		switch {
		case err != nil:
			return err
		case v > len(migrations):
			return fmt.Errorf("schema version %d is newer than this program's %d", v, len(migrations))
		}
		for _, m := range migrations[v:] {
			for _, stmt := range m {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("migrating the schema from version %d: %w", v, err)
				}
			}
		}
		_, err = tx.Exec(ctx, `UPDATE poolroids_schema SET version = $1`, len(migrations))
		return err
	})
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// row is an entry as the database holds it.
type row struct {
	id int64
	e  Entry
}

// boardQuery selects one period's board, as places counts it.
const boardQuery = `SELECT id, name, score, wave, strategy, at, arena, replay, fingerprint FROM (
	SELECT *, row_number() OVER (PARTITION BY ` + playerColumns + ` ORDER BY score DESC, at, id) AS n
	FROM poolroids_scores WHERE at >= $1) b
WHERE n <= $2 ORDER BY score DESC, at, name COLLATE "C", fingerprint COLLATE "C" LIMIT $3`

// loadRows reads every period's board at now, each entry once. An entry
// is checked as one from a file is (see check): the database is no more
// to be trusted than a file a person may edit. One refused is left out,
// as if it were on no board.
func loadRows(ctx context.Context, q querier, now time.Time) ([]row, error) {
	var all []row
	seen := make(map[int64]bool)
	for _, p := range Periods {
		rows, err := q.Query(ctx, boardQuery, p.Start(now), PerPlayer, MaxEntries)
		if err != nil {
			return nil, err
		}
		board, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
			var x row
			err := r.Scan(&x.id, &x.e.Name, &x.e.Score, &x.e.Wave, &x.e.Strategy, &x.e.When, &x.e.Arena, &x.e.Replay, &x.e.Fingerprint)
			return x, err
		})
		if err != nil {
			return nil, err
		}
		for _, x := range board {
			if !check(&x.e) {
				continue
			}
			if !seen[x.id] {
				seen[x.id] = true
				all = append(all, x)
			}
		}
	}
	slices.SortStableFunc(all, func(a, b row) int { return compare(a.e, b.e) })
	return all, nil
}

// load reads the boards' entries, best first.
func (d *database) load(ctx context.Context, q querier, now time.Time) ([]Entry, error) {
	rows, err := loadRows(ctx, q, now)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, len(rows))
	for i, x := range rows {
		entries[i] = x.e
	}
	return entries, nil
}

// save saves e, retrying a failed attempt, and makes the memory the
// database's boards. With a queue, a save makes one attempt, none while
// the database is down, and a failed one is queued: the error is then
// ErrQueued. Any other error is a *SaveError wrapping ErrDatabase.
func (d *database) save(s *Store, e Entry, replay []byte) error {
	if err := d.enter(); err != nil {
		return err
	}
	defer d.saving.Done()
	key := gameKey(e)
	q := d.queue.Load()
	tries := d.tries()
	var err error
	for try := range tries {
		if try > 0 {
			time.Sleep(retryAfter[try-1])
		}
		ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
		var entries []Entry
		entries, err = d.saveOnce(ctx, s.clock(), key, e, replay)
		cancel()
		if err == nil {
			d.outage.OK()
			s.mu.Lock()
			s.entries = entries
			s.merge(d.pending())
			s.mu.Unlock()
			return nil
		}
		d.outage.Failed(err)
	}
	if q != nil {
		qerr := q.put(key, e, replay)
		if qerr == nil {
			return ErrQueued
		}
		err = errors.Join(err, qerr)
	}
	if err == nil {
		err = errors.New("the database is down")
	}
	return &SaveError{Path: d.where, Err: fmt.Errorf("%w: %s: %w", ErrDatabase, d.where, err)}
}

// enter counts a save under way, which Close waits for: the caller calls
// d.saving.Done once it is over. A closed store takes none.
func (d *database) enter() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return &SaveError{Path: d.where, Err: fmt.Errorf("%w: %s: the store is closed", ErrDatabase, d.where)}
	}
	d.saving.Add(1)
	return nil
}

// tries is how many attempts a save makes: saveTries; with a queue, one,
// and none while the database is known to be down.
func (d *database) tries() int {
	switch {
	case d.queue.Load() == nil:
		return saveTries
	case d.outage.Down():
		return 0
	}
	return 1
}

// pending returns the queued entries, to keep on the boards in memory
// until they are posted.
func (d *database) pending() []Entry {
	if q := d.queue.Load(); q != nil {
		return q.entries()
	}
	return nil
}

// saveOnce is one attempt of save, in one transaction. It returns the
// boards as the transaction leaves them.
func (d *database) saveOnce(ctx context.Context, now time.Time, key string, e Entry, replay []byte) (entries []Entry, err error) {
	err = pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(lockKey)); err != nil {
			return err
		}
		var id int64 // 0: the game was saved before
		err := tx.QueryRow(ctx, `INSERT INTO poolroids_scores (name, score, wave, strategy, at, arena, key, fingerprint)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (key) DO NOTHING RETURNING id`,
			e.Name, e.Score, e.Wave, e.Strategy, e.When, e.Arena, key, e.Fingerprint).Scan(&id)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		rows, err := loadRows(ctx, tx, now)
		if err != nil {
			return err
		}
		entries = make([]Entry, len(rows))
		for i, x := range rows {
			entries[i] = x.e
		}
		place := make([]int, len(entries))
		places(entries, time.Time{}, place)
		// Empty, not nil: ANY of NULL would match nothing, and keep all.
		best := []string{} // the replays kept: those of the best KeepReplays of all time
		mine := []int64{}  // the player's entries on some board
		player, fp := playerOf(e)
		for i, x := range rows {
			if samePlayer(x.e, e) {
				mine = append(mine, x.id)
			}
			if place[i] == 0 || place[i] > KeepReplays {
				continue
			}
			if x.id == id && id != 0 && replay != nil {
				name := replayName(e)
				if _, err := tx.Exec(ctx, `INSERT INTO poolroids_replays (name, data) VALUES ($1, $2)
					ON CONFLICT (name) DO UPDATE SET data = excluded.data`, name, replay); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `UPDATE poolroids_scores SET replay = $1 WHERE id = $2`, name, id); err != nil {
					return err
				}
				entries[i].Replay = name
			}
			if entries[i].Replay != "" {
				best = append(best, entries[i].Replay)
			}
		}
		for i := range entries {
			if entries[i].Replay != "" && !slices.Contains(best, entries[i].Replay) {
				entries[i].Replay = ""
			}
		}
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			{`DELETE FROM poolroids_replays WHERE NOT (name = ANY($1))`, []any{best}},
			{`UPDATE poolroids_scores SET replay = '' WHERE replay <> '' AND NOT (replay = ANY($1))`, []any{best}},
			{`DELETE FROM poolroids_scores WHERE (` + playerColumns + `) = ($1, $2) AND NOT (id = ANY($3))`, []any{player, fp, mine}},
		} {
			if _, err := tx.Exec(ctx, stmt.sql, stmt.args...); err != nil {
				return err
			}
		}
		return nil
	})
	return entries, err
}

// run reloads the boards every refreshEvery until Close, so that other
// servers' entries show between this one's saves, and posts the queue.
func (d *database) run(s *Store) {
	defer d.done.Done()
	refresh := time.NewTicker(refreshEvery)
	defer refresh.Stop()
	wait := postEvery
	post := time.NewTimer(wait)
	defer post.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-refresh.C:
			d.refresh(s)
		case <-post.C:
			if d.post(s) {
				wait = postEvery
			} else {
				wait = min(2*wait, postMax)
			}
			post.Reset(wait)
		}
	}
}

// refresh reads the boards again, with the saves still queued.
func (d *database) refresh(s *Store) {
	ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
	entries, err := d.load(ctx, d.pool, s.clock())
	var boards []DailyEntry
	if err == nil {
		boards, err = d.dailyBoards(ctx, d.pool, s.today())
	}
	cancel()
	if err != nil {
		d.outage.Failed(err)
		return
	}
	d.outage.OK()
	if q := d.queue.Load(); q != nil {
		_ = q.scan(d.log.Load())
	}
	s.mu.Lock()
	s.entries = entries
	s.merge(d.pending())
	s.setDaily(boards)
	s.mu.Unlock()
}

// post posts the queued saves, the oldest first, until one fails, and
// reports whether none did. Other processes' saves in a shared directory
// are found by reading it again, every refreshEvery and after an outage.
func (d *database) post(s *Store) bool {
	q := d.queue.Load()
	if q == nil {
		return true
	}
	keys := q.keys()
	if len(keys) == 0 && d.outage.Down() {
		// Nothing to post: ask the database whether it is back.
		ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
		err := d.pool.Ping(ctx)
		cancel()
		if err != nil {
			d.outage.Failed(err)
			return false
		}
		d.outage.OK()
	}
	posted := 0
	for _, key := range keys {
		x, err := q.read(key + queueExt)
		if errors.Is(err, fs.ErrNotExist) {
			q.done(key, 0) // another process posted it
			continue
		}
		if err != nil {
			continue // scan logged it; a person may look
		}
		if x.Daily != nil {
			done, wrote := d.postDaily(s, q, x)
			if !done {
				return false
			}
			if wrote {
				posted++
			} else {
				d.outage.OK() // it answered
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
		entries, err := d.saveOnce(ctx, s.clock(), x.Key, x.Entry, x.Replay)
		cancel()
		if err != nil {
			d.outage.Failed(err)
			return false
		}
		q.done(key, len(x.Replay))
		d.posted.Add(1)
		posted++
		s.mu.Lock()
		s.entries = entries
		s.merge(d.pending())
		s.mu.Unlock()
	}
	if posted > 0 {
		d.outage.OK()
		if log := d.log.Load(); log != nil {
			log.Info("queued high scores posted", "count", posted, "queued", q.len())
		}
	}
	return true
}

// readReplay reads the replay kept under name, refused over maxReplay
// bytes as the file store refuses it: its size is read first, and a
// larger one never leaves the database.
func (d *database) readReplay(name string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
	defer cancel()
	var (
		size int64
		data []byte
	)
	err := d.pool.QueryRow(ctx, `SELECT octet_length(data), CASE WHEN octet_length(data) <= $2 THEN data END
		FROM poolroids_replays WHERE name = $1`, name, maxReplay).Scan(&size, &data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("high scores: replay %s is no longer kept", name)
	case err != nil:
		return nil, fmt.Errorf("high scores: replay: %w: %w", ErrDatabase, err)
	case size > maxReplay:
		return nil, fmt.Errorf("high scores: replay %s is over %d bytes", name, maxReplay)
	}
	return data, nil
}
