package regfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// TempPrefix begins the names of the temporary files [Write] makes beside
// path, for a caller that removes those a crash left.
func TempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// Write replaces the file at path, atomically, with what write writes: a
// reader sees the old file or the whole new one, never a part. write
// writes into a temporary file in path's directory (so that the rename
// cannot cross file systems), which is synced, renamed over path, and the
// directory synced so that the rename itself is durable. When write or
// any step fails, path is left as it was and the temporary file removed.
// The directory must exist; a path that is a directory is refused.
func Write(path string, write func(io.Writer) error) (err error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() { // else the rename says "file exists"
		return fmt.Errorf("%s is a directory", path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, TempPrefix(path)+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := errors.Join(tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The new file is in place; some file systems cannot sync a directory,
	// and that costs only the durability of the rename across a power cut.
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
