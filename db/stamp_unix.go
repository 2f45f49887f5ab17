//go:build unix

package db

import "syscall"

func openShm(path string) (int, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	return fd, err == nil
}

func preadFull(fd int, p []byte) bool {
	n, err := syscall.Pread(fd, p, 0)
	return err == nil && n == len(p)
}
