package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"poolroids/game/replay"
	"poolroids/pool"
)

// replayRun runs `poolroids replay` with args in this process and returns
// its exit status, stdout and stderr.
func replayRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runMain(t, replayMain, args...)
}

// A recorded game checks with the recorded strategy and with every one.
func TestReplayCheck(t *testing.T) {
	t.Parallel()
	path := recordFixture(t, "5", "1500")
	code, out, errs := replayRun(t, "-check", path)
	if code != 0 || !strings.Contains(out, "ok: 1500 steps, 6 checksums match with the recorded strategies") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = replayRun(t, "-check", "-strategy", "all", path)
	for _, s := range pool.Strategies() {
		if !strings.Contains(out, "match with "+string(s)+";") {
			t.Errorf("no line for %s in stdout %q", s, out)
		}
	}
	if code != 0 || errs != "" {
		t.Errorf("-strategy all: exit %d, stderr %q", code, errs)
	}
}

// A file with one input flipped fails with exit 1 at the first checksum
// after the flipped step, naming it.
func TestReplayCheckFlipped(t *testing.T) {
	t.Parallel()
	path := recordFixture(t, "8", "1500")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var flip replay.Event
	for flip.Step < 600 || flip.Kind != replay.Input || flip.Steps == 0 || flip.In.Hyperspace {
		if flip, err = r.Next(); err != nil {
			t.Fatalf("no input to flip after step 600: %v", err)
		}
	}
	data[flip.Offset] ^= 16 // hyperspace: it always moves a living ship
	bad := filepath.Join(t.TempDir(), "flipped.prpl")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	due := (flip.Step/replay.DefaultEvery + 1) * replay.DefaultEvery
	code, out, errs := replayRun(t, "-check", bad)
	if want := fmt.Sprintf("FAIL: step %d: the replay differs from the recording", due); code != 1 || !strings.Contains(errs, want) || out != "" {
		t.Errorf("flipped input at step %d: exit %d, stdout %q, stderr %q; want 1 and %q", flip.Step+1, code, out, errs, want)
	}
}

// Files that are no replay, or cut short, are exit 2 with the byte at
// fault.
func TestReplayCheckUnreadable(t *testing.T) {
	t.Parallel()
	path := recordFixture(t, "2", "600")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "none"), "no such file or directory"},
		{"text", write("text", []byte("hello\n")), `byte 0: want the replay magic "PRPL", found "hell": not a poolroids replay`},
		{"cut short", write("short", data[:len(data)-5]), fmt.Sprintf("byte %d: unexpected end of file, want the final checksum (8 bytes)", len(data)-8)},
		// 11 bytes: the end op, 600 in two bytes, the final checksum.
		{"no end", write("noend", data[:len(data)-11]), "unexpected end of file, want an op (the file has no end record: the recording was cut short)"},
	} {
		code, out, errs := replayRun(t, "-check", c.path)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q", c.name, code, out, errs, c.want)
		}
	}
}

func TestReplayBadFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"-check"}, "want one replay FILE"},
		{"fps", []string{"-fps", "0", "f"}, "-fps 0: want 1..240"},
		{"all to watch", []string{"-strategy", "all", "f"}, "-strategy all: one replay per strategy is for --check"},
		{"strategy", []string{"-check", "-strategy", "heap", "f"}, `unknown strategy "heap"`},
		{"unknown flag", []string{"-frobnicate", "f"}, "not defined"},
	} {
		code, out, errs := replayRun(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "usage") || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q with a usage line", c.name, code, out, errs, c.want)
		}
	}
}

// A replay file that is not one is exit 2 naming the file and the byte,
// before the terminal is touched (this test has none).
func TestReplayWatchUnreadable(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.prpl")
	if err := os.WriteFile(bad, []byte("PRPL\x07"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := replayRun(t, bad)
	if want := bad + ": byte 4:"; code != 2 || !strings.Contains(errs, want) || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errs, want)
	}
}

// TestReplayInTmux watches a recorded game in a real terminal: the arena,
// the panel and the status line show, the game moves on, space pauses,
// and q leaves the terminal as it was.
func TestReplayInTmux(t *testing.T) {
	path := recordFixture(t, "4", "3600")
	s := newTmux(t)
	bin := buildBinary(t)
	s.send(fmt.Sprintf("LANG=C.UTF-8 %s replay %s; echo exit=$?", bin, path), "Enter")
	pane := s.waitFor("the arena, the panel and the status line", func(p string) bool {
		return strings.Contains(p, "wave 1") && strings.Contains(p, "pools") && strings.Contains(p, "PLAYING") &&
			strings.Contains(p, "/ 01:00") && strings.Contains(p, "strategy →")
	}, nil)
	s.waitFor("the replay to go on", func(p string) bool { return p != pane }, nil)
	s.send("Space")
	s.waitFor("the pause", func(p string) bool { return strings.Contains(p, "PAUSED") }, nil)
	s.send("q")
	if pane = s.exited(); strings.Contains(pane, "pools") {
		t.Errorf("the replay is still on screen:\n%s", pane)
	}
}
