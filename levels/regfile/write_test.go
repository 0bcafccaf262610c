package regfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"poolroids/levels/regfile"
)

// Write replaces a file whole, or leaves it as it was when the writing
// fails, and never leaves its temporary file behind.
func TestWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "scores.json")
	put := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	for _, s := range []string{"first", "second"} {
		if err := regfile.Write(path, put(s)); err != nil {
			t.Fatalf("Write(%q): %v", s, err)
		}
		if got, _ := os.ReadFile(path); string(got) != s {
			t.Errorf("after Write(%q) the file holds %q", s, got)
		}
	}
	broken := errors.New("disk full")
	err := regfile.Write(path, func(w io.Writer) error {
		_, _ = io.WriteString(w, "half")
		return broken
	})
	if !errors.Is(err, broken) {
		t.Errorf("a failed write returned %v; want its error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "second" {
		t.Errorf("after a failed write the file holds %q; want it unchanged", got)
	}
	if err := regfile.Write(dir, put("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Write onto a directory: %v; want it refused", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), regfile.TempPrefix(path)) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if len(ents) != 1 {
		t.Errorf("the directory holds %d entries; want the file alone", len(ents))
	}
}
