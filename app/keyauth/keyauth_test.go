package keyauth

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// TestKeptKeysFollowKeyWrites: keys are kept by token hash under the api_keys counter
// (Authenticate). After every kind of write to api_keys — made behind the cache's back with
// plain SQL on the writer, as another process would — the next Authenticate answers exactly
// what a lookup straight from the database gives: a revoked or deleted key is refused, a
// changed one is read afresh, on the very next call.
func TestKeptKeysFollowKeyWrites(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if _, err := d.Write.Exec(`INSERT INTO company (id, name, currency, created_at, updated_at) VALUES (1, 'Salon', 'CLP', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	_, token, err := apikey.Create(ctx, d, apikey.NewKey{Name: "one", Scopes: "bookings:read"}, now)
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := apikey.Create(ctx, d, apikey.NewKey{Name: "two", Scopes: apikey.FullAccess}, now)
	if err != nil {
		t.Fatal(err)
	}
	k := New(d, Options{Now: func() time.Time { return now }})
	hash := apikey.Hash(token)
	check := func(t *testing.T) {
		t.Helper()
		got, gotErr := k.Authenticate(ctx, "Bearer "+token)
		row, err := d.R.AuthenticateAPIKey(ctx, hash)
		switch {
		case db.IsNotFound(err):
			if !errors.Is(gotErr, ErrInvalidKey) {
				t.Fatalf("got %+v, %v; want ErrInvalidKey: the key is gone or revoked", got, gotErr)
			}
			return
		case err != nil:
			t.Fatal(err)
		case gotErr != nil:
			t.Fatalf("got error %v, want the key %+v", gotErr, row)
		}
		want := Key{ID: row.ID, Name: row.Name, Scopes: row.Scopes, ZMeansLocal: row.ZMeansLocal, CatalogVersion: row.CatalogVersion}
		if got != want {
			t.Fatalf("got key %+v, want %+v as the database has it", got, want)
		}
	}
	if _, err := k.Authenticate(ctx, "Bearer "+other); err != nil {
		t.Fatal(err)
	}
	check(t) // keeps the key; recording its first use raises the counter
	check(t) // keeps it again, under the counter as it stays for a minute
	check(t) // from the cache
	if _, ok := k.kept.lookup(apikey.Digest(token), mustVersion(t, d)); !ok {
		t.Fatal("the key was not kept")
	}
	for _, c := range []struct{ name, sql string }{
		{"scopes widened", `UPDATE api_keys SET scopes = 'bookings:read,bookings:write' WHERE name = 'one'`},
		{"Z means local", `UPDATE api_keys SET z_means_local = 1 WHERE name = 'one'`},
		{"catalog write", `INSERT INTO categories (name, sort_order, created_at, updated_at) VALUES ('Hair', 1, 0, 0)`},
		{"another key revoked", `UPDATE api_keys SET revoked_at = 1 WHERE name = 'two'`},
		{"scopes narrowed", `UPDATE api_keys SET scopes = 'clients:read' WHERE name = 'one'`},
		{"revoked", `UPDATE api_keys SET revoked_at = 1 WHERE name = 'one'`},
		{"unrevoked", `UPDATE api_keys SET revoked_at = NULL WHERE name = 'one'`},
		{"token replaced", `UPDATE api_keys SET key_hash = 'x' || key_hash WHERE name = 'one'`},
		{"token back", `UPDATE api_keys SET key_hash = substr(key_hash, 2) WHERE name = 'one'`},
		{"deleted", `DELETE FROM api_keys WHERE name = 'one'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := d.Write.Exec(c.sql); err != nil {
				t.Fatal(err)
			}
			check(t)
		})
	}
	// The other key, kept before its revocation, is refused too.
	if _, err := k.Authenticate(ctx, "Bearer "+other); !errors.Is(err, ErrInvalidKey) {
		t.Fatalf("revoked key two: got %v, want ErrInvalidKey", err)
	}
}

func mustVersion(t *testing.T, d *db.DB) int64 {
	t.Helper()
	v, err := d.R.AuthenticationVersions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v.KeysVersion
}

// TestVersionRoundsNeverAnswerWithAnOlderReading: requests share counter readings (rounds.go),
// but each gets one taken after it arrived. While a writer keeps raising the api_keys counter
// and publishes each committed value, readers on many goroutines must never get a reading
// below the value published before they asked.
func TestVersionRoundsNeverAnswerWithAnOlderReading(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	if _, err := d.Write.Exec(`INSERT INTO company (id, name, currency, created_at, updated_at) VALUES (1, 'Salon', 'CLP', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := apikey.Create(ctx, d, apikey.NewKey{Name: "k", Scopes: apikey.FullAccess}, time.Now()); err != nil {
		t.Fatal(err)
	}
	rounds := versionRounds{stamp: d.Stamp}
	var published atomic.Int64
	stop := make(chan struct{})
	var readers sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 16)
	for range 8 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				before := published.Load()
				v, err := rounds.read(ctx, d.R)
				if err != nil {
					errs <- err
					return
				}
				reads.Add(1)
				if v.KeysVersion < before {
					errs <- fmt.Errorf("got reading %d, want at least %d (committed before the request)", v.KeysVersion, before)
					return
				}
			}
		}()
	}
	for range 300 {
		if _, err := d.Write.Exec(`UPDATE api_keys SET name = name`); err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := d.Write.QueryRow(`SELECT n FROM etag_versions WHERE kind = 'api_keys' AND ref_id = 0`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		published.Store(n)
		// Let the readers read under this value before the next write: the test is about
		// readings interleaved with commits, and a busy machine could otherwise run all the
		// writes before the readers are scheduled at all.
		for r := reads.Load(); reads.Load() < r+2; {
			select {
			case err := <-errs:
				t.Fatal(err)
			default:
				runtime.Gosched()
			}
		}
	}
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if reads.Load() < 300 {
		t.Fatalf("got %d reads during 300 writes, want the readers to keep up", reads.Load())
	}
}

// TestVersionRoundOutlivesItsLeader: a round's reading answers every request that joined it, so
// the request that happens to lead it going away (a client that hung up) must not cancel the
// statement and fail the others with its context's error.
func TestVersionRoundOutlivesItsLeader(t *testing.T) {
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	rounds := versionRounds{stamp: d.Stamp}
	if _, err := rounds.read(gone, d.R); err != nil {
		t.Fatalf("a round led by a cancelled request: %v, want the reading its other requests share", err)
	}
}
