package scores

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"poolroids/game/daily"
)

// A database store keeps its daily boards in poolroids_daily, a row a
// game with its replay, which every server of a fleet shares: a game
// posted to any ranks once; one the database cannot take waits in the
// queue (see queue.go). [Store.AddDaily] reads the day's rows in a
// transaction under the stores' advisory lock, decides by the same rules
// as the file store (addDaily), writes the difference, drops the days no
// longer kept, and takes the boards back into memory; the memory is
// refreshed between saves with the other boards.

// dailyQuery selects the games of the days after $1 to $2, each day's
// best first, at most $3 of them: a row's replay stays in the database.
const dailyQuery = `SELECT id, day, name, fingerprint, score, wave, steps, sum, practice, at, size, replay IS NOT NULL
	FROM poolroids_daily WHERE day > $1 AND day <= $2 ORDER BY day DESC, score DESC, at, id LIMIT $3`

// maxDailyRows bounds the rows read: KeepDays full boards, each player
// with a practice game.
const maxDailyRows = KeepDays * 2 * MaxEntries

// dailyRow is a game as the database holds it.
type dailyRow struct {
	id int64
	e  DailyEntry
}

// dailyRows reads the games of the days after from to to, each checked
// as a file's are (see checkDaily) against today: a row refused is left
// out.
func dailyRows(ctx context.Context, q querier, from, to, today daily.Day) ([]dailyRow, error) {
	rows, err := q.Query(ctx, dailyQuery, int64(from), int64(to), maxDailyRows)
	if err != nil {
		return nil, err
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (dailyRow, error) {
		var (
			x                 dailyRow
			day, steps, sum   int64
			score, wave, size int32
			kept              bool
		)
		err := r.Scan(&x.id, &day, &x.e.Name, &x.e.Fingerprint, &score, &wave, &steps, &sum, &x.e.Practice, &x.e.When, &size, &kept)
		if steps < 0 {
			steps = daily.MaxSteps + 1 // refused by checkDaily
		}
		x.e.Day, x.e.Score, x.e.Wave, x.e.Size = daily.Day(day), int(score), int(wave), int(size)
		x.e.Steps, x.e.Sum = uint64(steps), uint64(sum)
		if kept {
			x.e.Replay = dailyReplayName(x.e)
		}
		return x, err
	})
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, x := range all {
		if checkDaily(&x.e, today) {
			out = append(out, x)
		}
	}
	return out, nil
}

// dailyBoards reads the daily boards kept at today.
func (d *database) dailyBoards(ctx context.Context, q querier, today daily.Day) ([]DailyEntry, error) {
	rows, err := dailyRows(ctx, q, today-KeepDays, today+1, today)
	if err != nil {
		return nil, err
	}
	es := make([]DailyEntry, len(rows))
	for i, x := range rows {
		es[i] = x.e
	}
	return es, nil
}

// addDaily is AddDaily for a database store: e is checked. It tries as
// save does and, given a queue, queues a game the database cannot take:
// the error is then ErrQueued, and the result holds only the entry.
func (d *database) addDaily(s *Store, e DailyEntry, replay []byte) (DailyResult, error) {
	if err := d.enter(); err != nil {
		return DailyResult{}, err
	}
	defer d.saving.Done()
	var err error
	for try := range d.tries() {
		if try > 0 {
			time.Sleep(retryAfter[try-1])
		}
		ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
		var (
			res    DailyResult
			boards []DailyEntry
		)
		res, boards, err = d.addDailyOnce(ctx, s.today(), e, replay)
		cancel()
		posted, isPosted := errors.AsType[*PostedError](err)
		if err == nil || isPosted {
			d.outage.OK()
			s.mu.Lock()
			s.setDaily(boards)
			s.mu.Unlock()
			if isPosted && try > 0 && posted.Entry.Name == e.Name && posted.Entry.Fingerprint == e.Fingerprint && posted.Entry.When.Equal(e.When) {
				// The attempt before was saved, and its answer lost.
				res = DailyResult{Entry: posted.Entry, Counted: !posted.Entry.Practice, Kept: true, Rank: posted.Rank}
				res.Board = len(s.Daily(e.Day, 0))
				if !res.Counted {
					res.Rank = 0
				}
				err = nil
			}
			return res, err
		}
		d.outage.Failed(err)
	}
	if q := d.queue.Load(); q != nil {
		qerr := q.putDaily(e, replay)
		if qerr == nil {
			return DailyResult{Entry: e}, ErrQueued
		}
		err = errors.Join(err, qerr)
	}
	if err == nil {
		err = errors.New("the database is down")
	}
	if log := d.log.Load(); log != nil {
		log.Warn("daily game not saved", "player", e.Name, "day", e.Day, "score", e.Score, "where", d.where, "err", err)
	}
	return DailyResult{}, &SaveError{Path: d.where, Err: fmt.Errorf("%w: %s: %w", ErrDatabase, d.where, err)}
}

// addDailyOnce is one attempt of addDaily, in one transaction. It returns
// the boards as the transaction leaves them, also with a *PostedError.
func (d *database) addDailyOnce(ctx context.Context, today daily.Day, e DailyEntry, replay []byte) (res DailyResult, boards []DailyEntry, err error) {
	var posted error
	err = pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(lockKey)); err != nil {
			return err
		}
		rows, err := dailyRows(ctx, tx, e.Day-1, e.Day, today)
		if err != nil {
			return err
		}
		day := make([]DailyEntry, len(rows))
		for i, x := range rows {
			day[i] = x.e
		}
		out, r, err := addDaily(day, e)
		if _, ok := errors.AsType[*PostedError](err); ok {
			posted = err
		} else if err != nil {
			return err
		} else {
			res = r
			if err := writeDaily(ctx, tx, rows, out, e, replay); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM poolroids_daily WHERE day <= $1`, int64(today-KeepDays)); err != nil {
			return err
		}
		boards, err = d.dailyBoards(ctx, tx, today)
		return err
	})
	if err == nil {
		err = posted
	}
	return res, boards, err
}

// writeDaily makes the day's rows, rows, out, what addDaily left of them
// with e: the games dropped are deleted, those that lost their replay
// lose it, and e is inserted if kept.
func writeDaily(ctx context.Context, tx pgx.Tx, rows []dailyRow, out []DailyEntry, e DailyEntry, replay []byte) error {
	kept := make(map[uint64]DailyEntry, len(out))
	for _, o := range out {
		kept[o.Sum] = o
	}
	// Empty, not nil: ANY of NULL would match nothing.
	gone, bare := []int64{}, []int64{}
	for _, x := range rows {
		o, ok := kept[x.e.Sum]
		switch {
		case !ok:
			gone = append(gone, x.id)
		case x.e.Replay != "" && o.Replay == "":
			bare = append(bare, x.id)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM poolroids_daily WHERE id = ANY($1)`, gone); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE poolroids_daily SET replay = NULL WHERE id = ANY($1)`, bare); err != nil {
		return err
	}
	o, ok := kept[e.Sum]
	if !ok {
		return nil
	}
	var data []byte // NULL: none kept
	if o.Replay != "" {
		data = replay
	}
	_, err := tx.Exec(ctx, `INSERT INTO poolroids_daily (day, name, fingerprint, score, wave, steps, sum, practice, at, size, replay)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		int64(o.Day), o.Name, o.Fingerprint, o.Score, o.Wave, int64(o.Steps), int64(o.Sum), o.Practice, o.When, o.Size, data)
	return err
}

// readDailyReplay reads the replay kept with e, refused over
// daily.MaxBytes as readReplay refuses a large one: unread.
func (d *database) readDailyReplay(ctx context.Context, e DailyEntry) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, tryTimeout)
	defer cancel()
	var (
		size int64
		data []byte
	)
	err := d.pool.QueryRow(ctx, `SELECT octet_length(replay), CASE WHEN octet_length(replay) <= $3 THEN replay END
		FROM poolroids_daily WHERE day = $1 AND sum = $2 AND replay IS NOT NULL`, int64(e.Day), int64(e.Sum), daily.MaxBytes).Scan(&size, &data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("high scores: the replay of %s's daily game of %s is no longer kept", e.Name, e.Day)
	case err != nil:
		return nil, fmt.Errorf("high scores: replay: %w: %w", ErrDatabase, err)
	case size > daily.MaxBytes:
		return nil, fmt.Errorf("high scores: the replay of %s's daily game of %s is over %d bytes", e.Name, e.Day, daily.MaxBytes)
	}
	return data, nil
}

// postDaily posts the queued daily game x: done is false when the
// database could not take it, wrote whether this post wrote it. A game
// of a day no longer kept is dropped, and one the database holds already
// (posted by a retry, or another server sharing the queue) is done
// without counting as posted.
func (d *database) postDaily(s *Store, q *queue, x queued) (done, wrote bool) {
	e, today := *x.Daily, s.today()
	log := d.log.Load()
	if !checkDaily(&e, today) {
		if log != nil {
			log.Warn("queued daily game dropped: its day is no longer kept", "player", e.Name, "day", e.Day, "score", e.Score)
		}
		q.done(x.Key, len(x.Replay))
		return true, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), tryTimeout)
	res, boards, err := d.addDailyOnce(ctx, today, e, x.Replay)
	cancel()
	_, held := errors.AsType[*PostedError](err)
	if err != nil && !held {
		d.outage.Failed(err)
		return false, false
	}
	q.done(x.Key, len(x.Replay))
	s.mu.Lock()
	s.setDaily(boards)
	s.mu.Unlock()
	if held {
		if log != nil {
			log.Info("queued daily game was posted already", "player", e.Name, "day", e.Day, "score", e.Score)
		}
		return true, false
	}
	d.posted.Add(1)
	if log != nil {
		log.Info("queued daily game posted", "player", e.Name, "day", e.Day, "score", e.Score, "counted", res.Counted, "rank", res.Rank)
	}
	return true, true
}
