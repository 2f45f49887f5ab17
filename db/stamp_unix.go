//go:build unix

package db

import (
	"encoding/binary"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"unsafe"
)

func openShm(path string) (int, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	return fd, err == nil
}

// mapShm maps the headers of the -shm file open at fd, or returns nil while the file is
// shorter than them.
func mapShm(fd int) *walHeaders {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Size < int64(len(walHeaders{})) {
		return nil
	}
	mem, err := syscall.Mmap(fd, 0, len(walHeaders{}), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return (*walHeaders)(mem)
}

// copyHeaders copies h into p a 32-bit word at a time, in order, each an atomic load: SQLite
// writes the second copy before the first and reads the first before the second, so a commit
// caught halfway leaves the two copies differing, never equal and torn. It reports false when
// the mapping faults (the file shrank under it) instead of letting the process crash.
func copyHeaders(p, h *walHeaders) (ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	for i := 0; i < len(h); i += 4 {
		w := atomic.LoadUint32((*uint32)(unsafe.Pointer(&h[i])))
		binary.NativeEndian.PutUint32(p[i:], w)
	}
	return true
}
