package scores

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"poolroids/game"
	"poolroids/game/match"
	"poolroids/game/replay"
)

// replayOf is the stand-in replay file of a test entry.
func replayOf(name string) []byte { return []byte("replay of " + name) }

// checkReplays checks s's table against the replays directory: each of
// the best KeepReplays entries keeps replayOf its name, no other entry
// keeps one, and the directory holds exactly the kept files.
func checkReplays(t *testing.T, s *Store) {
	t.Helper()
	var names []string
	for i, e := range s.Top(0) {
		if i >= KeepReplays {
			if e.Replay != "" {
				t.Errorf("entry %d (%s) keeps %s", i+1, e.Name, e.Replay)
			}
			continue
		}
		data, err := s.ReadReplay(e.Replay)
		if err != nil || !bytes.Equal(data, replayOf(e.Name)) {
			t.Errorf("entry %d (%s): replay %q: %q, %v", i+1, e.Name, e.Replay, data, err)
		}
		names = append(names, e.Replay)
	}
	slices.Sort(names)
	if files := replayFiles(t, s); !slices.Equal(files, names) {
		t.Errorf("the directory holds %q, the table keeps %q", files, names)
	}
}

// replayFiles lists the replay directory of s.
func replayFiles(t *testing.T, s *Store) []string {
	t.Helper()
	ents, err := os.ReadDir(s.Path() + ".replays")
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		files = append(files, e.Name())
	}
	return files
}

func TestReplayKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.json")
	s, _ := Open(path)
	e := entry("ann", 500, 1)
	e.Replay = "../scores.json" // the store names the file, not the caller
	if _, err := s.AddReplay(e, replayOf("ann")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(entry("bob", 400, 2)); err != nil {
		t.Fatal(err)
	}
	checkReplaysExcept(t, s, "bob")
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Top(0); got[0].Replay == "" || got[0].Replay != s.Top(1)[0].Replay || got[1].Replay != "" {
		t.Errorf("reopened: replays %q, %q", got[0].Replay, got[1].Replay)
	}
	checkReplaysExcept(t, again, "bob")
}

// checkReplaysExcept is checkReplays for a table whose entries named
// without were added without a replay.
func checkReplaysExcept(t *testing.T, s *Store, without string) {
	t.Helper()
	var kept []string
	for _, e := range s.Top(0) {
		if e.Name == without {
			if e.Replay != "" {
				t.Errorf("%s, added without a replay, keeps %s", e.Name, e.Replay)
			}
			continue
		}
		data, err := s.ReadReplay(e.Replay)
		if err != nil || !bytes.Equal(data, replayOf(e.Name)) {
			t.Errorf("%s: replay %q: %q, %v", e.Name, e.Replay, data, err)
		}
		kept = append(kept, e.Replay)
	}
	slices.Sort(kept)
	if files := replayFiles(t, s); !slices.Equal(files, kept) {
		t.Errorf("the directory holds %q, the table keeps %q", files, kept)
	}
}

// TestReplaysBounded: only the best KeepReplays entries keep a replay; a
// better entry pushes the lowest one's file out, and a worse one keeps
// none.
func TestReplaysBounded(t *testing.T) {
	s, _ := Open(filepath.Join(t.TempDir(), "scores.json"))
	add := func(name string, score int) {
		t.Helper()
		if _, err := s.AddReplay(entry(name, score, score), replayOf(name)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range KeepReplays {
		add(fmt.Sprint("p", i), 100*(i+1))
	}
	lowest := s.Top(0)[KeepReplays-1]
	if lowest.Name != "p0" || lowest.Replay == "" {
		t.Fatalf("the lowest of %d: %+v", KeepReplays, lowest)
	}
	checkReplays(t, s)
	add("best", 5000) // the 11th
	checkReplays(t, s)
	if _, err := s.ReadReplay(lowest.Replay); err == nil {
		t.Error("the pushed-out replay is still read")
	}
	add("worst", 50) // the 12th
	checkReplays(t, s)
	if n := len(replayFiles(t, s)); n != KeepReplays {
		t.Errorf("%d replay files kept, want %d", n, KeepReplays)
	}
}

// TestReplayMissing: a kept file that disappears is no error: its entry
// just keeps none from the next save on.
func TestReplayMissing(t *testing.T) {
	s, _ := Open(filepath.Join(t.TempDir(), "scores.json"))
	for i, name := range []string{"ann", "bob"} {
		if _, err := s.AddReplay(entry(name, 100+i, i), replayOf(name)); err != nil {
			t.Fatal(err)
		}
	}
	gone := s.TopFor("ann", 1)[0].Replay
	if err := os.Remove(filepath.Join(s.Path()+".replays", gone)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadReplay(gone); err == nil {
		t.Error("a removed replay was read")
	}
	if _, err := s.AddReplay(entry("cy", 50, 3), replayOf("cy")); err != nil {
		t.Fatalf("Add with a replay file missing: %v", err)
	}
	checkReplaysExcept(t, s, "ann")
}

// TestReadReplayRefuses: ReadReplay reads only the store's own replay
// files, and a table edited to name another file keeps no replay.
func TestReadReplayRefuses(t *testing.T) {
	var none *Store
	if _, err := none.ReadReplay("x.prpl"); err == nil {
		t.Error("a nil store read a replay")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "scores.json")
	s, _ := Open(path)
	for _, name := range []string{"", "../scores.json", "a/b.prpl", "..prpl", ".x.prpl.tmp-1", "scores.json"} {
		if _, err := s.ReadReplay(name); err == nil {
			t.Errorf("ReadReplay(%q) read", name)
		}
	}
	edited := `{"version":1,"entries":[{"name":"ann","score":5,"wave":1,"strategy":"dense","when":"2025-03-01T12:00:00Z","replay":"../scores.json"}]}`
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Top(1)[0].Replay; r != "" {
		t.Errorf("an edited table names %q", r)
	}
}

// TestStoresShareReplays: two stores on one file, adding in turn, keep
// the replays of the table's best entries, whichever saved last.
func TestStoresShareReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.json")
	a, _ := Open(path)
	b, _ := Open(path)
	for i := range 3 * KeepReplays {
		s := []*Store{a, b}[i%2]
		name := fmt.Sprint("p", i)
		// Scores rise and fall so that each store's adds push the
		// other's entries out.
		if _, err := s.AddReplay(entry(name, (i*37)%101, i), replayOf(name)); err != nil {
			t.Fatal(err)
		}
		checkReplays(t, s)
		if t.Failed() {
			t.Fatalf("after %d adds", i+1)
		}
	}
}

// TestGameReplayKept: a played game's high score keeps a replay that
// plays and checks to the game's end, as `poolroids replay --check` does.
func TestGameReplayKept(t *testing.T) {
	m, err := match.New(game.Config{Seed: 11}, false)
	if err != nil {
		t.Fatal(err)
	}
	m.SetPlayer("ann")
	m.Start()
	var res match.Result
	for ended := false; !ended; {
		res, ended = m.Step(game.Input{Fire: true, Left: true, Hyperspace: m.World().Steps()%90 == 0})
	}
	s, _ := Open(filepath.Join(t.TempDir(), "scores.json"))
	e := Entry{Name: "ann", Score: res.Score, Wave: res.Wave, Strategy: res.Strategy}
	if _, err := s.AddReplay(e, res.Replay); err != nil {
		t.Fatal(err)
	}
	data, err := s.ReadReplay(s.Top(1)[0].Replay)
	if err != nil {
		t.Fatal(err)
	}
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := p.World(); w.Score() != res.Score || w.Phase() != game.GameOver || !strings.Contains(strings.Join(p.File().Names, ","), "ann") {
		t.Errorf("the replay ends at score %d (%v), players %q; the game scored %d", w.Score(), w.Phase(), p.File().Names, res.Score)
	}
	t.Logf("a %d s game: %d bytes kept", p.Steps()/game.TPS, len(data))
}
