//go:build !linux

package app

import "os"

// isTerminal reports whether f is a character device, which a terminal is (and so is
// /dev/null, where nobody reads the log anyway).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
