package db

import (
	"bytes"
	"sync"
	"sync/atomic"
)

// walHeaderSize is one copy of the WAL-index header; the -shm file starts with two copies.
const walHeaderSize = 48

// Stamp is a reading of the database's WAL-index header (see DB.Stamp).
type Stamp [walHeaderSize]byte

// Stamp returns a reading that changes with every commit to the database, from any
// connection of any process: the header of SQLite's WAL index (the -shm file; the format is
// documented at https://sqlite.org/walformat.html, "The WAL-Index Header"), which every commit
// rewrites with its change counter raised. Two equal readings mean nothing committed between
// them, so a value read from the database after the first reading is still what the database
// says. It is one read of 96 bytes from the file cache, where a statement costs a pool
// connection and a query: the change counters every request reads (Unchanged, and app/keyauth's
// rounds) skip their statement while nothing commits.
//
// ok is false when there is no consistent header to read: no -shm file (not in WAL mode, or not
// on a Unix system), a header not yet initialised, or the two copies differing because a
// commit is writing them at this very moment. The caller then reads its counters as usual.
func (d *DB) Stamp() (Stamp, bool) {
	buf := headerBuffers.Get().(*[2 * walHeaderSize]byte)
	defer headerBuffers.Put(buf)
	both := buf[:]
	if !d.shm.readAt(d.path, both) {
		return Stamp{}, false
	}
	first, second := both[:walHeaderSize], both[walHeaderSize:]
	const isInit = 12 // the header's isInit byte
	if first[isInit] != 1 || !bytes.Equal(first, second) {
		return Stamp{}, false
	}
	return Stamp(first), true
}

// headerBuffers hold the two header copies while they are read: a buffer handed to the read
// system call would otherwise be a new allocation on every request.
var headerBuffers = sync.Pool{New: func() any { return new([2 * walHeaderSize]byte) }}

// shmFile is the -shm file, opened for reading on first use and never closed. SQLite locks
// the -shm file with POSIX advisory locks, which belong to the process: closing any descriptor
// of the file drops every lock the process's connections hold on it (SQLite's "How To Corrupt
// An SQLite Database File", 2.2). So the descriptor is a raw one, with no finalizer to close it
// behind our back, and it stays open for the life of the process: one per database opened.
// SQLite deletes the -shm file only when no connection has the database open, and this DB
// keeps its writer connection open for as long as it is open, so the file read here is the one
// every connection writes.
type shmFile struct {
	mu sync.Mutex   // held while opening
	fd atomic.Int64 // the descriptor + 1; 0 until opened
}

// readAt reads p from the start of the -shm file of the database at dbPath.
func (s *shmFile) readAt(dbPath string, p []byte) bool {
	fd := s.fd.Load()
	if fd == 0 {
		s.mu.Lock()
		if fd = s.fd.Load(); fd == 0 {
			if f, ok := openShm(dbPath + "-shm"); ok { // absent until the first WAL connection
				fd = int64(f) + 1
				s.fd.Store(fd)
			}
		}
		s.mu.Unlock()
	}
	return fd != 0 && preadFull(int(fd-1), p)
}
