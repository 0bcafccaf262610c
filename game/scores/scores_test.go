package scores

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func entry(name string, score int, minute int) Entry {
	return Entry{Name: name, Score: score, Wave: score/1000 + 1, Strategy: "dense", When: t0.Add(time.Duration(minute) * time.Minute)}
}

// names lists "name:score" of es, to compare tables at a glance.
func names(es []Entry) string {
	var s []string
	for _, e := range es {
		s = append(s, fmt.Sprintf("%s:%d", e.Name, e.Score))
	}
	return strings.Join(s, " ")
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "scores.json")
	s, err := Open(path)
	if err != nil || len(s.Top(0)) != 0 || s.Path() != path {
		t.Fatalf("Open of a missing file = %v, %d entries, path %q; want nil, 0, %q", err, len(s.Top(0)), s.Path(), path)
	}
	for i, e := range []Entry{entry("ann", 1200, 1), entry("bob", 5000, 2), entry("ann", 300, 3)} {
		if _, err := s.Add(e); err != nil {
			t.Fatalf("Add #%d: %v", i, err)
		}
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := again.Top(0), s.Top(0); !reflect.DeepEqual(got, want) {
		t.Errorf("reopened table\n%+v\nwant\n%+v", got, want)
	}
	if got := names(again.Top(0)); got != "bob:5000 ann:1200 ann:300" {
		t.Errorf("reopened table %s", got)
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Errorf("file: %v", err)
	}
}

func TestOrderingAndRanks(t *testing.T) {
	cases := []struct {
		add  Entry
		rank int
		top  string
	}{
		{entry("ann", 100, 1), 1, "ann:100"},
		{entry("bob", 300, 2), 1, "bob:300 ann:100"},
		{entry("cy", 200, 3), 2, "bob:300 cy:200 ann:100"},
		{entry("dee", 200, 0), 2, "bob:300 dee:200 cy:200 ann:100"}, // earlier game first
		{entry("eve", 200, 9), 4, "bob:300 dee:200 cy:200 eve:200 ann:100"},
		{entry("fay", 0, 4), 6, "bob:300 dee:200 cy:200 eve:200 ann:100 fay:0"},
	}
	s, _ := Open(filepath.Join(t.TempDir(), "scores.json"))
	for _, tc := range cases {
		rank, err := s.Add(tc.add)
		if err != nil {
			t.Fatal(err)
		}
		if rank != tc.rank {
			t.Errorf("Add(%s:%d) rank %d, want %d", tc.add.Name, tc.add.Score, rank, tc.rank)
		}
		if got := names(s.Top(0)); got != tc.top {
			t.Errorf("after %s: table %s, want %s", tc.add.Name, got, tc.top)
		}
	}
	if got := names(s.Top(3)); got != "bob:300 dee:200 cy:200" {
		t.Errorf("Top(3) = %s", got)
	}
	if got := names(s.Top(99)); got != cases[len(cases)-1].top {
		t.Errorf("Top(99) = %s", got)
	}
}

func TestPerPlayerTable(t *testing.T) {
	s := &Store{table: &table{}}
	for i := range PerPlayer + 2 {
		s.insert(entry("ann", 100*(i+1), i))
	}
	s.insert(entry("bob", 50, 0))
	if got := len(s.TopFor("ann", 0)); got != PerPlayer {
		t.Errorf("ann keeps %d entries, want %d", got, PerPlayer)
	}
	if got := names(s.TopFor("ann", 2)); got != "ann:1200 ann:1100" {
		t.Errorf("TopFor(ann, 2) = %s", got)
	}
	if got := names(s.TopFor("bob", 5)); got != "bob:50" {
		t.Errorf("TopFor(bob, 5) = %s", got)
	}
	if got := s.insert(entry("ann", 1, 99)); got != 0 {
		t.Errorf("rank of a game below ann's best %d = %d, want 0", PerPlayer, got)
	}
	if got := s.insert(entry("ann", 5000, 99)); got != 1 {
		t.Errorf("rank of ann's new best = %d, want 1", got)
	}
	if got := names(s.TopFor("nobody", 3)); got != "" {
		t.Errorf("TopFor(nobody) = %s", got)
	}
}

func TestMaxEntries(t *testing.T) {
	s := &Store{table: &table{}}
	for i := range MaxEntries {
		s.insert(entry(fmt.Sprint("p", i), 10+i, 0))
	}
	if got := s.insert(entry("low", 1, 0)); got != 0 {
		t.Errorf("rank below the cut = %d, want 0", got)
	}
	if got := s.insert(entry("high", 1e6, 0)); got != 1 {
		t.Errorf("rank at the top = %d, want 1", got)
	}
	top := s.Top(0)
	if len(top) != MaxEntries || top[len(top)-1].Score != 11 {
		t.Errorf("%d entries, last %d; want %d, lowest score dropped", len(top), top[len(top)-1].Score, MaxEntries)
	}
}

// TestUnusableFileSetAside checks a bad file is moved aside, with its
// contents, the caller is told why, and the store works.
func TestUnusableFileSetAside(t *testing.T) {
	cases := []struct {
		name    string
		make    func(path string) error
		corrupt bool
	}{
		{"garbage", func(p string) error { return os.WriteFile(p, []byte("{not json"), 0o644) }, true},
		{"truncated", func(p string) error { return os.WriteFile(p, []byte(`{"version":1,"entries":[{"name":"a`), 0o644) }, true},
		{"wrong types", func(p string) error { return os.WriteFile(p, []byte(`{"version":1,"entries":[{"score":"x"}]}`), 0o644) }, true},
		{"future version", func(p string) error { return os.WriteFile(p, []byte(`{"version":3,"entries":[]}`), 0o644) }, true},
		{"empty", func(p string) error { return os.WriteFile(p, nil, 0o644) }, true},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		path := filepath.Join(dir, "scores.json")
		if err := tc.make(path); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(path)
		s, err := Open(path)
		var warn *SetAsideError
		if !errors.As(err, &warn) {
			t.Fatalf("%s: Open error %v, want a *SetAsideError", tc.name, err)
		}
		if errors.Is(err, ErrCorrupt) != tc.corrupt {
			t.Errorf("%s: errors.Is(err, ErrCorrupt) = %v", tc.name, !tc.corrupt)
		}
		if s == nil || warn.Aside == "" || !strings.HasPrefix(warn.Aside, path+".bad-") {
			t.Fatalf("%s: store %v, aside %q", tc.name, s, warn.Aside)
		}
		if after, err := os.ReadFile(warn.Aside); tc.corrupt && (err != nil || string(after) != string(before)) {
			t.Errorf("%s: set-aside file %q, %v; want the old contents", tc.name, after, err)
		}
		if _, err := s.Add(entry("ann", 10, 0)); err != nil {
			t.Errorf("%s: Add after setting aside: %v", tc.name, err)
		}
		if again, err := Open(path); err != nil || names(again.Top(0)) != "ann:10" {
			t.Errorf("%s: new file reads %v, %v", tc.name, again.Top(0), err)
		}
	}
}

// TestCrashLeftoversRemoved checks that Open removes the temporary files of
// a save that never finished, and nothing else.
func TestCrashLeftoversRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scores.json")
	keep := []string{"scores.json", "other.json", ".other.json.tmp-1", ".scores.json.tmp-dir/"}
	gone := []string{".scores.json.tmp-123", ".scores.json.tmp-4567"}
	for _, name := range append(keep, gone...) {
		p := filepath.Join(dir, name)
		var err error
		if strings.HasSuffix(name, "/") {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(`{"version":1,"entries":[]}`), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(path); err != nil {
		t.Fatal(err)
	}
	for _, name := range keep {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v; want it kept", name, err)
		}
	}
	for _, name := range gone {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v; want it removed", name, err)
		}
	}
}

// TestStoresShareFile checks that two stores on one file, as two processes
// would have, keep each other's entries: each save merges what the other
// saved, and ranks count the other's entries too.
func TestStoresShareFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.json")
	a, _ := Open(path)
	b, _ := Open(path)
	if _, err := a.Add(entry("ann", 200, 1)); err != nil {
		t.Fatal(err)
	}
	if rank, err := b.Add(entry("bob", 100, 2)); err != nil || rank != 2 {
		t.Fatalf("b.Add = %d, %v; want rank 2, below ann's", rank, err)
	}
	if _, err := a.Add(entry("cy", 300, 3)); err != nil {
		t.Fatal(err)
	}
	want := "cy:300 ann:200 bob:100"
	if got := names(a.Top(0)); got != want {
		t.Errorf("a holds %s, want %s", got, want)
	}
	again, err := Open(path)
	if err != nil || names(again.Top(0)) != want {
		t.Errorf("file holds %s, %v; want %s", names(again.Top(0)), err, want)
	}
}

// TestUnmovableFileKept checks a bad file that cannot be moved aside is
// never overwritten: scores stay in memory and every save says why.
func TestUnmovableFileKept(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc, where nothing can be renamed")
	}
	path := "/proc/self/limits" // readable, not JSON, not movable
	s, err := Open(path)
	var warn *SetAsideError
	if !errors.As(err, &warn) || warn.Aside != "" || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open = %v, want a corrupt SetAsideError with no aside", err)
	}
	if rank, err := s.Add(entry("ann", 10, 0)); rank != 1 || !errors.As(err, &warn) {
		t.Errorf("Add = %d, %v; want rank 1 and the set-aside error", rank, err)
	}
	if got := names(s.Top(0)); got != "ann:10" {
		t.Errorf("table %s, want the entry kept in memory", got)
	}
}

// TestWriteFailureKeepsEntry forces a failed save, in a way root cannot
// bypass: the parent of the file is a regular file. The error a player
// sees is short and names no path; the log has the path and the reason.
func TestWriteFailureKeepsEntry(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "scores.json")
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v (a missing file is not an error even if its dir cannot exist)", err)
	}
	var log bytes.Buffer
	s.SetLogger(slog.New(slog.NewTextHandler(&log, nil)))
	rank, err := s.Add(entry("ann", 10, 0))
	if err == nil || rank != 1 {
		t.Fatalf("Add = %d, %v; want rank 1 and an error", rank, err)
	}
	var se *SaveError
	if !errors.As(err, &se) || err.Error() != "high score not saved: not a directory" || !strings.Contains(se.Err.Error(), path) {
		t.Errorf("Add error %q (%v); want a short one naming no path, wrapping one that names it", err, errors.Unwrap(err))
	}
	if line := log.String(); !strings.Contains(line, "high score not saved") || !strings.Contains(line, path) ||
		!strings.Contains(line, "not a directory") || !strings.Contains(line, "player=ann") {
		t.Errorf("log %q; want the player, the path and the reason", line)
	}
	if got := names(s.Top(0)); got != "ann:10" {
		t.Errorf("table %s, want the entry kept in memory", got)
	}
	if b, _ := os.ReadFile(blocker); string(b) != "x" {
		t.Errorf("blocker changed to %q", b)
	}
}

func TestAddRejectsTimeJSONCannotHold(t *testing.T) {
	s, _ := Open(filepath.Join(t.TempDir(), "scores.json"))
	e := entry("ann", 10, 0)
	e.When = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Add(e); err == nil {
		t.Error("Add with year 10000 succeeded")
	}
	if len(s.Top(0)) != 0 {
		t.Error("rejected entry kept")
	}
	if _, err := s.Add(entry("bob", 5, 0)); err != nil {
		t.Errorf("next Add: %v", err)
	}
}

func TestAddFillsTimeAndCleansName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ann", "ann"},
		{"  ann  ", "ann"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\uff37\uff29\uff24\uff25\u4e2d\u6587 ann", "ann"}, // wide runes would shift the row
		{"a\u200bb\u202ec", "abc"},
		{"", "anonymous"},
		{"\x01 \x02", "anonymous"},
		{strings.Repeat("é", 50), strings.Repeat("é", 40)},
	}
	for _, tc := range cases {
		s := &Store{table: &table{path: filepath.Join(t.TempDir(), "scores.json")}}
		before := time.Now()
		if _, err := s.Add(Entry{Name: tc.in, Score: 1}); err != nil {
			t.Fatal(err)
		}
		e := s.Top(1)[0]
		if e.Name != tc.want {
			t.Errorf("name %q stored as %q, want %q", tc.in, e.Name, tc.want)
		}
		if e.When.Before(before.Add(-time.Second)) || e.When.Location() != time.UTC {
			t.Errorf("When = %v, want now in UTC", e.When)
		}
		if got := s.TopFor(tc.in, 1); len(got) != 1 {
			t.Errorf("TopFor(%q) found nothing", tc.in)
		}
	}
}

// TestConcurrentAdds runs saves and reads from many goroutines (run with
// -race) and checks the file ends up holding the whole table.
func TestConcurrentAdds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.json")
	s, _ := Open(path)
	const players, games = 8, 6
	var wg sync.WaitGroup
	for p := range players {
		wg.Go(func() {
			name := fmt.Sprint("player", p)
			for g := range games {
				if _, err := s.Add(entry(name, p*100+g, g)); err != nil {
					t.Error(err)
				}
				_ = s.TopFor(name, 3)
				_ = s.Top(5)
			}
		})
	}
	wg.Wait()
	if got := len(s.Top(0)); got != players*games {
		t.Errorf("%d entries, want %d", got, players*games)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Top(0), s.Top(0)) {
		t.Error("file and memory differ after concurrent adds")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CONFIG_HOME decides only on Linux")
	}
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if got, err := DefaultPath(); err != nil || got != "/cfg/poolroids/scores.json" {
		t.Errorf("DefaultPath = %q, %v", got, err)
	}
}
