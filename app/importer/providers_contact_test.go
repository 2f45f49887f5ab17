package importer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

var santiago, _ = time.LoadLocation("America/Santiago")

// A provider's email, phone and message choices land as the admin's form stores them (the
// phone dialled the Chilean way read in the main location's country); bad ones are refused with
// their path, and nothing is written.
func TestLoadProviderContact(t *testing.T) {
	example := exampleFile(t)
	d := openDB(t)
	file := edit(t, example, map[string]any{
		"providers[0].email": " Ana@Studio-Ana.example", "providers[0].phone": "9 8765 4321",
		"providers[0].notify_bookings": true, "providers[0].agenda_time": "07:30",
	})
	if _, err := Load(context.Background(), d, []byte(file), testNow); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := d.Read.QueryRow(`SELECT email || ' ' || phone || ' ' || notify_bookings || ' ' || agenda_min FROM providers WHERE public_name = 'Ana'`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if want := "ana@studio-ana.example +56987654321 1 450"; got != want {
		t.Errorf("provider contact %q, want %q", got, want)
	}
	// Her imported bookings still ahead have their days' agendas planned, at 07:30 there.
	var agendas int
	var first int64
	if err := d.Read.QueryRow(`SELECT count(*), coalesce(min(send_at), 0) FROM messages WHERE kind = 'provider_agenda' AND state = 'pending'`).Scan(&agendas, &first); err != nil {
		t.Fatal(err)
	}
	if local := db.Time(first).In(santiago); agendas == 0 || local.Hour() != 7 || local.Minute() != 30 {
		t.Errorf("%d agendas planned, the first at %v; want some, at 07:30 in Santiago", agendas, local)
	}

	bad := []struct {
		name    string
		changes map[string]any
		want    string
	}{
		{"email", map[string]any{"providers[0].email": "ana at studio"}, "providers[0].email: Enter an email address like name@example.com."},
		{"phone", map[string]any{"providers[0].phone": "12"}, "providers[0].phone: Enter the number in international form"},
		{"agenda time", map[string]any{"providers[0].email": "a@b.example", "providers[0].agenda_time": "7h"}, "providers[0].agenda_time: \"7h\" is not a time"},
		{"emailed without an address", map[string]any{"providers[0].email": "", "providers[0].notify_bookings": true}, "providers[0].email: is required when the provider is emailed"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			d := openDB(t)
			before := tableCounts(t, d)
			_, err := Load(context.Background(), d, []byte(edit(t, example, tc.changes)), testNow)
			var ie *Errors
			if !errors.As(err, &ie) {
				t.Fatalf("err %v, want *Errors", err)
			}
			found := false
			for _, p := range ie.Problems {
				found = found || strings.HasPrefix(p.String(), tc.want)
			}
			if !found {
				t.Errorf("problems %v, want one starting %q", ie.Problems, tc.want)
			}
			after := tableCounts(t, d)
			for table, n := range before {
				if after[table] != n {
					t.Errorf("%s: %d rows after a refused import, %d before", table, after[table], n)
				}
			}
		})
	}
}
