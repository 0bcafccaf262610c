//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package scores

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestNotAFileRefused checks that a path naming a directory, a named pipe
// or a socket is refused at once (a pipe is not read, which would wait for
// a writer), with an error that says what it is, and that nothing is moved,
// written or removed: a directory given by mistake keeps its contents, such
// as a server's host key, where they were.
func TestNotAFileRefused(t *testing.T) {
	cases := []struct {
		name, kind string
		make       func(path string) error
	}{
		{"directory", "a directory", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "ssh_host_ed25519_key"), []byte("secret"), 0o600)
		}},
		{"fifo", "a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"socket", "a socket", func(p string) error {
			_, err := net.Listen("unix", p)
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "scores")
			if err := tc.make(path); err != nil {
				t.Skip(err)
			}
			before := listTree(t, dir)
			s, err := Open(path)
			if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), path+" is "+tc.kind) {
				t.Fatalf("Open = %v; want an ErrNotFile naming %s as %s", err, path, tc.kind)
			}
			rank, err := s.Add(entry("ann", 10, 0))
			var se *SaveError
			if rank != 1 || !errors.As(err, &se) || err.Error() != "high score not saved: the score file is unusable" {
				t.Errorf("Add = %d, %v; want rank 1 and a short SaveError", rank, err)
			}
			if after := listTree(t, dir); after != before {
				t.Errorf("files changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// listTree describes every file under dir, with its size, for comparison.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d\n", p, info.Mode(), info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestLinksRefused: a symbolic link planted as the replay directory or as
// the lock file is refused, not followed. Nothing is written to or removed
// from where it points (a keep.prpl there used to be deleted); the score
// is still saved when only its replay cannot be.
func TestLinksRefused(t *testing.T) {
	t.Run("replays", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "elsewhere")
		if err := os.Mkdir(target, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(target, "keep.prpl"), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "scores.json")
		if err := os.Symlink(target, path+".replays"); err != nil {
			t.Fatal(err)
		}
		before := listTree(t, target)
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		s.SetLogger(slog.New(slog.NewTextHandler(&log, nil)))
		for i, name := range []string{"ann", "bob"} {
			if rank, err := s.AddReplay(entry(name, 10+i, i), replayOf(name)); rank != 1 || err != nil {
				t.Fatalf("AddReplay(%s) = %d, %v; want rank 1 saved", name, rank, err)
			}
		}
		if r := s.Top(1)[0].Replay; r != "" {
			t.Errorf("the entry keeps replay %q", r)
		}
		if data, err := s.ReadReplay("keep.prpl"); err == nil {
			t.Errorf("ReadReplay read %q through the link", data)
		}
		if after := listTree(t, target); after != before {
			t.Errorf("the link's target changed:\n%s\nwas\n%s", after, before)
		}
		if want := path + ".replays is a symbolic link, not a directory"; !strings.Contains(log.String(), want) {
			t.Errorf("log %q, want %q", log.String(), want)
		}
	})
	t.Run("daily replays", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "elsewhere")
		if err := os.Mkdir(target, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "scores.json")
		if err := os.Symlink(target, path+".daily-replays"); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		g := dailyGames(t, "ann", 1, 1)[0]
		res, err := s.AddDaily("ann", g.proof, g.data)
		if err != nil || !res.Counted || res.Entry.Replay != "" || s.Daily(g.proof.Day, 1)[0].Replay != "" {
			t.Errorf("AddDaily = %+v, %v; want it counted, without its replay", res, err)
		}
		if after := listTree(t, target); after != target+" drwxr-xr-x 4096\n" {
			t.Errorf("the link's target holds:\n%s", after)
		}
	})
	t.Run("lock", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "planted")
		path := filepath.Join(dir, "scores.json")
		if err := os.Symlink(target, path+".lock"); err != nil {
			t.Fatal(err)
		}
		s, _ := Open(path)
		rank, err := s.Add(entry("ann", 10, 0))
		if rank != 1 || !errors.Is(err, ErrNotFile) || err.Error() != "high score not saved: the score file is unusable" {
			t.Errorf("Add = %d, %v; want rank 1 and the file refused", rank, err)
		}
		if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the link's target was made: %v", err)
		}
	})
}

// TestProcessesShareFile runs several processes (this test binary again,
// as TestHelperProcess) that add entries to one file at the same time,
// and checks that the file keeps every one of them, and the replays of the
// best.
func TestProcessesShareFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.json")
	const procs, games = 3, 20
	var cmds []*exec.Cmd
	var gates []io.Closer
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "SCORES_HELPER=1", "SCORES_PATH="+path,
			fmt.Sprint("SCORES_NAME=p", p), fmt.Sprint("SCORES_GAMES=", games))
		gate, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("helper p%d:\n%s", p, out.String())
			}
		})
		cmds, gates = append(cmds, cmd), append(gates, gate)
	}
	for _, g := range gates {
		g.Close() // all start adding at once
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper p%d: %v", p, err)
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.Top(0)); got != procs*games {
		t.Errorf("the file holds %d entries, want all %d:\n%s", got, procs*games, names(s.Top(0)))
	}
	for p := range procs {
		for g := range games {
			if name := fmt.Sprintf("p%d-%d", p, g); len(s.TopFor(name, 0)) != 1 {
				t.Errorf("entry %s lost", name)
			}
		}
	}
	checkReplays(t, s)
}

// TestHelperProcess is one process of TestProcessesShareFile: it opens the
// store, waits for its standard input to close, and adds its games with
// their replays.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("SCORES_HELPER") != "1" {
		t.Skip("run by TestProcessesShareFile")
	}
	s, err := Open(os.Getenv("SCORES_PATH"))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, os.Stdin)
	games, _ := strconv.Atoi(os.Getenv("SCORES_GAMES"))
	for g := range games {
		name := fmt.Sprintf("%s-%d", os.Getenv("SCORES_NAME"), g)
		if _, err := s.AddReplay(entry(name, 100+g, g), replayOf(name)); err != nil {
			t.Fatal(err)
		}
	}
}
