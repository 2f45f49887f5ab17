//go:build unix

package app

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f without waiting. flock locks belong to the open file,
// so a second open in the same process conflicts too, and the kernel releases the lock when the
// file is closed or the process dies.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errServeLocked
	}
	return err
}
