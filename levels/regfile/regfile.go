// Package regfile reads the files a user names (a replay, a host key, a
// key list) and refuses, before opening it, anything that is not a regular
// file.
//
// Opening a named pipe waits for a writer, for ever if none comes, and the
// wait is inside the open system call, so SIGINT and SIGTERM do not end
// it; reading a device such as /dev/zero never ends. So [Read] looks at
// the path's type first (through symbolic links: a user may well name a
// link to a file), then reads at most what a file of its kind may hold.
// [Kind] names a type for the messages of callers that check types
// themselves, such as the level loader walking a directory.
//
// [Write] writes such a file (a recorded replay, the high-score table)
// atomically, so that a crash or an interrupt never leaves half of one.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error [Read] returns for a path that
// names a directory, a named pipe, a socket, a device or anything else
// that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error [Read] returns for a file larger
// than it may read.
var ErrTooLarge = errors.New("file too large")

// Kind names the type of m for a message, with its article: "a regular
// file", "a directory", "a named pipe", "a socket", "a device", "a
// symbolic link", or "an irregular file" for the types left.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// Read returns the contents of the regular file at path, or a link to one.
// Anything else is refused before it is opened, with an error wrapping
// [ErrNotRegular] ("x is a named pipe, not a regular file"); a file over
// max bytes is refused after reading max+1 of them, with an error wrapping
// [ErrTooLarge]: it never holds more than max+1 bytes of it.
func Read(path string, max int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, %w", path, Kind(info.Mode()), ErrNotRegular)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than %s, %w", path, size(max), ErrTooLarge)
	}
	return data, nil
}

// size formats n bytes in the largest binary unit that divides it.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
