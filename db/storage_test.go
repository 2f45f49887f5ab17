package db_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
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
