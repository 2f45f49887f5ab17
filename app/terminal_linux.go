package app

import (
	"os"
	"syscall"
	"unsafe"
)

// isTerminal reports whether f is a terminal: the ioctl that reads a terminal's settings
// works on it (a pipe, a socket, a file or /dev/null refuse it).
func isTerminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
