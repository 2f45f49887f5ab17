package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/payments"
)

type packResp struct {
	ID            int64   `json:"id"`
	ServiceID     int64   `json:"service_id"`
	SessionsTotal int64   `json:"sessions_total"`
	SessionsUsed  int64   `json:"sessions_used"`
	SessionsLeft  int64   `json:"sessions_left"`
	ExpiresAt     *string `json:"expires_at"`
	Expired       bool    `json:"expired"`
	Price         string  `json:"price"`
	SaleID        *int64  `json:"sale_id"`
}

type packBooking struct {
	ID     int64  `json:"id"`
	Price  string `json:"price"`
	PackID *int64 `json:"pack_id"`
}

// addMassagePack adds service 7 "Massage pack (5)": five 60-minute sessions for 400.000, given
// by Ana (provider 1) at Providencia, payable online.
func (f *fixture) addMassagePack() {
	f.t.Helper()
	ms := f.now.UnixMilli()
	f.exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, session_count, online_booking, online_payment_mode, keywords_json, created_at, updated_at)
		VALUES (7, '77777777-7777-4777-8777-777777777777', 'Massage pack (5)', 40000000, 60, 5, 1, 'OPTIONAL', '[]', ?, ?)`, ms, ms)
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (7, 1)`)
}

// buyPack sells client 1 a pack through a cart, a payment request and the owner's settlement.
func (f *fixture) buyPack(t *testing.T) {
	t.Helper()
	f.exec(`UPDATE company SET online_payments = 1`)
	cart := f.createCart(t, map[string]any{"client_id": 1, "items": []map[string]any{
		{"item_id": 7, "item_type": "session", "unit_price": "400000", "quantity": 1},
	}})
	pr := f.createPaymentRequest(t, cart.ID)
	if _, err := payments.Settle(context.Background(), f.db, pr.ID, payments.MethodCash, f.now); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) packs(t *testing.T, client int64) []packResp {
	t.Helper()
	resp, raw := f.call("GET", fmt.Sprintf("/v3/clients/%d/packs", client), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "listClientPacks", resp, raw)
	return decodeAs[struct {
		Data []packResp `json:"data"`
	}](t, raw).Data
}

func (f *fixture) bookMassage(t *testing.T, day string, extra map[string]any) packBooking {
	t.Helper()
	body := bkBooking(map[string]any{"service_id": 7, "provider_id": 1, "start_time": day + "T09:00:00-03:00"})
	for k, v := range extra {
		body[k] = v
	}
	resp, raw := f.call("POST", "/v3/bookings", body)
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createBooking", resp, raw)
	return decodeAs[packBooking](t, raw)
}

// TestPackOfFive: a pack sold as a cart item is credited when the sale is paid; five bookings
// use it (price 0, pack_id), the sixth is an ordinary booking at the service's price; a cancel
// within the policy gives a session back; an expired pack cannot be used.
func TestPackOfFive(t *testing.T) {
	f := newFixture(t)
	f.addMassagePack()
	if got := f.packs(t, 1); len(got) != 0 {
		t.Fatalf("before the sale: got %d packs, want none", len(got))
	}
	f.buyPack(t)
	got := f.packs(t, 1)
	if len(got) != 1 || got[0].SessionsLeft != 5 || got[0].Price != "400000.0" || got[0].SaleID == nil || got[0].ExpiresAt != nil {
		t.Fatalf("after the sale: got %+v, want one pack of 5 for 400000.0 with its sale", got)
	}
	pack := got[0].ID
	days := []string{"2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30", "2026-12-01"}
	var bookings []packBooking
	for i, day := range days {
		b := f.bookMassage(t, day, nil)
		bookings = append(bookings, b)
		if i < 5 && (b.PackID == nil || *b.PackID != pack || b.Price != "0.0") {
			t.Fatalf("booking %d: got pack %v price %s, want pack %d and 0.0", i+1, b.PackID, b.Price, pack)
		}
		if i == 5 && (b.PackID != nil || b.Price != "400000.0") {
			t.Fatalf("sixth booking: got pack %v price %s, want no pack and the service's 400000.0", b.PackID, b.Price)
		}
	}
	if p := f.packs(t, 1)[0]; p.SessionsUsed != 5 || p.SessionsLeft != 0 {
		t.Fatalf("after five: got %d used, %d left", p.SessionsUsed, p.SessionsLeft)
	}
	resp, raw := f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", bookings[0].ID), nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	if p := f.packs(t, 1)[0]; p.SessionsLeft != 1 {
		t.Fatalf("after a cancel: got %d left, want 1", p.SessionsLeft)
	}
	if b := f.bookMassage(t, "2026-12-02", nil); b.PackID == nil || *b.PackID != pack {
		t.Fatalf("after a cancel: got pack %v, want the pack again", b.PackID)
	}
	// pack_id null books without a pack even when one could be used.
	if b := f.bookMassage(t, "2026-12-03", map[string]any{"pack_id": nil}); b.PackID != nil || b.Price != "400000.0" {
		t.Fatalf("pack_id null: got pack %v price %s", b.PackID, b.Price)
	}
	resp, raw = f.call("GET", "/v3/clients/999/packs", nil)
	wantError(t, resp, raw, http.StatusNotFound, "not_found", "client")
	validateResponse(t, "listClientPacks", resp, raw)
}

// TestExpiredPackAPI: with packs expiring 30 days after payment, a session after that is an
// ordinary booking, and asking for the pack is refused.
func TestExpiredPackAPI(t *testing.T) {
	f := newFixture(t)
	f.addMassagePack()
	if err := booking.UpdateClassSettings(context.Background(), f.db, f.now, booking.ClassSettings{PackExpiryDays: 30, WaitlistCutoff: time.Hour}); err != nil {
		t.Fatal(err)
	}
	f.buyPack(t)
	p := f.packs(t, 1)[0]
	if p.ExpiresAt == nil || *p.ExpiresAt != "2026-12-23T12:00:00Z" || p.Expired {
		t.Fatalf("got expiry %v (expired %v), want 2026-12-23T12:00:00Z", p.ExpiresAt, p.Expired)
	}
	if b := f.bookMassage(t, "2026-12-28", nil); b.PackID != nil || b.Price != "400000.0" {
		t.Fatalf("a session after the expiry: got pack %v price %s, want an ordinary booking", b.PackID, b.Price)
	}
	resp, raw := f.call("POST", "/v3/bookings", bkBooking(map[string]any{"service_id": 7, "provider_id": 1,
		"start_time": "2026-12-29T09:00:00-03:00", "pack_id": p.ID}))
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
	validateResponse(t, "createBooking", resp, raw)
	f.now = f.now.AddDate(0, 1, 0)
	if p := f.packs(t, 1)[0]; !p.Expired {
		t.Fatalf("a month later: got expired %v, want true", p.Expired)
	}
}

// TestPackCartRules: a pack item names a service sold in packs and a cart with one names its
// client.
func TestPackCartRules(t *testing.T) {
	f := newFixture(t)
	f.addMassagePack()
	resp, raw := f.call("POST", "/v3/carts", `{"items":[{"item_id":7,"item_type":"session","unit_price":"1","quantity":1}]}`)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "client_id: is required when an item sells a session pack")
	resp, raw = f.call("POST", "/v3/carts", `{"client_id":1,"items":[{"item_id":1,"item_type":"session","unit_price":"1","quantity":1}]}`)
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
	validateResponse(t, "createCart", resp, raw)
}
