package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"poolroids/levels/regfile"
)

// A regular file, or a link to one, is read whole up to its bound; a
// larger one and a directory are refused.
func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "key")
	if err := os.WriteFile(file, []byte("12345678"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, path := range []string{file, link} {
		if data, err := regfile.Read(path, 8); err != nil || string(data) != "12345678" {
			t.Errorf("Read(%s, 8) = %q, %v; want the file", path, data, err)
		}
	}
	if _, err := regfile.Read(file, 7); !errors.Is(err, regfile.ErrTooLarge) || !strings.Contains(err.Error(), file+" is larger than 7 bytes") {
		t.Errorf("Read(%s, 7): %v, want too large", file, err)
	}
	if _, err := regfile.Read(dir, 8); !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), dir+" is a directory") {
		t.Errorf("Read(%s): %v, want a directory refused", dir, err)
	}
	if _, err := regfile.Read(filepath.Join(dir, "none"), 8); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read of a missing file: %v, want ErrNotExist", err)
	}
}
