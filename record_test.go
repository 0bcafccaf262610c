package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/levels/regfile"
)

// runMain runs the command main (recordMain, replayMain, …) with args
// in this process and returns its exit status, stdout and stderr.
func runMain(t *testing.T, main func(ctx context.Context, args []string, stdout, stderr io.Writer) int, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// recordRun runs `poolroids record` with args in this process.
func recordRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runMain(t, recordMain, args...)
}

// recordFixture records steps of the autopilot with seed into a file of a
// temporary directory and returns its path.
func recordFixture(t *testing.T, seed, steps string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.prpl")
	if code, out, errs := recordRun(t, "-seed", seed, "-steps", steps, path); code != 0 || !strings.Contains(out, steps+" steps") {
		t.Fatalf("record: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	return path
}

func TestRecord(t *testing.T) {
	t.Parallel()
	path := recordFixture(t, "3", "1000")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := replay.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Seed != 3 || f.Steps != 1000 || len(f.Names) != 1 || f.Names[0] != "autopilot" {
		t.Errorf("recorded seed %d, %d steps, players %q; want 3, 1000, [autopilot]", f.Seed, f.Steps, f.Names)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// --stress records the stress mode's game: the pressure level set.
func TestRecordStress(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "stress.prpl")
	if code, out, errs := recordRun(t, "-stress", "-steps", "600", "-strategy", "dense", path); code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	f := readReplay(t, path)
	if f.Levels.Name != "pressure" || f.Strategy != "dense" {
		t.Errorf("recorded level set %q with %s, want pressure with dense", f.Levels.Name, f.Strategy)
	}
}

// --ships records an arena of autopilots, one per slot.
func TestRecordArena(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "arena.prpl")
	if code, out, errs := recordRun(t, "-ships", "4", "-pvp", "-steps", "900", path); code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	f := readReplay(t, path)
	if f.Ships != 4 || f.Mode != game.PvP || len(f.Names) != 4 || f.Names[3] != "autopilot 3" {
		t.Errorf("recorded %d ships in %v, players %q; want 4 in PvP, autopilot 0..3", f.Ships, f.Mode, f.Names)
	}
	if code, out, errs := replayRun(t, "-check", "-strategy", "dense", path); code != 0 {
		t.Errorf("replay: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestRecordBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no file", nil, "want one FILE"},
		{"two files", []string{"a", "b"}, "want one FILE"},
		{"flag after the file", []string{"f", "-steps", "9"}, "-steps after f: give the flags first"},
		{"steps", []string{"-steps", "0", "f"}, "-steps 0"},
		{"ships", []string{"-ships", "17", "f"}, "-ships 17"},
		{"pvp alone", []string{"-pvp", "f"}, "-pvp: with -ships 2 or more"},
		{"strategy", []string{"-strategy", "heap", "f"}, `unknown strategy "heap"`},
		{"bullets", []string{"-bullets", "-1", "f"}, "-bullets -1"},
		{"levels", []string{"-levels", filepath.Join(dir, "none"), "f"}, "-levels"},
		{"unknown flag", []string{"-frobnicate", "f"}, "not defined"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := recordRun(t, c.args...)
			if code != 2 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "usage") || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q with a usage line on stderr", code, out, errs, c.want)
			}
		})
	}
	if code, _, errs := recordRun(t, "-h"); code != 0 || !strings.Contains(errs, "-stress") {
		t.Errorf("-h: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := recordRun(t, filepath.Join(dir, "no", "such", "dir", "f")); code != 1 || !strings.Contains(errs, "no such file") {
		t.Errorf("into a missing directory: exit %d, stderr %q; want 1", code, errs)
	}
	if code, _, errs := recordRun(t, dir); code != 1 || !strings.Contains(errs, dir+" is a directory") {
		t.Errorf("onto a directory: exit %d, stderr %q; want 1", code, errs)
	}
}

// readReplay reads and decodes the replay file at path.
func readReplay(t *testing.T, path string) *replay.File {
	t.Helper()
	data, err := regfile.Read(path, maxReplaySize)
	if err != nil {
		t.Fatal(err)
	}
	f, err := replay.Decode(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// --daily records the day's game to its end, or --steps, and says what
// it proves; replay --check --daily proves it as a server would, and
// refuses a cut one with the reason.
func TestRecordDaily(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	whole, left := filepath.Join(dir, "whole.prpl"), filepath.Join(dir, "left.prpl")
	code, out, errs := recordRun(t, "-daily", whole)
	today := daily.DayOf(time.Now())
	if code != 0 || !strings.Contains(out, whole+": proves the daily game of "+today.String()+", score ") || !strings.Contains(out, "game over; post it: poolroids post "+whole) {
		t.Fatalf("record -daily: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, errs := recordRun(t, "-daily", "-day", today.String(), "-steps", "600", "-strategy", "bitset", left); code != 0 || !strings.Contains(out, "left in play") {
		t.Fatalf("record -daily -steps 600: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A game of two days ago is recorded, and said to be no game a
	// server takes now.
	old := filepath.Join(dir, "old.prpl")
	if code, _, errs := recordRun(t, "-daily", "-day", (today - 2).String(), "-steps", "60", old); code != 0 || !strings.Contains(errs, "refused, other-day: the game of "+(today-2).String()) {
		t.Fatalf("record -daily of two days ago: exit %d, stderr %q", code, errs)
	}
	for _, f := range []struct {
		path string
		day  daily.Day
		over bool
	}{{whole, today, true}, {left, today, false}, {old, today - 2, false}} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		// At noon of its day, its game is open.
		p, err := daily.Verify(t.Context(), data, f.day.Start().Add(12*time.Hour), nil)
		if err != nil || p.Day != f.day || p.Over != f.over || p.Player != "autopilot" || (f.path == left && p.Steps != 600) {
			t.Errorf("%s proves %+v, %v", f.path, p, err)
		}
	}
	if code, out, _ := replayRun(t, "-check", "-daily", whole); code != 0 || !strings.HasPrefix(out, whole+": proven: the daily game of "+today.String()) {
		t.Errorf("replay -check -daily: exit %d, %q", code, out)
	}
	data, _ := os.ReadFile(whole)
	cut := filepath.Join(dir, "cut.prpl")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := replayRun(t, "-check", "-daily", cut); code != 1 || !strings.Contains(errs, "refused, truncated: ") {
		t.Errorf("replay -check -daily of half a file: exit %d, %q", code, errs)
	}
	for _, args := range [][]string{
		{"-daily", "-seed", "3"}, {"-daily", "-ships", "2"}, {"-daily", "-stress"}, {"-daily", "-bullets", "64"},
		{"-day", "2025-06-14"}, {"-daily", "-day", "14/06/2025"},
	} {
		if code, _, errs := recordRun(t, append(args, filepath.Join(dir, "x.prpl"))...); code != 2 || !strings.Contains(errs, "usage: poolroids record") {
			t.Errorf("record %q: exit %d, %q; want 2 and the usage", args, code, errs)
		}
	}
	if code, _, errs := replayRun(t, "-daily", whole); code != 2 || !strings.Contains(errs, "-daily and -levels: with -check") {
		t.Errorf("replay -daily without -check: exit %d, %q", code, errs)
	}
}
