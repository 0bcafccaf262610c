package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"poolroids/game/daily"
)

// postRun runs `poolroids post` with args in this process.
func postRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runMain(t, postMain, args...)
}

// Bad flags and arguments exit 2 with the usage, a file too large for a
// daily replay 1 without a connection, as the server would refuse it.
func TestPostBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "game.prpl")
	if err := os.WriteFile(file, []byte("PRPL"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "want one replay FILE, found 0 arguments"},
		{[]string{file}, "-to: which server?"},
		{[]string{file, file, "--to", "h"}, "want one replay FILE, found 2 arguments"},
		{[]string{file, "--to", "ann@"}, `-to "ann@": want [USER@]HOST[:PORT]`},
		{[]string{file, "--to", "h", "--nope"}, "flag provided but not defined: -nope"},
	} {
		if code, _, errs := postRun(t, tc.args...); code != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "usage: poolroids post") {
			t.Errorf("post %q: exit %d, %q; want 2, %q and the usage", tc.args, code, errs, tc.want)
		}
	}
	if code, _, errs := postRun(t, filepath.Join(dir, "none.prpl"), "--to", "h"); code != 2 || !strings.Contains(errs, "no such file") {
		t.Errorf("a file that is not there: exit %d, %q", code, errs)
	}
	big := filepath.Join(dir, "big.prpl")
	if err := os.WriteFile(big, make([]byte, daily.MaxBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := postRun(t, big, "--to", "127.0.0.1:1"); code != 1 || !strings.Contains(errs, "refused, too-large: over 4194304 bytes") {
		t.Errorf("a file too large: exit %d, %q", code, errs)
	}
}

// -to is [USER@]HOST[:PORT], port 22 by default, as ssh's.
func TestServerAddr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ to, user, addr string }{
		{"h", "", "h:22"},
		{"h:2222", "", "h:2222"},
		{"ann@h:2222", "ann", "h:2222"},
		{"a@b@h", "a@b", "h:22"},
		{"[::1]:2222", "", "[::1]:2222"},
		{"[::1]", "", "[::1]:22"},
	} {
		user, addr, err := serverAddr(tc.to)
		if err != nil || user != tc.user || addr != tc.addr {
			t.Errorf("serverAddr(%q) = %q, %q, %v; want %q, %q", tc.to, user, addr, err, tc.user, tc.addr)
		}
	}
}
