package activity_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

func openDB(t *testing.T) *db.DB {
	t.Helper()
	return dbtest.Open(t, filepath.Join(t.TempDir(), "frontdesk.db"))
}

func count(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM activity`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// An entry is part of its change's transaction: a write that fails after recording leaves no
// entry, one that commits leaves exactly one, with the actor and address of its context.
func TestRecordCommitsOnlyWithItsChange(t *testing.T) {
	d := openDB(t)
	ctx := activity.WithIP(activity.WithActor(context.Background(), activity.Actor{Kind: activity.KindOwner, ID: "7", Label: "ana@example.com"}), "192.0.2.1")
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	boom := errors.New("refused inside the transaction")
	err := d.InTx(ctx, func(q *db.Queries) error {
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.updated", EntityID: 3}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the forced error", err)
	}
	if n := count(t, d); n != 0 {
		t.Fatalf("a rolled-back write left %d entries, want none", n)
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		return activity.Record(ctx, q, now, activity.Entry{Action: "client.updated", EntityID: 3,
			Changes: activity.Changes{}.Set("first_name", "Ana", "Ana María")})
	})
	if err != nil {
		t.Fatal(err)
	}
	items, _, err := activity.List(ctx, d.R, activity.Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 {
		t.Fatalf("got %d entries, want 1", len(items))
	}
	it := items[0]
	if it.Actor != (activity.Actor{Kind: activity.KindOwner, ID: "7", Label: "ana@example.com"}) || it.IP != "192.0.2.1" ||
		it.Entity != "client" || it.EntityID != 3 || !it.At.Equal(now) ||
		len(it.Changes) != 1 || it.Changes[0] != (activity.Change{Field: "first_name", Old: "Ana", New: "Ana María"}) {
		t.Errorf("got %+v", it)
	}
}

// Secrets are hidden by the field's name and by the value's look, whatever the caller passes.
func TestRecordHidesSecrets(t *testing.T) {
	d := openDB(t)
	ctx := context.Background()
	type settings struct {
		Host         string
		SMTPPassword string
		SecretKey    string
		Notes        string
		Sealed       []byte
	}
	before := settings{Host: "a.example", Notes: "plain"}
	after := settings{Host: "b.example", SMTPPassword: "hunter2", SecretKey: "abc", Notes: "call apk_live_0123456789 now",
		Sealed: []byte{1, 2, 3}}
	ch := activity.Diff(before, after).Set("url", nil, "smtp://user:pa55@mail.example").Set("hook", nil, "whsec_abcdef").
		Set("hash", nil, "$argon2id$v=19$m=1$salt$sum")
	err := d.InTx(ctx, func(q *db.Queries) error {
		return activity.Record(ctx, q, time.Now(), activity.Entry{Action: "settings.updated", Entity: "settings.test", Changes: ch})
	})
	if err != nil {
		t.Fatal(err)
	}
	var stored string
	if err := d.Read.QueryRow(`SELECT changes FROM activity`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2", "abc", "apk_live_", "pa55", "whsec_", "$argon2", "\\u0001"} {
		if strings.Contains(stored, secret) {
			t.Errorf("changes %s hold %q", stored, secret)
		}
	}
	for _, want := range []string{`"host":["a.example","b.example"]`, `"smtp_password":["","[hidden]"]`, `"secret_key":["","[hidden]"]`,
		`"notes":["plain","[hidden]"]`, `"sealed":[null,"[hidden]"]`, `"url":[null,"[hidden]"]`} {
		if !strings.Contains(stored, want) {
			t.Errorf("changes %s lack %s", stored, want)
		}
	}
}

// The pruner deletes entries older than the retention, in batches, and keeps the newer ones.
func TestPrunerKeepsOnlyTheRetention(t *testing.T) {
	d := openDB(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	const old, recent = 1500, 3 // more old ones than one batch deletes
	err := d.InTx(ctx, func(q *db.Queries) error {
		for i := range old + recent {
			at := now.Add(-400 * 24 * time.Hour).Add(time.Duration(i) * time.Second)
			if i >= old {
				at = now.Add(-time.Duration(i-old+1) * 24 * time.Hour)
			}
			if err := activity.Record(ctx, q, at, activity.Entry{Action: "booking.created", EntityID: int64(i + 1)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p := activity.NewPruner(d, 365*24*time.Hour, slog.New(slog.DiscardHandler), func() time.Time { return now })
	n, err := p.Prune(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != old || count(t, d) != recent {
		t.Errorf("pruned %d, %d left; want %d pruned, %d left", n, count(t, d), old, recent)
	}
}
