package db_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// On a real, small file system that fills up: the write that finds no room fails with a
// full-disk error and is not kept, everything committed before stays readable, Storage says
// full (a transaction that writes nothing does not change that), and once space returns the
// watcher's own write finds out — no request needed — and writes work again.
func TestFullDiskIsReportedAndRecovers(t *testing.T) {
	dir := dbtest.Tmpfs(t, "4m")
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(dir, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	insert := func(i int) error {
		return d.InTx(ctx, func(q *db.Queries) error {
			_, err := q.CreateOwner(ctx, db.CreateOwnerParams{
				Email: fmt.Sprintf("o%d-%s@example.com", i, strings.Repeat("x", 400)), PasswordHash: "h", CreatedAt: 1, UpdatedAt: 1,
			})
			return err
		})
	}
	if err := insert(0); err != nil {
		t.Fatal(err)
	}
	if full, _ := d.Storage().Full(); full {
		t.Fatal("full before the disk filled")
	}
	free := dbtest.Fill(t, dir)
	committed := 1
	var writeErr error
	for i := 1; i < 5000 && writeErr == nil; i++ {
		if writeErr = insert(i); writeErr == nil {
			committed++ // the WAL may still have room for a few
		}
	}
	if !db.IsFull(writeErr) {
		t.Fatalf("got %v after %d writes, want a full-disk error", writeErr, committed)
	}
	full, since := d.Storage().Full()
	if !full || since.IsZero() || d.Storage().Refused() == 0 {
		t.Fatalf("Storage: full %v since %v refused %d, want full", full, since, d.Storage().Refused())
	}
	// A transaction that changed nothing commits even now; it must not make the disk look fixed
	// (the probe, a write that writes a page, is what clears the state).
	if err := d.InTx(ctx, func(*db.Queries) error { return nil }); err != nil {
		t.Fatalf("an empty transaction on a full disk: %v", err)
	}
	if full, _ := d.Storage().Full(); !full {
		t.Fatal("an empty transaction cleared the full state")
	}
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM owners`).Scan(&n); err != nil || n != committed {
		t.Fatalf("reading on a full disk: %d owners, %v; want the %d committed", n, err, committed)
	}

	watchCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() {
		done <- (&db.StorageWatch{DB: d, Every: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler)}).Run(watchCtx)
	}()
	refused := d.Storage().Refused()
	waitUntil(t, "three probes refused on the full disk", func() bool { return d.Storage().Refused() >= refused+3 })
	if full, _ := d.Storage().Full(); !full {
		t.Fatal("the watcher cleared the state while the disk is still full")
	}
	free()
	waitUntil(t, "writes to work again", func() bool { full, _ := d.Storage().Full(); return !full })
	if err := insert(9999); err != nil {
		t.Fatalf("after space came back: %v", err)
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("watcher: %v", err)
	}
}

func TestIsFull(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("database or disk is full"), false}, // only real codes count
		{fmt.Errorf("write: %w", syscall.ENOSPC), true},
		{syscall.EIO, false},
	} {
		if got := db.IsFull(c.err); got != c.want {
			t.Errorf("IsFull(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A full-disk spell is logged once when it begins, with the time it began, and once when it
// ends — also a spell that began and ended between two looks of the watcher, as on a disk that
// fills and frees again and again. No line carries a zero time.
func TestFullDiskSpellsLoggedOnce(t *testing.T) {
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	var logs lockedLog
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- (&db.StorageWatch{DB: d, Every: time.Hour, Log: slog.New(slog.NewJSONHandler(&logs, nil))}).Run(ctx)
	}()
	const spells = 3
	for i := range spells {
		// A write refused for lack of space; the watcher's probe then finds room at once.
		if !d.NoteWriteError(fmt.Errorf("write: %w", syscall.ENOSPC)) {
			t.Fatal("ENOSPC is not a full disk")
		}
		waitUntil(t, fmt.Sprintf("spell %d to end", i+1), func() bool {
			return strings.Count(logs.String(), "disk space is back") == i+1
		})
	}
	stop()
	<-done
	var starts, ends []string
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var e struct {
			Msg, Since string
			Lasted     any
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if e.Since == "" || strings.HasPrefix(e.Since, "0001-01-01") {
			t.Errorf("a line without the spell's start: %s", line)
		}
		switch {
		case strings.HasPrefix(e.Msg, "the disk is full"):
			starts = append(starts, e.Since)
		case strings.HasPrefix(e.Msg, "disk space is back"):
			ends = append(ends, e.Since)
			if e.Lasted == nil {
				t.Errorf("the end of a spell without how long it lasted: %s", line)
			}
		}
	}
	if len(starts) != spells || len(ends) != spells {
		t.Fatalf("%d starts and %d ends logged for %d spells:\n%s", len(starts), len(ends), spells, logs.String())
	}
	for i := range starts {
		if starts[i] != ends[i] {
			t.Errorf("spell %d began %s but ended as the one of %s", i+1, starts[i], ends[i])
		}
	}
}

// lockedLog is a log buffer the watcher writes while the test reads.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
