package managelink_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/app/managelink"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// A link is created inside a transaction, stored only as a hash, found while its booking has
// not ended a day ago, and refused — all in the same way — when malformed, unknown or expired.
func TestNewAndFind(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	start := time.Date(2026, 11, 24, 13, 0, 0, 0, time.UTC)
	end := start.Add(30 * time.Minute)
	for _, q := range []string{
		`INSERT INTO company (id, name, created_at, updated_at) VALUES (1, 'S', 0, 0)`,
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'l', 'L', 'UTC', 1, 0, 0)`,
		`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's', 'S', 30, 0, 0)`,
		`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'P', 1, 0, 0)`,
		`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'C', 0, 0)`,
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Write.Exec(`INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
		block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at) VALUES (7, 1, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, 0, 0)`,
		start.UnixMilli(), end.UnixMilli(), start.UnixMilli(), end.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	var token string
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		token, err = managelink.New(ctx, q, 7, start.Add(-time.Hour))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(token) != 43 || managelink.Path(token) != "/book/manage/"+token {
		t.Fatalf("token %q, path %q", token, managelink.Path(token))
	}
	var stored []byte
	if err := d.Read.QueryRow(`SELECT token_hash FROM manage_links`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte(token)) || !bytes.Equal(stored, managelink.Hash(token)) {
		t.Error("the table holds more than the token's hash")
	}
	for name, tc := range map[string]struct {
		token string
		now   time.Time
		ok    bool
	}{
		"before the booking":       {token, start.Add(-48 * time.Hour), true},
		"a day after it ends, -1s": {token, end.Add(managelink.Grace - time.Second), true},
		"a day after it ends":      {token, end.Add(managelink.Grace), false},
		"unknown":                  {"A" + token[1:], start, token[0] == 'A'},
		"too short":                {token[:42], start, false},
		"not base64url":            {token[:42] + "=", start, false},
		"empty":                    {"", start, false},
	} {
		id, err := managelink.Find(ctx, d.R, tc.token, tc.now)
		switch {
		case tc.ok && (err != nil || id != 7):
			t.Errorf("%s: got %d, %v; want booking 7", name, id, err)
		case !tc.ok && !errors.Is(err, managelink.ErrNotFound):
			t.Errorf("%s: got %d, %v; want ErrNotFound", name, id, err)
		}
	}
}
