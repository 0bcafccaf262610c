package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeScoresNotAFile checks that `serve --scores DIR` refuses to
// start, naming the directory, and leaves it as it was. It used to move the
// directory aside as a corrupt score file, host key and all, and start with
// a new host key.
func TestServeScoresNotAFile(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "ssh_host_ed25519_key")
	if err := os.WriteFile(keep, []byte("the old key"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "host_key") // made if the server starts
	// A server that did start would shut down at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	code := serveMain(ctx, []string{"--listen", "127.0.0.1:0", "--host-key", key, "--scores", dir}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), dir+" is a directory") {
		t.Errorf("exit %d, stderr:\n%s\nwant 1 and an error naming %s as a directory", code, stderr.String(), dir)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "the old key" {
		t.Errorf("the directory's key file now %q, %v; want it untouched", b, err)
	}
	if moved, _ := filepath.Glob(dir + ".bad-*"); len(moved) != 0 {
		t.Errorf("moved aside: %v", moved)
	}
}

// TestServeScoresDatabaseUnreachable: a server whose score database cannot
// be reached says so and exits 1 rather than play without it.
func TestServeScoresDatabaseUnreachable(t *testing.T) {
	dir := t.TempDir() // no server's socket in it
	var stderr bytes.Buffer
	code := serveMain(context.Background(), []string{"--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "host_key"),
		"--scores", "postgres://poolroids@/postgres?host=" + dir}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "cannot start") || !strings.Contains(stderr.String(), "high scores: postgres://") {
		t.Errorf("exit %d, stderr:\n%s\nwant 1 and the database named", code, stderr.String())
	}
}
