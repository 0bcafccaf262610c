// Package scores keeps the high-score table, a small JSON file that survives
// crashes, full disks and bad edits, and the replays of its best games.
//
// # Persistence
//
// [Store.Add] rewrites the whole file atomically: it writes a temporary file
// in the same directory, syncs it to disk, renames it over the old file and
// syncs the directory. A crash or a full disk at any point leaves either the
// old file or the new one, never a mix. A failed write keeps the entry in
// memory (the next successful Add saves it) and leaves the old file as it
// was; [Open] removes the temporary files a crash left.
//
// Any number of processes on one host may share a file. Each save takes an
// exclusive lock (flock(2) on scores.json.lock beside the file, on Unix),
// reads the file again, merges what other processes saved since into its
// own table, and only then writes: every process's entries are kept, and
// [Store.Top] shows them all after the next save.
//
// [Open] never fails for want of a good file. A missing file is an empty
// table. A file that cannot be read or parsed is renamed aside, to
// scores.json.bad-<time>, so nothing is lost and a person can look at it;
// Open then returns a usable empty store together with an error that
// explains, for the caller to log. A path that names a directory, a device
// or anything else that is not a regular file is a mistake to report, not
// a file to replace: nothing is renamed or written, and the error wraps
// [ErrNotFile].
//
// # Replays
//
// [Store.AddReplay] keeps the replay file of a game (package game/replay)
// with its entry while the entry is among the table's best [KeepReplays]:
// in the directory scores.json.replays beside the file, written
// atomically like the table and under the same lock, named by
// [Entry].Replay, read back with [Store.ReadReplay]. Each save, after the
// merge, drops the files of the entries pushed out of the best, so the
// directory holds at most KeepReplays files whichever process saved last.
// A replay file that is missing or cannot be written only leaves its
// entry without one.
//
// A symbolic link planted as scores.json.replays or scores.json.lock is
// refused, never followed, as the table itself is replaced by a rename
// rather than written through: the store writes, removes and creates
// files only in the directory of its own file. Without the lock the table
// is not saved; without the directory only the replays are not kept.
//
// # Players and boards
//
// Every entry carries a player name (on a local game the user, over SSH the
// user name) and, when the player logged in with a key, its fingerprint in
// a field of its own: a name and a key are one player, the same name
// without the key another (see player.go). A board keeps each player's
// best [PerPlayer] entries and at most [MaxEntries] in all, so a public
// server's file stays small however many players come. There is a board
// for each [Period]: all time, this week and today, the last two starting
// afresh each Monday and each midnight, UTC ([Store.Board], and
// [Store.Best] for a player's best on one). The store keeps what is on
// any board: today's best stays though it is not among the player's best
// of all time. [Store.Top] is the board of all time, [Store.TopFor] one
// player's own entries on it.
//
// # Daily boards
//
// Beside them are the daily boards, a board a day of package daily's
// game, whose entries are proven by their replays ([Store.AddDaily],
// [Store.Daily]): see daily.go. A player's first game of the day counts,
// the later ones are practice, and a game is kept once whoever adds it.
//
// # PostgreSQL
//
// [OpenPostgres] keeps the table in a PostgreSQL database instead, which
// any number of servers on any number of hosts may share: see postgres.go.
// Given a queue directory ([Store.SetQueue]), a save the database cannot
// take waits there, on local disk, and is posted once it can
// ([ErrQueued]): see queue.go.
//
// A Store is safe for concurrent use: SSH sessions share one.
package scores

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"poolroids/game/displayname"
	"poolroids/levels/regfile"
)

const (
	// PerPlayer is how many entries each player keeps.
	PerPlayer = 10
	// MaxEntries bounds the whole table; the lowest scores go first.
	MaxEntries = 1000
	// maxName bounds a name, in runes.
	maxName = 40
	// version is the file format version: 2 keeps the key of an entry
	// in a field of its own; 1, in the name (see player.go).
	version = 2
	// KeepReplays is how many of the table's best entries keep the
	// replay of their game.
	KeepReplays = 10
	// maxReplay bounds a replay file ReadReplay reads: an arena's
	// recording of many hours.
	maxReplay = 64 << 20
	// replayExt ends the name of every replay file the store keeps.
	replayExt = ".prpl"
)

// Entry is one finished game.
type Entry struct {
	Name     string    `json:"name"`
	Score    int       `json:"score"`
	Wave     int       `json:"wave"`     // wave reached, 1-based
	Strategy string    `json:"strategy"` // the pool strategy played at the end
	When     time.Time `json:"when"`
	Arena    string    `json:"arena,omitempty"` // the arena played in; "": a solo game
	// Replay names the replay kept for this entry, for Store.ReadReplay;
	// "": none. The store sets it (see Store.AddReplay).
	Replay string `json:"replay,omitempty"`
	// Fingerprint is the SHA256 fingerprint of the key the player logged
	// in with ("SHA256:…"), "" without one. The store sets it (see
	// Store.For).
	Fingerprint string `json:"fingerprint,omitempty"`
}

// ErrCorrupt is wrapped by the error [Open] returns when the file is not a
// score table.
var ErrCorrupt = errors.New("high-score file is corrupt")

// ErrNotFile is wrapped by the error [Open] returns when the path names a
// directory, a device, a pipe or anything else that is not a regular file.
var ErrNotFile = regfile.ErrNotRegular

// SaveError is the error [Store.Add] returns when the table could not be
// saved. Its message is short and names no file, since it is shown to
// players: "high score not saved: no space left on device". Err holds the
// whole story, paths included, for the log.
type SaveError struct {
	Path string // the score file
	Err  error
}

func (e *SaveError) Error() string {
	var aside *SetAsideError
	var errno syscall.Errno
	switch {
	case errors.As(e.Err, &aside) || errors.Is(e.Err, ErrNotFile):
		return "high score not saved: the score file is unusable"
	case errors.Is(e.Err, ErrDatabase):
		return "high score not saved: the score database is unreachable"
	case errors.As(e.Err, &errno):
		return "high score not saved: " + errno.Error()
	}
	return "high score not saved"
}

func (e *SaveError) Unwrap() error { return e.Err }

// SetAsideError is the warning [Open] returns when the file existed but
// could not be used. The store it comes with is usable.
type SetAsideError struct {
	Path  string // the score file
	Aside string // where it was moved; "" if moving it failed too
	Err   error  // why it could not be used (wraps ErrCorrupt when unparseable)
}

func (e *SetAsideError) Error() string {
	if e.Aside == "" {
		return fmt.Sprintf("high scores: %s unusable (%v) and could not be set aside; scores of this run are kept in memory only", e.Path, e.Err)
	}
	return fmt.Sprintf("high scores: %s unusable (%v); moved to %s, starting a new table", e.Path, e.Err, e.Aside)
}

func (e *SetAsideError) Unwrap() error { return e.Err }

// Store is the high-score table, kept best first, and the file behind it,
// as one player sees it: [Store.For] gives the same table as the holder
// of a key sees it.
type Store struct {
	*table
	key string // of the player who sees it (see For); "": none
}

// table is a Store's table, which every Store made from it by For shares.
type table struct {
	path string
	// diskErr, when set, stops all writes: the file is there but could be
	// neither read nor moved, or is no regular file, and overwriting it
	// would destroy it.
	diskErr error
	log     *slog.Logger // set by SetLogger before use; nil: no log

	mu      sync.Mutex   // guards entries and daily
	entries []Entry      // sorted by compare: every board's entries (see prune)
	daily   []DailyEntry // the daily boards, newest day first, each best first (see setDaily)
	// dailyErr is diskErr for the daily boards' file (see dailyfile.go).
	dailyErr error
	now      func() time.Time // the periods' clock; nil: time.Now
	db       *database        // set by OpenPostgres: the table lives there, not in path

	writeMu sync.Mutex // one file write at a time, each of the latest table
}

// DefaultPath is scores.json in the poolroids directory under the user's
// config directory, e.g. ~/.config/poolroids/scores.json on Linux.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "poolroids", "scores.json"), nil
}

// fileFormat is what the file holds.
type fileFormat struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// Open loads the table at path and removes the temporary files a crash in
// the middle of a save left beside it. The returned *Store is never nil and
// always usable. The error is nil for a good or missing file. When path
// names something that is not a regular file, such as a directory, the
// error wraps [ErrNotFile] and the store keeps its scores in memory only: a
// server should refuse to start. Otherwise the error is a *[SetAsideError]
// saying what was wrong and where the file went: log it and go on.
//
// The daily boards are read from a file of their own beside it (see
// dailyfile.go), by the same rules: their error, if any, is returned too
// (with [errors.Join] when both files had one).
func Open(path string) (*Store, error) {
	s := &Store{table: &table{path: path}}
	entries, diskErr, err := openFile(path, func(path string) ([]Entry, error) {
		s.removeTemps()
		return load(path)
	})
	s.diskErr = diskErr
	if errors.Is(err, ErrNotFile) {
		return s, err
	}
	// Kept whole: what fell off every board goes at the next save.
	slices.SortStableFunc(entries, compare)
	s.entries = entries
	if derr := s.openDaily(); derr != nil {
		if err == nil {
			return s, derr
		}
		err = errors.Join(err, derr)
	}
	return s, err
}

// openFile reads a file of the store's at path with load, as Open reads
// the table. A path that is no regular file is refused unread (reading a
// pipe would wait for a writer): diskErr and err wrap ErrNotFile. A file
// load cannot use is set aside, and err is the *SetAsideError; diskErr
// too when it could not be moved, since writing over it would destroy
// it.
func openFile[T any](path string, load func(string) (T, error)) (v T, diskErr, err error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("high scores: %s is %s, %w", path, regfile.Kind(info.Mode()), ErrNotFile)
		return v, err, err
	}
	v, err = load(path)
	if err == nil {
		return v, nil, nil
	}
	warn := setAside(path, err)
	if warn.Aside == "" {
		diskErr = warn
	}
	return v, diskErr, warn
}

// load reads the table at path, checking each entry as Add would (see
// check), since the file may have been edited by hand: what cannot be
// cleaned is left out. A missing file is an empty table (ENOTDIR: a parent
// is a file; Add will say if it cannot make one). An error wraps
// ErrCorrupt when the file is not a score table. A table of format 1
// gets the legacy keys its names carry (see player.go).
func load(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f fileFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if f.Version < 1 || f.Version > version {
		return nil, fmt.Errorf("%w: format version %d, this program reads 1 to %d", ErrCorrupt, f.Version, version)
	}
	entries := f.Entries[:0]
	for _, e := range f.Entries {
		if f.Version == 1 {
			e.Fingerprint, _ = legacyKey(cleanName(e.Name))
		}
		if check(&e) {
			entries = append(entries, e)
		}
	}
	return entries, nil
}

// setAside renames the unusable score file at path, which err says is
// unusable, to path.bad-<time>. The warning's Aside is "" when that failed
// too.
func setAside(path string, err error) *SetAsideError {
	warn := &SetAsideError{Path: path, Err: err}
	aside := fmt.Sprintf("%s.bad-%s", path, time.Now().UTC().Format("20060102T150405.000000000Z"))
	if rerr := os.Rename(path, aside); rerr != nil {
		warn.Err = errors.Join(err, rerr)
	} else {
		warn.Aside = aside
	}
	return warn
}

// removeTemps removes the temporary files a save that crashed left. It
// holds the lock, so that no save in another process is under way, and
// does nothing when the lock is taken or cannot be had: the next Open
// will clean up.
func (s *Store) removeTemps() {
	dir := filepath.Dir(s.path)
	unlock, err := lock(s.path, false)
	if err != nil {
		return
	}
	defer unlock()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && (strings.HasPrefix(n, regfile.TempPrefix(s.path)) || strings.HasPrefix(n, regfile.TempPrefix(s.dailyPath()))) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// SetLogger makes the store log what players are not shown: why a save
// failed, with the file's path, and a file set aside while saving. Call it
// before the store is used; a nil logger, the default, logs nothing.
func (s *Store) SetLogger(l *slog.Logger) {
	s.log = l
	if s.db != nil {
		s.db.log.Store(l)
		s.db.outage.SetLogger(l)
	}
}

// Path returns the file the store saves to; for a database, its server
// and name.
func (s *Store) Path() string { return s.path }

// For returns the store as the player who logged in with the key whose
// fingerprint is key sees it (ssh.FingerprintSHA256's "SHA256:…"; "": a
// player without a key): the same table, in which Add and AddReplay save
// entries under that key, and TopFor and Best find only the entries of the
// name that key owns. So no name can take another player's scores: ann
// with her key is not ann without it, nor "ann" plus anything. For of a
// nil Store is nil. Close only the Store Open or OpenPostgres returned.
func (s *Store) For(key string) *Store {
	if s == nil {
		return nil
	}
	return &Store{table: s.table, key: key}
}

// Add records e, under the store's key (see [Store.For];
// e.Fingerprint is ignored), and saves the table. A zero When is set to now, and When is
// kept in UTC. The name is cleaned by [displayname.Clean] (escapes,
// control, wide and combining characters removed) and cut to 40 runes,
// since it may come from a stranger's SSH login and is shown on other
// players' screens; an empty name becomes "anonymous". An entry the table
// would not take from a file either (a negative score, a time out of
// range, a key that is no fingerprint) is an error.
//
// rank is e's 1-based place in the whole table, or 0 if it did not make the
// table (not among the player's best [PerPlayer], or below the cut). When
// saving fails, err says why; the entry stays in the table in memory and the
// old file is untouched. A database store with a queue may instead answer
// [ErrQueued]: the save waits on disk to be posted.
func (s *Store) Add(e Entry) (rank int, err error) { return s.AddReplay(e, nil) }

// AddReplay is Add for a game with its replay file, replay: the file is
// kept, and the entry's Replay names it, while the entry is among the
// table's best KeepReplays (see Replays in the package doc). e.Replay is
// ignored; a nil replay keeps none. A replay that cannot be written is
// logged and leaves the entry without one; it is no error.
func (s *Store) AddReplay(e Entry, replay []byte) (rank int, err error) {
	e.Replay, e.Fingerprint = "", s.key
	if e.When.IsZero() {
		e.When = time.Now()
	}
	if !check(&e) {
		// One such entry would stop every save, or be no one's.
		return 0, fmt.Errorf("high scores: entry refused: score %d, wave %d, time %v, key %q", e.Score, e.Wave, e.When, e.Fingerprint)
	}
	if s.db != nil {
		e.When = e.When.Truncate(time.Microsecond) // as PostgreSQL keeps it
	}

	s.mu.Lock()
	s.insert(e)
	s.mu.Unlock()
	err = s.save(e, replay)
	if err != nil && !errors.Is(err, ErrQueued) && s.log != nil {
		s.log.Warn("high score not saved", "player", e.Name, "score", e.Score, "where", s.path, "err", errors.Unwrap(err))
	}
	// The rank in the table as saved, with other processes' entries.
	return s.rank(e), err
}

// rank returns e's 1-based place in the table of all time, 0 when e is
// not on it.
func (s *Store) rank(e Entry) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.place(e)
}

// place is rank with s.mu held.
func (s *Store) place(e Entry) int {
	for i, o := range s.board(AllTime) {
		if compare(o, e) == 0 && o.Wave == e.Wave && o.Strategy == e.Strategy {
			return i + 1
		}
	}
	return 0
}

// find returns e's index in s.entries. The caller holds s.mu.
func (s *Store) find(e Entry) (int, bool) {
	i, _ := slices.BinarySearchFunc(s.entries, e, compare)
	for ; i < len(s.entries) && compare(s.entries[i], e) == 0; i++ {
		if o := s.entries[i]; o.Wave == e.Wave && o.Strategy == e.Strategy {
			return i, true
		}
	}
	return 0, false
}

// Top returns the best n entries of all players of all time, best first
// (all of them when n <= 0). The slice is the caller's.
func (s *Store) Top(n int) []Entry { return s.Board(AllTime, n) }

// TopFor returns the best n entries of the player name, with the store's
// key (see [Store.For]), best first (all of them when n <= 0). The name is
// cleaned as [Store.Add] cleans it.
func (s *Store) TopFor(name string, n int) []Entry {
	name = cleanName(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	for _, e := range s.board(AllTime) {
		if owns(e, name, s.key) {
			out = append(out, e)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// insert puts e in its place and drops what is on no board; it returns
// e's rank of all time, 0 if it is not on that board. The caller holds
// s.mu (or owns s).
func (s *Store) insert(e Entry) int {
	i, _ := slices.BinarySearchFunc(s.entries, e, compare)
	s.entries = slices.Insert(s.entries, i, e)
	s.prune()
	return s.place(e)
}

// merge adds the entries of es that the table lacks, then drops what is
// on no board. The caller holds s.mu (or owns s).
func (s *Store) merge(es []Entry) {
	n := len(s.entries)
	for _, e := range es {
		if _, ok := s.find(e); !ok {
			s.entries = append(s.entries, e)
		}
	}
	if len(s.entries) > n {
		slices.SortStableFunc(s.entries, compare)
		s.prune()
	}
}

// compare orders entries best first: higher score, then the earlier game
// (who got there first keeps the place), then name, then key.
func compare(a, b Entry) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	if c := a.When.Compare(b.When); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.Fingerprint, b.Fingerprint)
}

// save merges the file into the table, keeps e's replay if it ranks, and
// writes the table to the file atomically, under the lock that other
// processes' saves take too. An error is a *SaveError.
func (s *Store) save(e Entry, replay []byte) error {
	if s.db != nil {
		return s.db.save(s, e, replay)
	}
	if s.diskErr != nil {
		return &SaveError{Path: s.path, Err: s.diskErr}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if err := s.mergeAndWrite(e, replay); err != nil {
		return &SaveError{Path: s.path, Err: fmt.Errorf("high scores: saving %s: %w", s.path, err)}
	}
	return nil
}

// mergeAndWrite is save's work, with writeMu held.
func (s *Store) mergeAndWrite(e Entry, replay []byte) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	unlock, err := lock(s.path, true)
	if err != nil {
		return err
	}
	defer unlock()
	if info, err := os.Stat(s.path); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s, %w", regfile.Kind(info.Mode()), ErrNotFile)
	}
	theirs, err := load(s.path)
	switch {
	case errors.Is(err, ErrCorrupt):
		// Someone wrote a bad file since Open: keep it for a person to
		// look at, as Open does, and write ours.
		warn := setAside(s.path, err)
		if warn.Aside == "" {
			return warn
		}
		if s.log != nil {
			s.log.Warn("high scores", "err", warn)
		}
	case err != nil:
		// Unreadable: writing over it could lose other processes' scores.
		return err
	}
	// Taken under writeMu, so the last writer always writes the latest table.
	s.mu.Lock()
	var news []Entry
	for _, o := range theirs {
		if i, ok := s.find(o); ok {
			s.entries[i].Replay = o.Replay // the file says which replays are kept
		} else {
			news = append(news, o)
		}
	}
	s.merge(news)
	rank := s.place(e)
	s.mu.Unlock()
	if replay != nil && rank > 0 && rank <= KeepReplays {
		s.keepReplay(e, replay)
	}
	s.mu.Lock()
	kept := s.keptReplays()
	data, err := json.MarshalIndent(fileFormat{Version: version, Entries: s.entries}, "", "\t")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if err := writeAtomic(s.path, append(data, '\n')); err != nil {
		return err
	}
	s.dropReplays(kept)
	return nil
}

// writeAtomic replaces path with data, atomically (see [regfile.Write]),
// making its directory first.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return regfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// cleanName cleans a name by the rule of every name a player sees (see
// package displayname), within maxName runes: the table may have been edited by
// hand, and its names are drawn in a column on other players' screens.
func cleanName(name string) string { return displayname.Clean(name, maxName) }
