package scores

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"poolroids/levels/regfile"
)

// A database store given a queue ([Store.SetQueue]) loses no save to an
// outage. A save that cannot reach the database is written to a file of
// its own in the queue's directory, atomically and synced to disk
// (regfile.Write), before the player is told [ErrQueued]; the file is
// removed only once the database holds the save. A crash, even kill -9,
// loses nothing queued: the next start reads the directory again.
//
// Each save goes by a key of its game (its time and a hash of the rest,
// as its replay's name), which the database keeps unique: a save posted
// twice, by a retry whose answer was lost or by two servers sharing the
// directory, is written once.
//
// The queue is bounded: at most maxQueued saves, and their replays at
// most maxQueuedBytes in all (a save beyond keeps its entry, not its
// replay). A save that finds the queue full is lost, with an error that
// says so.
//
// A daily game ([Store.AddDaily]) queues as well, proven already: its
// file holds its [DailyEntry] and replay, its key is its time and its
// proof's checksum. Whether it counts is decided when it is posted, by
// the rules of the day's board as the database has it then (see
// daily.go); until then it is on no daily board. A queued game whose day
// is no longer kept when the database is back is dropped, and logged.

const (
	maxQueued      = 10000
	maxQueuedBytes = 64 << 20
	queueExt       = ".json"
)

// ErrQueued is what [Store.Add] returns for a save the database could not
// take that waits in the queue to be posted: the game is not lost, and
// its entry shows on the boards meanwhile. Its message is the player's.
var ErrQueued = errors.New("saved, will be posted when the score database is back")

// queued is a save waiting in the queue, as its file holds it.
type queued struct {
	Version int         `json:"version"`
	Key     string      `json:"key"`
	Entry   Entry       `json:"entry"`
	Daily   *DailyEntry `json:"daily,omitempty"` // a daily game; Entry is then its Entry
	Replay  []byte      `json:"replay,omitempty"`
}

// queue is a directory of saves waiting for the database.
type queue struct {
	dir string

	mu      sync.Mutex
	pending map[string]Entry // by key: the saves in the directory, as last read or written
	daily   map[string]bool  // the keys among them of daily games, on no board until posted
	bytes   int64            // the replays' bytes among them
}

// gameKey is the key of e's game: the name its replay takes, without the
// extension.
func gameKey(e Entry) string { return strings.TrimSuffix(replayName(e), replayExt) }

// dailyKey is the key of a daily game e: its time, then its checksum,
// which no other game's key has after its time.
func dailyKey(e DailyEntry) string {
	return fmt.Sprintf("%s-daily-%016x", e.When.UTC().Format("20060102T150405.000000000Z"), e.Sum)
}

// SetQueue gives a database store the queue directory dir, made if
// missing, for the saves the database cannot take (see queue.go). The
// saves a former run left there are read at once, shown on the boards,
// and posted as soon as the database answers. A file store has no use for
// one: SetQueue does nothing. Call it before the store is used.
func (s *Store) SetQueue(dir string) error {
	if s.db == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("high scores: queue: %w", err)
	}
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is %s, not a directory", dir, regfile.Kind(info.Mode()))
		}
		return fmt.Errorf("high scores: queue: %w", err)
	}
	q := &queue{dir: dir, pending: make(map[string]Entry), daily: make(map[string]bool)}
	q.removeTemps()
	if err := q.scan(s.log); err != nil {
		return fmt.Errorf("high scores: queue: %w", err)
	}
	s.mu.Lock()
	s.merge(q.entries())
	s.mu.Unlock()
	s.db.outage.SetMeanwhile("saves are queued in " + dir)
	s.db.queue.Store(q)
	return nil
}

// put writes a save to the queue, synced, and lists it as pending.
func (q *queue) put(key string, e Entry, replay []byte) error {
	return q.write(queued{Key: key, Entry: e, Replay: replay})
}

// putDaily writes a daily game to the queue, synced, and lists it as
// pending.
func (q *queue) putDaily(e DailyEntry, replay []byte) error {
	return q.write(queued{Key: dailyKey(e), Entry: e.Entry, Daily: &e, Replay: replay})
}

// write is put's and putDaily's work.
func (q *queue) write(x queued) error {
	key, e, replay := x.Key, x.Entry, x.Replay
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.pending[key]; ok {
		return nil
	}
	if len(q.pending) >= maxQueued {
		return fmt.Errorf("the queue %s is full (%d saves)", q.dir, maxQueued)
	}
	if q.bytes+int64(len(replay)) > maxQueuedBytes {
		replay = nil
	}
	if x.Daily != nil && replay == nil {
		x.Daily.Replay = ""
	}
	x.Version, x.Replay = version, replay
	data, err := json.Marshal(x)
	if err != nil {
		return err
	}
	err = regfile.Write(filepath.Join(q.dir, key+queueExt), func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	q.pending[key] = e
	q.daily[key] = x.Daily != nil
	q.bytes += int64(len(replay))
	return nil
}

// scan reads the directory again, for the saves other processes sharing
// it queued, and those a former run left. A file that cannot be read or
// parsed is logged and left for a person to look at.
func (q *queue) scan(log *slog.Logger) error {
	ents, err := os.ReadDir(q.dir)
	if err != nil {
		return err
	}
	pending, dailies := make(map[string]Entry), make(map[string]bool)
	var bytes int64
	for _, d := range ents {
		name := d.Name()
		if !d.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, queueExt) {
			continue
		}
		x, err := q.read(name)
		if err != nil {
			if log != nil {
				log.Warn("high scores: a queued save cannot be read; it is left there", "err", err)
			}
			continue
		}
		pending[x.Key] = x.Entry
		dailies[x.Key] = x.Daily != nil
		bytes += int64(len(x.Replay))
	}
	q.mu.Lock()
	q.pending, q.daily, q.bytes = pending, dailies, bytes
	q.mu.Unlock()
	return nil
}

// removeTemps removes the temporary files that writes which crashed
// left. A write takes milliseconds: the files of a minute ago are no
// other process's write under way.
func (q *queue) removeTemps() {
	ents, err := os.ReadDir(q.dir)
	if err != nil {
		return
	}
	for _, d := range ents {
		name := d.Name()
		if !d.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, queueExt+".tmp-") {
			continue
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > time.Minute {
			_ = os.Remove(filepath.Join(q.dir, name))
		}
	}
}

// read reads the queued save in the file name.
func (q *queue) read(name string) (queued, error) {
	var x queued
	path := filepath.Join(q.dir, name)
	data, err := regfile.Read(path, maxReplay*2) // base64: 4/3 of a replay's bytes
	if err != nil {
		return x, err
	}
	if err := json.Unmarshal(data, &x); err != nil {
		return x, fmt.Errorf("%s: %w: %v", path, ErrCorrupt, err)
	}
	if x.Version < 1 || x.Version > version || x.Key == "" || x.Key+queueExt != name {
		return x, fmt.Errorf("%s: %w: not a queued save of this program", path, ErrCorrupt)
	}
	if x.Version == 1 {
		x.Entry.Fingerprint, _ = legacyKey(cleanName(x.Entry.Name)) // as load reads format 1
	}
	x.Entry.Replay = ""
	if !check(&x.Entry) {
		return x, fmt.Errorf("%s: %w: not an entry the table takes", path, ErrCorrupt)
	}
	if d := x.Daily; d != nil {
		// Its day is checked as it is posted, against the day then.
		if !checkDaily(d, d.Day) || x.Key != dailyKey(*d) || d.Size != len(x.Replay) && x.Replay != nil {
			return x, fmt.Errorf("%s: %w: not a daily game the board takes", path, ErrCorrupt)
		}
		if x.Replay == nil {
			d.Replay = ""
		}
		x.Entry = d.Entry
	}
	return x, nil
}

// keys returns the keys pending, oldest game first.
func (q *queue) keys() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	keys := make([]string, 0, len(q.pending))
	for k := range q.pending {
		keys = append(keys, k)
	}
	slices.Sort(keys) // a key starts with its game's time
	return keys
}

// done removes the save of key, posted, from the queue.
func (q *queue) done(key string, replay int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	err := os.Remove(filepath.Join(q.dir, key+queueExt))
	if err == nil || errors.Is(err, fs.ErrNotExist) { // another process posted it
		delete(q.pending, key)
		delete(q.daily, key)
		q.bytes -= int64(replay)
	}
	if d, err := os.Open(q.dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// entries returns the entries pending, for the boards: all but the daily
// games, which count only once posted.
func (q *queue) entries() []Entry {
	return q.list(false)
}

// list returns the entries pending, the daily games' too with all.
func (q *queue) list(all bool) []Entry {
	q.mu.Lock()
	defer q.mu.Unlock()
	es := make([]Entry, 0, len(q.pending))
	for k, e := range q.pending {
		if all || !q.daily[k] {
			es = append(es, e)
		}
	}
	return es
}

// len returns how many saves are pending.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}

// Queued returns how many of the player name's games since since wait in
// the queue to be posted: a server tells a player who leaves so. The name
// is cleaned as [Store.Add] cleans it.
func (s *Store) Queued(name string, since time.Time) int {
	if s == nil || s.db == nil {
		return 0
	}
	name = cleanName(name)
	n := 0
	q := s.db.queue.Load()
	if q == nil {
		return 0
	}
	for _, e := range q.list(true) {
		if e.Name == name && !e.When.Before(since) {
			n++
		}
	}
	return n
}
