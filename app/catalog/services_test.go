package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func openDB(t *testing.T) *db.DB {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), "catalog.db"))
	return d
}

// event is a service.updated row of the outbox, decoded.
type event struct {
	Type      string         `json:"type"`
	Timestamp string         `json:"timestamp"`
	Data      map[string]any `json:"data"`
}

func serviceEvents(t *testing.T, d *db.DB) []event {
	t.Helper()
	rows, err := d.Read.Query(`SELECT type, body FROM events ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []event
	for rows.Next() {
		var typ string
		var body []byte
		if err := rows.Scan(&typ, &body); err != nil {
			t.Fatal(err)
		}
		var e event
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatalf("event body %s: %v", body, err)
		}
		if typ != "service.updated" || e.Type != typ {
			t.Fatalf("got event type %q (body %q), want service.updated", typ, e.Type)
		}
		out = append(out, e)
	}
	return out
}

func mustCategory(t *testing.T, d *db.DB, name string) int64 {
	t.Helper()
	id, err := CreateCategory(context.Background(), d, CategoryInput{Name: name, Order: "1"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func haircut(category int64) ServiceInput {
	in := NewServiceInput()
	in.Name, in.Price, in.Duration, in.Keywords = "Haircut", "15000", "45", "hair, Cut, HAIR"
	in.CategoryID = strconv.FormatInt(category, 10)
	return in
}

func TestServiceUpdatedOnlyWhenThePayloadChanges(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	hair := mustCategory(t, d, "Hair")
	id, err := CreateService(ctx, d, haircut(hair), t0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(serviceEvents(t, d)); n != 0 {
		t.Fatalf("creating a service wrote %d events, want none", n)
	}

	steps := []struct {
		name        string
		edit        func(*ServiceInput)
		wantChanged bool
		wantEvents  int // in total so far
	}{
		{"saved as it is", func(*ServiceInput) {}, false, 0},
		{"same values spelled differently", func(in *ServiceInput) { in.Price, in.Keywords = "15000.00", " hair ,Cut" }, false, 0},
		{"name and keywords", func(in *ServiceInput) { in.Name, in.Keywords = "Haircut & wash", "hair, wash" }, true, 1},
		{"buffer only: outside the payload", func(in *ServiceInput) { in.BufferAfter = "10" }, true, 1},
		{"providers and images only", func(in *ServiceInput) { in.Images[0] = "https://img.example/a.png" }, true, 1},
		{"deactivated", func(in *ServiceInput) { in.Active = false }, true, 2},
	}
	in := haircut(hair)
	for _, st := range steps {
		st.edit(&in)
		saved, err := UpdateService(ctx, d, id, in, t0.Add(time.Minute))
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if saved.Changed != st.wantChanged {
			t.Errorf("%s: got Changed %v, want %v", st.name, saved.Changed, st.wantChanged)
		}
		if n := len(serviceEvents(t, d)); n != st.wantEvents {
			t.Fatalf("%s: got %d events in total, want %d", st.name, n, st.wantEvents)
		}
	}

	e := serviceEvents(t, d)[0]
	for _, computed := range []string{"type", "online_payment", "images", "providers", "image"} {
		if _, ok := e.Data[computed]; ok {
			t.Errorf("payload has the computed field %q", computed)
		}
	}
	if got := e.Data["keywords"]; !jsonEqual(got, []any{"hair", "wash"}) {
		t.Errorf("got keywords %v, want [hair wash]", got)
	}
	if got := e.Data["category"]; !jsonEqual(got, map[string]any{"id": float64(hair), "name": "Hair"}) {
		t.Errorf("got category %v, want {%d Hair}", got, hair)
	}
	if e.Data["name"] != "Haircut & wash" || e.Data["price"] != "15000.0" || e.Data["duration"] != float64(45) || e.Data["active"] != true {
		t.Errorf("payload scalars: %v", e.Data)
	}
	if e.Data["updated_at"] != "2026-11-21T12:01:00Z" {
		t.Errorf("got updated_at %v, want the time of the change", e.Data["updated_at"])
	}
}

func TestCategoryChangesAnnounceTheirServices(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	hair := mustCategory(t, d, "Hair")
	nails := mustCategory(t, d, "Nails")
	var ids []int64
	for i, c := range []int64{hair, hair, nails} {
		in := haircut(c)
		in.Name = "Service " + strconv.Itoa(i)
		in.Active = i != 1 // an inactive one is announced too
		id, err := CreateService(ctx, d, in, t0)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}

	if _, err := UpdateCategory(ctx, d, hair, CategoryInput{Name: "Hair", Order: "5"}, t0); err != nil {
		t.Fatal(err)
	}
	if n := len(serviceEvents(t, d)); n != 0 {
		t.Fatalf("reordering wrote %d events, want none (order is not in the payload)", n)
	}
	saved, err := UpdateCategory(ctx, d, hair, CategoryInput{Name: "Hair & beauty", Order: "5"}, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	evs := serviceEvents(t, d)
	if saved.Events != 2 || len(evs) != 2 {
		t.Fatalf("rename: got %d events (%d reported), want 2: one per service in the category", len(evs), saved.Events)
	}
	for i, e := range evs {
		if e.Data["id"] != float64(ids[i]) || !jsonEqual(e.Data["category"], map[string]any{"id": float64(hair), "name": "Hair & beauty"}) {
			t.Errorf("rename event %d: id %v category %v", i, e.Data["id"], e.Data["category"])
		}
		if e.Data["updated_at"] != "2026-11-21T13:00:00Z" {
			t.Errorf("rename event %d: updated_at %v, want the rename's time", i, e.Data["updated_at"])
		}
	}

	if _, err := DeleteCategory(ctx, d, nails, t0); err != nil {
		t.Fatal(err)
	}
	evs = serviceEvents(t, d)
	if len(evs) != 3 || evs[2].Data["id"] != float64(ids[2]) || evs[2].Data["category"] != nil {
		t.Fatalf("delete: got %d events, last %v; want a third with category null", len(evs), evs[len(evs)-1].Data)
	}
	row, err := d.R.GetService(ctx, ids[2])
	if err != nil || row.Service.CategoryID.Valid {
		t.Errorf("service after its category was deleted: %+v, %v; want it kept without a category", row.Service, err)
	}
	if _, err := DeleteCategory(ctx, d, nails, t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting twice: got %v, want ErrNotFound", err)
	}
}

func TestServiceValidation(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	tests := []struct {
		name  string
		edit  func(*ServiceInput)
		field string
	}{
		{"no name", func(in *ServiceInput) { in.Name = "  " }, "name"},
		{"price with three decimals", func(in *ServiceInput) { in.Price = "1.005" }, "price"},
		{"negative price", func(in *ServiceInput) { in.Price = "-1" }, "price"},
		{"discount over 100", func(in *ServiceInput) { in.HasDiscount, in.Discount = true, "100.5" }, "discount"},
		{"discount ticked, none given", func(in *ServiceInput) { in.HasDiscount = true }, "discount"},
		{"duration too short", func(in *ServiceInput) { in.Duration = "4" }, "duration"},
		{"duration too long", func(in *ServiceInput) { in.Duration = "1440" }, "duration"},
		{"duration missing", func(in *ServiceInput) { in.Duration = "" }, "duration"},
		{"buffer", func(in *ServiceInput) { in.BufferBefore = "241" }, "buffer_before"},
		{"capacity 0", func(in *ServiceInput) { in.Capacity = "0" }, "capacity"},
		{"sessions", func(in *ServiceInput) { in.SessionCount = "x" }, "session_count"},
		{"unknown category", func(in *ServiceInput) { in.CategoryID = "999" }, "category_id"},
		{"unknown location", func(in *ServiceInput) { in.LocationID = "1" }, "location_id"},
		{"unknown provider", func(in *ServiceInput) { in.ProviderIDs = []string{"7"} }, "provider_ids"},
		{"payment mode", func(in *ServiceInput) { in.PaymentMode = "FREE" }, "online_payment_mode"},
		{"partial without amount", func(in *ServiceInput) { in.PaymentMode = PaymentMandatoryPartly }, "online_payment_amount"},
		{"partial above price", func(in *ServiceInput) { in.PaymentMode, in.PaymentAmount = PaymentMandatoryPartly, "20000" }, "online_payment_amount"},
		{"image not a URL", func(in *ServiceInput) { in.Images[1] = "javascript:alert(1)" }, "image_1"},
		{"keyword too long", func(in *ServiceInput) { in.Keywords = "ok, " + strings.Repeat("k", 51) }, "keywords"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := haircut(0)
			in.CategoryID = ""
			tc.edit(&in)
			_, err := CreateService(ctx, d, in, t0)
			var inv *Invalid
			if !errors.As(err, &inv) || inv.Fields[tc.field] == "" {
				t.Fatalf("got %v, want a message for %s", err, tc.field)
			}
		})
	}
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM services`).Scan(&n); err != nil || n != 0 {
		t.Errorf("got %d services after refused inputs (%v), want 0", n, err)
	}
	in := haircut(0)
	in.CategoryID = ""
	in.PaymentMode, in.PaymentAmount = PaymentOptional, "not read for this mode"
	if _, err := CreateService(ctx, d, in, t0); err != nil {
		t.Errorf("an amount with a mode that has none: got %v, want it ignored", err)
	}
	if _, err := UpdateService(ctx, d, 999, in, t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("updating a missing service: got %v, want ErrNotFound", err)
	}
}

func TestEditServiceRoundTrip(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	in := haircut(mustCategory(t, d, "Hair"))
	in.HasDiscount, in.Discount, in.Description = true, "12.5", "Wash,\ncut and dry"
	in.PaymentMode, in.PaymentAmount = PaymentMandatoryPartly, "5000"
	in.Images = [3]string{"https://img.example/1.png", "", "https://img.example/3.png"}
	id, err := CreateService(ctx, d, in, t0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EditService(ctx, d.R, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Keywords != "hair, Cut" || got.Discount != "12.5" || got.PaymentAmount != "5000.0" ||
		got.Images != [3]string{"https://img.example/1.png", "https://img.example/3.png", ""} || got.Description != in.Description {
		t.Errorf("form of the stored service: %+v", got)
	}
	saved, err := UpdateService(ctx, d, id, got, t0.Add(time.Hour))
	if err != nil || saved.Changed {
		t.Errorf("saving the form unchanged: got %+v, %v; want nothing changed", saved, err)
	}
}

func jsonEqual(got, want any) bool {
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	return slices.Equal(a, b)
}
