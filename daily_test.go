package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDailyBadFlags: every bad flag or value of poolroids daily exits 2
// with a message naming it and a usage line, before the terminal is
// touched.
func TestDailyBadFlags(t *testing.T) {
	notFile := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--no-such-flag"}, "flag provided but not defined"},
		{"capacity", []string{"--bullets", "8"}, "flag provided but not defined: -bullets"}, // the day's game has the set's
		{"argument", []string{"extra"}, `unexpected argument "extra"`},
		{"fps", []string{"--fps", "0"}, "-fps 0: want 1..240"},
		{"strategy", []string{"--strategy", "nope"}, `unknown strategy "nope"`},
		{"missing levels", []string{"--levels", filepath.Join(notFile, "none")}, "-levels: "},
		{"scores not a file", []string{"--scores", notFile}, "-scores: high scores: "},
		{"name", []string{"--name", "\x1b[31m\u200b"}, "nothing in it shows on a screen"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := playDaily(tt.args, &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tt.want) || !strings.Contains(stderr.String(), "usage: poolroids daily") {
				t.Errorf("exit %d, stderr:\n%s\nwant 2, %q and a usage line", code, stderr.String(), tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q, want nothing", stdout.String())
			}
		})
	}
	if entries, _ := os.ReadDir(notFile); len(entries) != 0 {
		t.Errorf("bad flags left files: %v", entries)
	}
}

// TestPrintDailyFiles: after the game, poolroids daily says where each
// replay is and how to post the first.
func TestPrintDailyFiles(t *testing.T) {
	var b bytes.Buffer
	printDailyFiles(&b, 20000, nil)
	if b.Len() != 0 {
		t.Errorf("no game: %q, want nothing", b.String())
	}
	printDailyFiles(&b, 20000, []string{"/d/a.prpl", "/d/b.prpl"})
	want := "your daily games of 2024-10-04, in the order played:\n  /d/a.prpl\n  /d/b.prpl\n" +
		"post it to a server, where the first you post today counts:\n  poolroids post /d/a.prpl --to HOST:PORT\n"
	if b.String() != want {
		t.Errorf("two games:\n%s\nwant\n%s", b.String(), want)
	}
}
