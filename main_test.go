package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlayBadFlags checks that every bad flag or value exits 2 with a
// message naming it, before the terminal is touched.
func TestPlayBadFlags(t *testing.T) {
	broken := t.TempDir()
	if err := os.CopyFS(broken, os.DirFS("levels/data")); err != nil {
		t.Fatal(err)
	}
	level := filepath.Join(broken, "02-drift.toml")
	data, err := os.ReadFile(level)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(level, append(data, "\nsped_max = 3\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--no-such-flag"}, "flag provided but not defined"},
		{"argument", []string{"extra"}, `unexpected argument "extra"`},
		{"fps", []string{"--fps", "0"}, "-fps 0: want 1..240"},
		{"strategy", []string{"--strategy", "nope"}, `unknown strategy "nope": allowed are alloc`},
		{"bullets", []string{"--bullets", "-1"}, "-bullets -1: want 0 (the level set's) or 1..4096"},
		{"bullets beyond a level set's", []string{"--bullets", "4097"}, "-bullets 4097: want 0 (the level set's) or 1..4096"},
		{"debris", []string{"--debris", "65537"}, "-debris 65537: want 0 (the level set's) or 1..65536"},
		{"missing levels", []string{"--levels", filepath.Join(broken, "none")}, "-levels: "},
		{"broken level", []string{"--levels", broken}, `02-drift.toml:`},
		{"scores not a file", []string{"--scores", broken}, "-scores: high scores: "},
		{"name", []string{"--name", "\x1b[31m\u200b"}, `-name "\x1b[31m\u200b": nothing in it shows on a screen`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := play(tt.args, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tt.want) || !strings.Contains(stderr.String(), "usage: poolroids") {
				t.Errorf("exit %d, stderr:\n%s\nwant 2, %q and a usage line", code, stderr.String(), tt.want)
			}
		})
	}
	var stderr bytes.Buffer
	if code := play([]string{"--levels", broken}, &stderr); !strings.Contains(stderr.String(), `field "sped_max": unknown field`) {
		t.Errorf("broken level: exit %d, stderr %q; want the file, line and field", code, stderr.String())
	}
}

// TestPlayerName: --name is cleaned by the one name rule, to the length
// an SSH player's name has; without it the login name is.
func TestPlayerName(t *testing.T) {
	if got := playerName(" Zoë\x1b[31m the Great Ångström "); got != "Zoë the Great Ån" {
		t.Errorf("playerName = %q, want the name cleaned and cut to 16", got)
	}
	if got := playerName(""); got == "" || got == "anonymous" {
		t.Errorf("playerName without --name = %q, want the login name", got)
	}
}

// TestSharedFlags checks that the flags commands share are one definition:
// each command refuses the same bad -strategy and -fps with the same
// message, exit 2 and its usage.
func TestSharedFlags(t *testing.T) {
	commands := []struct {
		name string
		fps  bool // has -fps
		run  func(args []string, stderr *bytes.Buffer) int
	}{
		{"play", true, func(args []string, stderr *bytes.Buffer) int { return play(args, stderr) }},
		{"serve", true, func(args []string, stderr *bytes.Buffer) int {
			return serveMain(context.Background(), context.Background(), args, stderr)
		}},
		{"record", false, func(args []string, stderr *bytes.Buffer) int {
			return recordMain(context.Background(), append(args, "f"), io.Discard, stderr)
		}},
		{"replay", true, func(args []string, stderr *bytes.Buffer) int {
			return replayMain(context.Background(), append(args, "f"), io.Discard, stderr)
		}},
	}
	cases := []struct {
		args []string
		fps  bool
		want string
	}{
		{[]string{"-strategy", "heap"}, false, `invalid value "heap" for flag -strategy: pool: unknown strategy "heap"`},
		{[]string{"-fps", "0"}, true, "-fps 0: want 1..240"},
		{[]string{"-fps", "241"}, true, "-fps 241: want 1..240"},
	}
	for _, c := range commands {
		for _, tt := range cases {
			if tt.fps && !c.fps {
				continue
			}
			var stderr bytes.Buffer
			if code := c.run(tt.args, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) || !strings.Contains(stderr.String(), "usage: poolroids") {
				t.Errorf("%s %q: exit %d, stderr:\n%s\nwant 2, %q and a usage line", c.name, tt.args, code, stderr.String(), tt.want)
			}
		}
	}
}

// TestEnvFlags: every command takes its flags from POOLROIDS_ variables
// too, the command line winning; a bad value exits 2 naming the variable;
// -h says how.
func TestEnvFlags(t *testing.T) {
	t.Setenv("POOLROIDS_FPS", "0")
	t.Setenv("POOLROIDS_BULLETS", "-1")
	var stderr bytes.Buffer
	// -fps from the command line wins over POOLROIDS_FPS=0; -bullets
	// comes from the environment, and is refused.
	if code := play([]string{"--fps", "30"}, &stderr); code != 2 || !strings.Contains(stderr.String(), "-bullets -1") {
		t.Errorf("play with POOLROIDS_BULLETS=-1: exit %d, stderr:\n%s", code, stderr.String())
	}

	t.Setenv("POOLROIDS_MAX_SESSIONS", "many")
	stderr.Reset()
	code := serveMain(context.Background(), context.Background(), nil, &stderr)
	if want := `POOLROIDS_MAX_SESSIONS: invalid value "many" for -max-sessions`; code != 2 || !strings.Contains(stderr.String(), want) ||
		!strings.Contains(stderr.String(), "usage: poolroids serve") {
		t.Errorf("serve with POOLROIDS_MAX_SESSIONS=many: exit %d, stderr:\n%s\nwant 2, %q and a usage line", code, stderr.String(), want)
	}

	t.Setenv("POOLROIDS_STEPS", "0")
	stderr.Reset()
	if code := recordMain(context.Background(), []string{"f"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-steps 0") {
		t.Errorf("record with POOLROIDS_STEPS=0: exit %d, stderr:\n%s", code, stderr.String())
	}
	t.Setenv("POOLROIDS_CHECK", "maybe")
	stderr.Reset()
	if code := replayMain(context.Background(), []string{"f"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "POOLROIDS_CHECK") {
		t.Errorf("replay with POOLROIDS_CHECK=maybe: exit %d, stderr:\n%s", code, stderr.String())
	}

	stderr.Reset()
	if code := serveMain(context.Background(), context.Background(), []string{"-h"}, &stderr); code != 0 || !strings.Contains(stderr.String(), "-max-sessions\nas POOLROIDS_MAX_SESSIONS") {
		t.Errorf("serve -h: exit %d, stderr ends:\n%s", code, stderr.String()[max(0, stderr.Len()-400):])
	}
}

// TestLoopback: which -pprof addresses are the host's own.
func TestLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:6060": true, "[::1]:6060": true, "localhost:6060": true, "127.0.0.2:1": true,
		":6060": false, "0.0.0.0:6060": false, "10.0.0.5:6060": false, "example.com:6060": false, "nonsense": false,
	} {
		if got := loopback(addr); got != want {
			t.Errorf("loopback(%q) = %v, want %v", addr, got, want)
		}
	}
}
