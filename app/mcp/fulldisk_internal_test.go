package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// A write refused because the disk is full (a real one: a small tmpfs, filled) becomes a
// try_again answer that says nothing was saved — not an internal error — and the storage state
// records it.
func TestFullDiskIsTryAgain(t *testing.T) {
	dir := dbtest.Tmpfs(t, "4m")
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(dir, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dbtest.Fill(t, dir)
	var writeErr error
	for i := 0; i < 5000 && writeErr == nil; i++ {
		writeErr = d.InTx(ctx, func(q *db.Queries) error {
			_, err := q.CreateOwner(ctx, db.CreateOwnerParams{Email: fmt.Sprintf("o%d-%s@example.com", i, strings.Repeat("x", 400)), PasswordHash: "h", CreatedAt: 1, UpdatedAt: 1})
			return err
		})
	}
	if !db.IsFull(writeErr) {
		t.Fatalf("got %v, want a full-disk error", writeErr)
	}
	s := &Server{db: d, log: slog.New(slog.DiscardHandler)}
	te := s.toToolError(ctx, fmt.Errorf("book: %w", writeErr))
	if te.Kind != kindRetry || !strings.Contains(te.Message, "nothing was saved") {
		t.Fatalf("got %+v, want try_again saying nothing was saved", te)
	}
	if full, _ := d.Storage().Full(); !full {
		t.Fatal("storage not marked full")
	}
}
