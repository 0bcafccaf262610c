//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package scores

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lock takes the exclusive lock that serialises the saves of every
// process sharing the score file at path: flock(2) on path.lock, a file
// that is made once and never renamed or removed, so that every process
// locks the same one. With wait false it fails at once if the lock is
// taken. The lock goes with the process, so a crash cannot leave it held.
// A symbolic link planted as path.lock is refused, not followed: opening
// it would create a file wherever it points.
func lock(path string, wait bool) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s.lock is a symbolic link, %w", path, ErrNotFile)
	}
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
