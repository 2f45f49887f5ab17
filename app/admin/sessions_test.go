package admin

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/db/dbtest"
)

func TestSessionStore(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), "test.db"))
	s := sessionStore{db: d}

	if _, found, err := s.FindCtx(ctx, "nope"); found || err != nil {
		t.Errorf("unknown token: got found=%v, err=%v; want not found, no error", found, err)
	}
	if err := s.CommitCtx(ctx, "live", []byte("one"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitCtx(ctx, "live", []byte("two"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b, found, err := s.FindCtx(ctx, "live"); !found || err != nil || string(b) != "two" {
		t.Errorf("after two commits: got %q, %v, %v; want the second data", b, found, err)
	}
	if err := s.CommitCtx(ctx, "expired", []byte("old"), time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := s.FindCtx(ctx, "expired"); found {
		t.Error("an expired session was found")
	}
	if n, err := s.pruneExpired(ctx); n != 1 || err != nil {
		t.Errorf("prune: got %d, %v; want 1 row", n, err)
	}
	if err := s.DeleteCtx(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := s.FindCtx(ctx, "live"); found {
		t.Error("a deleted session was found")
	}
	if err := s.DeleteCtx(ctx, "live"); err != nil {
		t.Errorf("deleting a missing token: got %v, want no error", err)
	}
}
