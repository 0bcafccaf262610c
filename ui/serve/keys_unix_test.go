//go:build unix

package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A host key or key list that is no regular file is refused before it is
// opened: a named pipe used to block the start for ever, deaf to SIGINT
// and SIGTERM, and /dev/zero to read until memory ran out. So is a key
// file too large to be one.
func TestKeyFilesNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, maxHostKey+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + " is a named pipe, not a regular file"},
		{"/dev/zero", "/dev/zero is a device, not a regular file"},
		{big, big + " is larger than 64 KiB"},
	} {
		if _, err := LoadOrCreateHostKey(tc.path); err == nil || !strings.Contains(err.Error(), "host key cannot be read: "+tc.want) {
			t.Errorf("LoadOrCreateHostKey(%s): %v, want %q", tc.path, err, tc.want)
		}
		if tc.path == big {
			continue // a large key list is fine
		}
		if _, err := LoadAuthorizedKeys(tc.path); err == nil || !strings.Contains(err.Error(), "authorized keys: "+tc.want) {
			t.Errorf("LoadAuthorizedKeys(%s): %v, want %q", tc.path, err, tc.want)
		}
	}
}

// A host key others may read is used with a warning that says how to fix
// it: it used to be accepted silently. sshd refuses one; a game server
// keeps its players' known_hosts working.
func TestHostKeyOpenWarned(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644} {
		p := writeKey(t, priv)
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		lb := &logBuf{}
		if _, err := New(Config{HostKeyPath: p, Play: testPlay, Logger: slog.New(slog.NewTextHandler(lb, nil))}); err != nil {
			t.Fatalf("mode %04o: %v", mode, err)
		}
		warned := strings.Contains(lb.String(), "host key open to others") && strings.Contains(lb.String(), fmt.Sprintf("mode=%04o", mode))
		if want := mode != 0o600; warned != want {
			t.Errorf("mode %04o: log %q, want a warning %v", mode, lb.String(), want)
		}
	}
}
