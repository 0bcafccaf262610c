package scores

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"poolroids/levels/regfile"
)

// replayDir is the directory of the replays kept beside the score file.
func (s *Store) replayDir() string { return s.path + ".replays" }

// checkDir returns nil when dir, a directory of kept replays, is missing
// (a save makes it) or a directory, and an error when it is anything
// else. A symbolic link planted there is refused, not followed: the store
// would write replays to, and remove them from, wherever it points.
func checkDir(dir string) error {
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("high scores: replays: %w", err)
	case !info.IsDir():
		return fmt.Errorf("high scores: %s is %s, not a directory", dir, regfile.Kind(info.Mode()))
	}
	return nil
}

// replayName names the file of e's replay: its time, then a hash of the
// rest of what identifies it, so that processes sharing the table never
// pick one name for two entries.
func replayName(e Entry) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s\x00%s", e.Name, e.Score, e.Wave, e.Strategy, e.Arena)
	if e.Fingerprint != "" {
		fmt.Fprintf(h, "\x00%s", e.Fingerprint)
	}
	return fmt.Sprintf("%s-%016x%s", e.When.UTC().Format("20060102T150405.000000000Z"), h.Sum64(), replayExt)
}

// replayFile reports whether name can name a kept replay: a plain file
// name of the store's own, so that an edited table cannot point ReadReplay
// at any other file.
func replayFile(name string) bool {
	return name != "" && len(name) <= 128 && !strings.HasPrefix(name, ".") &&
		!strings.ContainsAny(name, `/\`) && strings.HasSuffix(name, replayExt)
}

// keepReplay writes e's replay and names it in e's entry. The caller holds
// writeMu and the file lock.
func (s *Store) keepReplay(e Entry, replay []byte) {
	name := replayName(e)
	err := checkDir(s.replayDir())
	if err == nil {
		err = writeAtomic(filepath.Join(s.replayDir(), name), replay)
	}
	if err != nil {
		if s.log != nil {
			s.log.Warn("replay not kept", "player", e.Name, "score", e.Score, "err", err)
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.find(e); ok {
		s.entries[i].Replay = name
	}
}

// keptReplays forgets the replays of the entries beyond the best
// KeepReplays of all time, and those whose file is gone, and returns the
// names of the others. The caller holds s.mu, writeMu and the file lock.
func (s *Store) keptReplays() map[string]bool {
	kept := make(map[string]bool, KeepReplays)
	best := make(map[string]bool, KeepReplays)
	top := s.board(AllTime)
	for _, e := range top[:min(KeepReplays, len(top))] {
		best[e.Replay] = true
	}
	for i := range s.entries {
		r := &s.entries[i].Replay
		if *r == "" {
			continue
		}
		if info, err := os.Stat(filepath.Join(s.replayDir(), *r)); !best[*r] || err != nil || !info.Mode().IsRegular() {
			*r = ""
			continue
		}
		kept[*r] = true
	}
	return kept
}

// dropReplays removes the replay files not in kept, and the temporary
// files of a crashed save. The caller holds writeMu and the file lock.
func (s *Store) dropReplays(kept map[string]bool) { dropFiles(s.replayDir(), kept) }

// dropFiles removes from dir, a directory of kept replays, the replay
// files not in kept, and the temporary files of a crashed save.
func dropFiles(dir string, kept map[string]bool) {
	if checkDir(dir) != nil {
		return // see checkDir
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		ours := strings.HasSuffix(n, replayExt) || strings.HasPrefix(n, ".") && strings.Contains(n, replayExt+".tmp-")
		if ours && e.Type().IsRegular() && !kept[n] {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}

// errNoStore is ReadReplay's error on a nil Store.
var errNoStore = errors.New("high scores: no table kept")

// ReadReplay returns the bytes of the replay kept under name, an
// [Entry].Replay. A nil Store, a name the store never gives, or a file
// that is gone (pushed out by a better score since, perhaps in another
// process) or not a regular file is an error.
func (s *Store) ReadReplay(name string) ([]byte, error) {
	if s == nil {
		return nil, errNoStore
	}
	if !replayFile(name) {
		return nil, fmt.Errorf("high scores: %q names no replay", name)
	}
	if s.db != nil {
		return s.db.readReplay(name)
	}
	return readKept(s.replayDir(), name, maxReplay)
}

// readKept reads the replay file name in dir, a directory of kept
// replays, refused over max bytes, or when it is anything but a regular
// file.
func readKept(dir, name string, max int) ([]byte, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	// Checked before opening: opening a pipe would wait for a writer.
	info, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("high scores: replay: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("high scores: replay %s is %s, %w", path, regfile.Kind(info.Mode()), ErrNotFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("high scores: replay: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("high scores: replay: %w", err)
	case len(data) > max:
		return nil, fmt.Errorf("high scores: replay %s is over %d bytes", path, max)
	}
	return data, nil
}
