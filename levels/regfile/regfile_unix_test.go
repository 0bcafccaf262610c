//go:build unix

package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"poolroids/levels/regfile"
)

// A named pipe with no writer and an endless device are refused at once:
// opening the one would wait for ever, reading the other would never end.
// A hang here ends the test binary at its -timeout.
func TestReadNotRegular(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, kind string }{
		{fifo, "a named pipe"},
		{link, "a named pipe"},
		{"/dev/zero", "a device"},
	} {
		_, err := regfile.Read(tc.path, 1<<30)
		if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), tc.path+" is "+tc.kind+", not a regular file") {
			t.Errorf("Read(%s): %v, want it refused as %s", tc.path, err, tc.kind)
		}
	}
}
