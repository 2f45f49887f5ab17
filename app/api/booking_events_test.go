package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"frontdesk/app/payments"
)

// A CRM written for Connect v3 keeps its copy of each booking from booking.created and
// booking.updated alone (issue 10, item 2): it reads status_id (not the status object), price,
// list_price and the record timestamps. crmBooking is its copy; every writer must send data
// that agrees with GET /v3/bookings/{id} at that moment.
type crmBooking struct {
	ID         int64  `json:"id"`
	StartTime  string `json:"start_time"`
	EndTime    string `json:"end_time"`
	ServiceID  int64  `json:"service_id"`
	ClientID   int64  `json:"client_id"`
	LocationID int64  `json:"location_id"`
	StatusID   int64  `json:"status_id"`
	Price      string `json:"price"`
	ListPrice  string `json:"list_price"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
}

// TestBookingEventDataIsASuperset: every path that writes a booking event (create, edit, price
// change, reschedule, cancel, a payment request's reservation, its release and its
// confirmation) sends data whose fields equal the resource's, with provider_id and the status
// object kept.
func TestBookingEventDataIsASuperset(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	tick := func() { f.now = f.now.Add(7 * time.Minute) }
	check := func(step string, id int64, wantType string, status int64) {
		t.Helper()
		events := bkEvents(t, f)
		last := events[len(events)-1]
		if last.Type != wantType {
			t.Fatalf("%s: last event %s, want %s", step, last.Type, wantType)
		}
		var got crmBooking
		if err := json.Unmarshal(last.Data, &got); err != nil {
			t.Fatal(err)
		}
		var extra struct {
			ProviderID *int64 `json:"provider_id"`
			Status     *struct {
				ID           int64  `json:"id"`
				InternalName string `json:"internal_name"`
			} `json:"status"`
		}
		json.Unmarshal(last.Data, &extra)
		resp, raw := f.call("GET", fmt.Sprintf("/v3/bookings/%d", id), nil)
		var want crmBooking
		json.Unmarshal(wantStatus(t, resp, raw, http.StatusOK), &want)
		var res struct {
			ServiceProviderID int64 `json:"service_provider_id"`
		}
		json.Unmarshal(raw, &res)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: event data\n%+v\nresource\n%+v", step, got, want)
		}
		if got.StatusID != status || got.UpdatedAt != f.now.UTC().Format(time.RFC3339) {
			t.Errorf("%s: status_id %d updated_at %s, want %d at %s", step, got.StatusID, got.UpdatedAt, status, f.now.UTC().Format(time.RFC3339))
		}
		if extra.ProviderID == nil || *extra.ProviderID != res.ServiceProviderID || extra.Status == nil || extra.Status.ID != got.StatusID {
			t.Errorf("%s: provider_id or status object missing or wrong in %s", step, last.Data)
		}
	}

	b := f.book(t, nil)
	check("create", b.ID, "booking.created", 1)
	path := fmt.Sprintf("/v3/bookings/%d", b.ID)
	for _, step := range []struct {
		name, body string
		status     int64
	}{
		{"notes", `{"notes":"window seat"}`, 1},
		{"price", `{"price":"9990"}`, 1},
		{"status", `{"status_id":3}`, 3},
		{"reschedule", `{"start_time":"2026-11-25T11:00:00-03:00"}`, 3},
	} {
		tick()
		resp, raw := f.call("PATCH", path, step.body)
		wantStatus(t, resp, raw, http.StatusOK)
		check(step.name, b.ID, "booking.updated", step.status)
	}
	tick()
	resp, raw := f.call("PATCH", path+"/cancel", nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	check("cancel", b.ID, "booking.updated", 5)

	// A payment request reserves (status 2), its cancel releases (5); a second one is settled
	// (confirmed, 1).
	tick()
	c := f.createCart(t, haircutCart())
	pr := f.createPaymentRequest(t, c.ID)
	var reserved int64
	if err := f.db.Read.QueryRow(`SELECT id FROM bookings WHERE payment_request_id = ?`, pr.ID).Scan(&reserved); err != nil {
		t.Fatal(err)
	}
	check("reserve", reserved, "booking.created", 2)
	tick()
	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/payment_requests/%d/cancel", pr.ID), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	events := bkEvents(t, f)
	for i := len(events) - 1; i >= 0; i-- { // the release precedes nothing else here
		if events[i].Type == "booking.updated" {
			var got crmBooking
			json.Unmarshal(events[i].Data, &got)
			if got.ID != reserved || got.StatusID != 5 {
				t.Errorf("release event %s, want booking %d with status_id 5", events[i].Data, reserved)
			}
			break
		}
	}
	check("release", reserved, "booking.updated", 5)
	tick()
	pr = f.createPaymentRequest(t, c.ID)
	if err := f.db.Read.QueryRow(`SELECT id FROM bookings WHERE payment_request_id = ? AND status_id = 2`, pr.ID).Scan(&reserved); err != nil {
		t.Fatal(err)
	}
	tick()
	if _, err := payments.Settle(context.Background(), f.db, pr.ID, payments.MethodCash, f.now); err != nil {
		t.Fatal(err)
	}
	events = bkEvents(t, f)
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == "booking.updated" {
			var got crmBooking
			json.Unmarshal(events[i].Data, &got)
			resp, raw := f.call("GET", fmt.Sprintf("/v3/bookings/%d", reserved), nil)
			var want crmBooking
			json.Unmarshal(wantStatus(t, resp, raw, http.StatusOK), &want)
			if !reflect.DeepEqual(got, want) || got.StatusID != 1 {
				t.Errorf("confirm: event data %+v, resource %+v (status 1)", got, want)
			}
			break
		}
	}
}
