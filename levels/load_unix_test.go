//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package levels

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadDirNotRegular puts a real named pipe, a socket and a link to a
// pipe among the shipped levels: each is refused with an error naming it,
// and the pipe is never opened. Opening it for reading would wait for a
// writer for good, as `serve` did at startup; a writer stands by, so that
// a loader that does open it goes on and fails the test instead of hanging.
func TestLoadDirNotRegular(t *testing.T) {
	cases := []struct {
		name string
		make func(dir, path string) error
		msg  string
	}{
		{"07-x.toml", func(_, p string) error { return syscall.Mkfifo(p, 0o644) }, "a named pipe, allowed only a regular file"},
		{SetFile, func(_, p string) error { os.Remove(p); return syscall.Mkfifo(p, 0o644) }, "a named pipe, allowed only a regular file"},
		{"07-x.toml", func(_, p string) error {
			_, err := net.Listen("unix", p)
			return err
		}, "a socket, allowed only a regular file"},
		{"07-x.toml", func(dir, p string) error {
			if err := syscall.Mkfifo(filepath.Join(dir, ".pipe"), 0o644); err != nil {
				return err
			}
			return os.Symlink(".pipe", p)
		}, "a named pipe, allowed only a regular file"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		if err := os.CopyFS(dir, Embedded()); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, c.name)
		if err := c.make(dir, path); err != nil {
			t.Skip(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
		}()
		s, err := LoadDir(dir)
		checkFieldError(t, s, err, path, 0, "", c.msg)
		// Let the writer go: open the pipe for reading without waiting.
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			r.Close()
		}
	}
}
