//go:build unix

package db

import (
	"io/fs"
	"syscall"
)

// FileOwner is the uid that owns the file fi describes.
func FileOwner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
