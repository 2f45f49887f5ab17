package resource

import (
	"database/sql"
	"encoding/json"
	"testing"

	"frontdesk/db"
)

func TestServiceEventChanged(t *testing.T) {
	base := func() ServiceRow {
		return ServiceRow{
			Service: db.Service{ID: 7, UUID: "u", Name: "Haircut", Active: true, PriceCents: 1500000, DurationMin: 45,
				BufferAfterMin: 5, Capacity: 1, SessionCount: 1, OnlinePaymentMode: "NOT_AVAILABLE",
				CategoryID: sql.NullInt64{Int64: 3, Valid: true}, KeywordsJSON: `["hair"]`, CreatedAt: 1, UpdatedAt: 2},
			CategoryName: sql.NullString{String: "Hair", Valid: true},
		}
	}
	tests := []struct {
		name string
		edit func(*ServiceRow)
		want bool
	}{
		{"nothing", func(*ServiceRow) {}, false},
		{"only updated_at", func(r *ServiceRow) { r.Service.UpdatedAt = 99 }, false},
		{"a field outside the payload", func(r *ServiceRow) { r.Service.BufferAfterMin, r.Service.Capacity = 10, 4 }, false},
		{"name", func(r *ServiceRow) { r.Service.Name = "Cut" }, true},
		{"price", func(r *ServiceRow) { r.Service.PriceCents++ }, true},
		{"duration", func(r *ServiceRow) { r.Service.DurationMin = 60 }, true},
		{"status", func(r *ServiceRow) { r.Service.Active = false }, true},
		{"keywords", func(r *ServiceRow) { r.Service.KeywordsJSON = `["hair","cut"]` }, true},
		{"category renamed", func(r *ServiceRow) { r.CategoryName.String = "Hair & beauty" }, true},
		{"category removed", func(r *ServiceRow) { r.Service.CategoryID, r.CategoryName = sql.NullInt64{}, sql.NullString{} }, true},
		{"description", func(r *ServiceRow) { r.Service.Description = sql.NullString{String: "x", Valid: true} }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			after := base()
			tc.edit(&after)
			if got := ServiceEventChanged(NewServiceUpdated(base(), 1), NewServiceUpdated(after, 1)); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}

	// The payload is the scalar part of the detail: no computed fields.
	body, err := json.Marshal(NewServiceUpdated(base(), 1))
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatal(err)
	}
	for _, computed := range []string{"type", "online_payment", "images", "image", "providers"} {
		if _, ok := fields[computed]; ok {
			t.Errorf("payload has the computed field %q: %s", computed, body)
		}
	}
	for _, want := range []string{"keywords", "category", "name", "price", "duration", "active", "updated_at"} {
		if _, ok := fields[want]; !ok {
			t.Errorf("payload lacks %q: %s", want, body)
		}
	}
}
