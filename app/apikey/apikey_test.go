package apikey

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

func TestParseScopes(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr error // nil: no error; errAny: some other error
	}{
		{"clients:read", "clients:read", nil},
		{" clients:write , bookings:read,clients:write", "bookings:read,clients:write", nil},
		{"products:read", "products:read", nil},
		{"", "", ErrNoScopes},
		{",", "", ErrNoScopes},
		{" , , ", "", ErrNoScopes},
		{"*", "", errAny},
		{"clients:read,*", "", errAny},
		{"root", "", errAny},
	}
	for _, tc := range tests {
		got, err := ParseScopes(tc.in)
		switch {
		case tc.wantErr == nil && (err != nil || got != tc.want):
			t.Errorf("ParseScopes(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.wantErr == ErrNoScopes && !errors.Is(err, ErrNoScopes):
			t.Errorf("ParseScopes(%q) error %v; want ErrNoScopes", tc.in, err)
		case tc.wantErr == errAny && err == nil:
			t.Errorf("ParseScopes(%q) = %q; want an error", tc.in, got)
		}
	}
}

var errAny = errors.New("any error")

func TestAllows(t *testing.T) {
	tests := []struct {
		stored, scope string
		want          bool
	}{
		{FullAccess, "sales:read", true},
		{"clients:read,sales:read", "sales:read", true},
		{"clients:read", "sales:read", false},
		{"", "sales:read", false}, // an empty list is not full access
		{"clients:read", "clients", false},
	}
	for _, tc := range tests {
		if got := Allows(tc.stored, tc.scope); got != tc.want {
			t.Errorf("Allows(%q, %q) = %v, want %v", tc.stored, tc.scope, got, tc.want)
		}
	}
}

// TestCreateStoresExplicitAccess: Create stores full access as "*" and refuses an empty list;
// and the database itself refuses an empty or malformed list from any other path (migration
// 00220), so no key can get full access by accident.
func TestCreateStoresExplicitAccess(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

	full, _, err := Create(ctx, d, NewKey{Name: "all", Scopes: FullAccess}, now)
	if err != nil || full.Scopes != "*" || full.ZMeansLocal {
		t.Fatalf("full access: %+v, %v", full, err)
	}
	local, key, err := Create(ctx, d, NewKey{Name: "assistant", Scopes: "bookings:write", ZMeansLocal: true}, now)
	if err != nil || local.Scopes != "bookings:write" || !local.ZMeansLocal {
		t.Fatalf("z-means-local key: %+v, %v", local, err)
	}
	row, err := d.R.AuthenticateAPIKey(ctx, Hash(key))
	if err != nil || !row.ZMeansLocal || row.Scopes != "bookings:write" {
		t.Fatalf("authenticate: %+v, %v; want the option read with the key", row, err)
	}
	if _, _, err := Create(ctx, d, NewKey{Name: "none", Scopes: ","}, now); !errors.Is(err, ErrNoScopes) {
		t.Fatalf("create with scopes \",\": %v, want ErrNoScopes", err)
	}

	for _, scopes := range []string{"", ",", "clients:read,", ",clients:read", "clients:read,,sales:read", "clients:read,*", "clients:read, sales:read"} {
		err := d.InTx(ctx, func(q *db.Queries) error {
			_, err := q.CreateAPIKey(ctx, db.CreateAPIKeyParams{Name: "raw", Prefix: "p", KeyHash: "h" + scopes, Scopes: scopes, CreatedAt: 1})
			return err
		})
		if !db.IsConstraint(err, "api_key_scopes_invalid") {
			t.Errorf("database stored scopes %q: %v", scopes, err)
		}
	}
	_, err = d.Write.ExecContext(ctx, `UPDATE api_keys SET scopes = '' WHERE id = ?`, full.ID)
	if !db.IsConstraint(err, "api_key_scopes_invalid") {
		t.Errorf("database let an update empty the scopes: %v", err)
	}
	keys, err := d.R.ListAPIKeys(ctx)
	if err != nil || len(keys) != 2 {
		t.Fatalf("keys after refusals: %d, %v; want 2", len(keys), err)
	}
}

// TestRevoke: a key is revoked once, at the given time, and no longer authenticates; revoking
// it again, or a key that does not exist, reports false and writes nothing.
func TestRevoke(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	k, key, err := Create(ctx, d, NewKey{Name: "shop", Scopes: FullAccess}, now)
	if err != nil {
		t.Fatal(err)
	}
	if revoked, err := Revoke(ctx, d, k.ID, now.Add(time.Hour)); err != nil || !revoked {
		t.Fatalf("Revoke: %v, %v; want revoked", revoked, err)
	}
	row, err := d.R.GetAPIKeyByID(ctx, k.ID)
	if err != nil || row.RevokedAt.Int64 != now.Add(time.Hour).UnixMilli() {
		t.Fatalf("revoked key: %+v, %v; want revoked_at an hour after creation", row, err)
	}
	if _, err := d.R.AuthenticateAPIKey(ctx, Hash(key)); err == nil {
		t.Error("a revoked key still authenticates")
	}
	for _, id := range []int64{k.ID, k.ID + 1} {
		if revoked, err := Revoke(ctx, d, id, now.Add(2*time.Hour)); err != nil || revoked {
			t.Errorf("Revoke(%d) again or unknown: %v, %v; want false", id, revoked, err)
		}
	}
	if row, _ := d.R.GetAPIKeyByID(ctx, k.ID); row.RevokedAt.Int64 != now.Add(time.Hour).UnixMilli() {
		t.Error("a second revoke moved revoked_at")
	}
}
