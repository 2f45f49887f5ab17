package db

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"syscall"
	"time"

	"modernc.org/sqlite"
)

// sqliteFull is SQLite's primary result code for "database or disk is full" (SQLITE_FULL).
const sqliteFull = 13

// IsFull reports whether err means the disk had no room for a write: SQLite's SQLITE_FULL, or
// ENOSPC from the file system. SQLite keeps the database intact when that happens — the write
// is rolled back and everything committed before stays — so it is a condition to report and
// wait out, not a bug.
func IsFull(err error) bool {
	if err == nil {
		return false
	}
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqliteFull {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// Storage is what the process knows about the disk under the database: full since when (zero
// when writes work), and how many writes it refused. It becomes full when a write fails for
// lack of space (InTx, or NoteWriteError from code that writes outside InTx), and clears only
// when StorageWatch's probe — a write known to write a page — commits again. Any other commit
// merely asks the watcher to probe now: a transaction that changed nothing commits even on a
// full disk, and must not make a full disk look fixed. Safe for concurrent use.
type Storage struct {
	fullSince  atomic.Int64 // Unix milliseconds; 0: not full
	spellStart atomic.Int64 // Unix milliseconds the latest spell began; kept after it ends
	refused    atomic.Uint64
	spells     atomic.Uint64 // how many times it became full
	changed    chan struct{} // a state change, for StorageWatch; made by Open
}

// Full reports whether the last write failed for lack of space, and since when.
func (s *Storage) Full() (bool, time.Time) {
	ms := s.fullSince.Load()
	if ms == 0 {
		return false, time.Time{}
	}
	return true, time.UnixMilli(ms).UTC()
}

// Refused is how many writes failed for lack of space since the process started.
func (s *Storage) Refused() uint64 { return s.refused.Load() }

// observe records the outcome of a write: a full-disk error sets the full state (keeping the
// first time it was seen); a success while full wakes the watcher, whose probe decides.
func (s *Storage) observe(err error) {
	switch {
	case err == nil:
		if s.fullSince.Load() != 0 {
			s.notify()
		}
	case IsFull(err):
		s.refused.Add(1)
		now := max(time.Now().UnixMilli(), 1)
		if s.fullSince.CompareAndSwap(0, now) {
			s.spellStart.Store(now) // before spells moves: whoever sees the count sees its start
			s.spells.Add(1)
			s.notify()
		}
	}
}

// probed records that the watcher's probe committed: writes work again.
func (s *Storage) probed() {
	if s.fullSince.Swap(0) != 0 {
		s.notify()
	}
}

func (s *Storage) notify() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Storage returns the database's storage state.
func (d *DB) Storage() *Storage { return &d.storage }

// NoteWriteError records err from a write made outside InTx (a session saved by scs, a
// last-used time) and reports whether it means a full disk.
func (d *DB) NoteWriteError(err error) bool {
	d.storage.observe(err)
	return IsFull(err)
}

// StorageWatch notices that writes work again after a full disk, without waiting for a request
// to try: while Storage says full, it makes one tiny write every Every (the storage_probe row),
// and at once when some other transaction commits. Only this probe clears the full state. Each
// spell of a full disk is logged twice, once when it begins (with the time it began) and once
// when it ends (with how long it lasted) — a spell that began and ended between two looks too.
// It is a background worker: Run until ctx ends.
type StorageWatch struct {
	DB    *DB
	Every time.Duration // default 5 s
	Log   *slog.Logger
	Now   func() time.Time
}

// Run probes until ctx is done.
func (p *StorageWatch) Run(ctx context.Context) error {
	every := p.Every
	if every <= 0 {
		every = 5 * time.Second
	}
	log, now := p.Log, p.Now
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	st := p.DB.Storage()
	t := time.NewTicker(every)
	defer t.Stop()
	var spells uint64       // the spells already reported
	var openSince time.Time // the start of the spell reported as begun and not yet as ended
	ended := func() {
		log.InfoContext(ctx, "disk space is back: writes are accepted again",
			slog.Time("since", openSince), slog.Duration("lasted", time.Since(openSince)))
		openSince = time.Time{}
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-st.changed:
		case <-t.C:
		}
		if full, _ := st.Full(); full {
			// An UPDATE writes its page whether or not the value changed, so a commit means
			// the disk took a write.
			err := p.DB.InTx(ctx, func(q *Queries) error { return q.TouchStorageProbe(ctx, Millis(now())) })
			switch {
			case err == nil:
				st.probed()
			case !IsFull(err) && ctx.Err() == nil:
				log.WarnContext(ctx, "storage probe", slog.Any("err", err))
			}
		}
		// Report every spell's start and end once, even of one that began and ended between
		// two looks: the start is the spell's own (Full's is zero once it is over).
		full, _ := st.Full()
		if n := st.spells.Load(); n != spells {
			spells = n
			if !openSince.IsZero() { // the reported spell ended, and another began
				ended()
			}
			openSince = time.UnixMilli(st.spellStart.Load()).UTC()
			log.ErrorContext(ctx, "the disk is full: writes are refused (507 in the API) until space is freed; reads go on",
				slog.Time("since", openSince), slog.String("database", p.DB.path))
		}
		if !full && !openSince.IsZero() {
			ended()
		}
	}
}
