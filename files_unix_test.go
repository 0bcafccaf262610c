//go:build unix

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe or a device given as a replay or a host key is refused at
// once: the pipe used to block the command for ever, deaf to SIGINT and
// SIGTERM, and --host-key /dev/zero read until memory ran out.
func TestFilesNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	scores := filepath.Join(dir, "scores.json")
	serve := func(args ...string) (int, string) {
		// A server that did start would shut down at once.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var errb bytes.Buffer
		code := serveMain(ctx, context.Background(), append([]string{"-listen", "127.0.0.1:0", "-scores", scores}, args...), &errb)
		return code, errb.String()
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		kind := "a named pipe"
		if path == "/dev/zero" {
			kind = "a device"
		}
		want := path + " is " + kind + ", not a regular file"
		for _, c := range []struct {
			name string
			run  func() (int, string)
			code int
		}{
			{"replay --check", func() (int, string) { c, _, e := replayRun(t, "-check", path); return c, e }, 2},
			{"replay", func() (int, string) { c, _, e := replayRun(t, path); return c, e }, 2},
			{"stress --replay", func() (int, string) { c, _, e := stressRun(t, "-replay", path); return c, e }, 2},
			{"serve --host-key", func() (int, string) { return serve("-host-key", path) }, 1},
		} {
			if code, errs := c.run(); code != c.code || !strings.Contains(errs, want) {
				t.Errorf("%s %s: exit %d, stderr %q; want %d and %q", c.name, path, code, errs, c.code, want)
			}
		}
	}
}
