package scores

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"poolroids/levels/regfile"
)

// A file store keeps its daily boards in a file of their own beside the
// table, scores.json.daily, and their replays in scores.json.daily-replays:
// programs that know no daily board, sharing the table, neither read nor
// rewrite nor prune them. Each add is saved as the table's are: under the
// same lock, after reading the file again (other processes' games are
// then decided with), written atomically; a file that is not a daily
// board is set aside, as the table is. A save that fails adds nothing,
// so that the game a player was told did not save does not count.

const (
	// dailyVersion is the daily file's format.
	dailyVersion = 1
	// maxDailyFile bounds the daily file read: KeepDays boards, full.
	maxDailyFile = 64 << 20
)

// dailyFile is what the daily file holds.
type dailyFile struct {
	Version int          `json:"version"`
	Entries []DailyEntry `json:"entries"`
}

// dailyPath is the daily boards' file.
func (s *Store) dailyPath() string { return s.path + ".daily" }

// dailyDir is the directory of the daily games' replays.
func (s *Store) dailyDir() string { return s.path + ".daily-replays" }

// openDaily loads the daily boards' file, as Open loads the table.
func (s *Store) openDaily() error {
	es, diskErr, err := openFile(s.dailyPath(), loadDaily)
	s.dailyErr = diskErr
	s.setDaily(es)
	return err
}

// loadDaily reads the daily file at path; setDaily checks its entries. A
// missing file holds no games; an error wraps ErrCorrupt when the file is
// not a daily board.
func loadDaily(path string) ([]DailyEntry, error) {
	data, err := regfile.Read(path, maxDailyFile)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f dailyFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if f.Version != dailyVersion {
		return nil, fmt.Errorf("%w: daily format version %d, this program reads %d", ErrCorrupt, f.Version, dailyVersion)
	}
	return f.Entries, nil
}

// addDailyFile is AddDaily for a file store: e is checked.
func (s *Store) addDailyFile(e DailyEntry, replay []byte) (DailyResult, error) {
	if err := cmp.Or(s.diskErr, s.dailyErr); err != nil {
		return DailyResult{}, &SaveError{Path: s.dailyPath(), Err: err}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	res, err := s.saveDaily(e, replay)
	if _, posted := errors.AsType[*PostedError](err); err != nil && !posted {
		err = &SaveError{Path: s.dailyPath(), Err: fmt.Errorf("high scores: saving %s: %w", s.dailyPath(), err)}
		if s.log != nil {
			s.log.Warn("daily game not saved", "player", e.Name, "day", e.Day, "score", e.Score, "err", errors.Unwrap(err))
		}
	}
	return res, err
}

// saveDaily is addDailyFile's work, with writeMu held: it reads the file
// again under the lock, decides, keeps the replay, writes the file and
// makes the memory what it holds.
func (s *Store) saveDaily(e DailyEntry, replay []byte) (DailyResult, error) {
	path := s.dailyPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return DailyResult{}, err
	}
	unlock, err := lock(s.path, true)
	if err != nil {
		return DailyResult{}, err
	}
	defer unlock()
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return DailyResult{}, fmt.Errorf("%s, %w", regfile.Kind(info.Mode()), ErrNotFile)
	}
	theirs, err := loadDaily(path)
	s.mu.Lock()
	switch {
	case errors.Is(err, ErrCorrupt):
		// Written badly since Open: kept for a person, as Open does; the
		// memory is what was saved.
		warn := setAside(path, err)
		if warn.Aside == "" {
			s.mu.Unlock()
			return DailyResult{}, warn
		}
		if s.log != nil {
			s.log.Warn("high scores", "err", warn)
		}
	case err != nil:
		s.mu.Unlock()
		return DailyResult{}, err
	default:
		s.setDaily(theirs)
	}
	day := slices.Clone(dayOf(s.daily, e.Day))
	rest := slices.DeleteFunc(slices.Clone(s.daily), func(o DailyEntry) bool { return o.Day == e.Day })
	s.mu.Unlock()

	out, res, err := addDaily(day, e)
	if err != nil {
		return res, err
	}
	for i := range out {
		if o := &out[i]; o.Sum == e.Sum && o.Replay != "" {
			err := checkDir(s.dailyDir())
			if err == nil {
				err = writeAtomic(filepath.Join(s.dailyDir(), o.Replay), replay)
			}
			if err != nil {
				// The game is kept without it.
				if s.log != nil {
					s.log.Warn("daily replay not kept", "player", e.Name, "day", e.Day, "err", err)
				}
				o.Replay = ""
				res.Entry.Replay = ""
			}
		}
	}
	all := append(rest, out...)
	data, err := json.MarshalIndent(dailyFile{Version: dailyVersion, Entries: all}, "", "\t")
	if err != nil {
		return DailyResult{}, err
	}
	if err := writeAtomic(path, append(data, '\n')); err != nil {
		return DailyResult{}, err
	}
	s.mu.Lock()
	s.setDaily(all)
	kept := make(map[string]bool)
	for _, o := range s.daily {
		if o.Replay != "" {
			kept[o.Replay] = true
		}
	}
	s.mu.Unlock()
	dropFiles(s.dailyDir(), kept)
	return res, nil
}
