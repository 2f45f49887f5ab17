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
// says. It is a copy of 96 bytes from memory shared with SQLite's own mapping of the file,
// where a statement costs a pool connection and a query: the change counters every request
// reads (Unchanged, and app/keyauth's rounds) skip their statement while nothing commits.
//
// ok is false when there is no consistent header to read: no -shm file (not in WAL mode, or not
// on a Unix system), a header not yet initialised, or the two copies differing because a
// commit is writing them at this very moment. The caller then reads its counters as usual.
func (d *DB) Stamp() (Stamp, bool) {
	var both walHeaders
	if !d.shm.read(d.path, &both) {
		return Stamp{}, false
	}
	first, second := both[:walHeaderSize], both[walHeaderSize:]
	const isInit = 12 // the header's isInit byte
	if first[isInit] != 1 || !bytes.Equal(first, second) {
		return Stamp{}, false
	}
	return Stamp(first), true
}

// walHeaders is the start of the -shm file: the header's two copies.
type walHeaders [2 * walHeaderSize]byte

// shmFile is the -shm file's headers, mapped for reading on first use and never unmapped, so a
// reading is a copy from memory rather than a system call.
//
// The descriptor stays open for the life of the process too: SQLite locks the -shm file with
// POSIX advisory locks, which belong to the process, and closing any descriptor of the file
// drops every lock the process's connections hold on it (SQLite's "How To Corrupt An SQLite
// Database File", 2.2). So it is a raw one, with no finalizer to close it behind our back: one
// per database opened. SQLite empties the -shm file only when a connection opens the database
// with no other connection open, and this DB keeps its writer connection open for as long as
// it is open, so the file mapped here is the one every connection writes. Should the file
// shrink under the mapping all the same, the read faults, and the stamp is off from then on.
type shmFile struct {
	mu      sync.Mutex                 // held while opening and mapping
	fd      int                        // the descriptor + 1; 0 until opened
	headers atomic.Pointer[walHeaders] // the mapping; nil until made
	off     atomic.Bool                // a read faulted: no stamps any more
}

// read copies the -shm file's headers of the database at dbPath into p.
func (s *shmFile) read(dbPath string, p *walHeaders) bool {
	h := s.headers.Load()
	if h == nil {
		if h = s.mapHeaders(dbPath); h == nil {
			return false
		}
	}
	if s.off.Load() {
		return false
	}
	if !copyHeaders(p, h) {
		s.off.Store(true)
		return false
	}
	return true
}

// mapHeaders maps the headers once the file holds them (it is absent until the first WAL
// connection opens, and empty until that connection initialises it).
func (s *shmFile) mapHeaders(dbPath string) *walHeaders {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.headers.Load(); h != nil {
		return h
	}
	if s.fd == 0 {
		fd, ok := openShm(dbPath + "-shm")
		if !ok {
			return nil
		}
		s.fd = fd + 1
	}
	h := mapShm(s.fd - 1)
	if h != nil {
		s.headers.Store(h)
	}
	return h
}
