package api

import (
	"fmt"
	"net/http"
	"testing"
)

type visitResp struct {
	ID        int64  `json:"id"`
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
	Price     string `json:"price"`
	Bookings  []struct {
		ID                int64  `json:"id"`
		StatusID          int64  `json:"status_id"`
		ServiceID         int64  `json:"service_id"`
		ServiceProviderID int64  `json:"service_provider_id"`
		StartTime         string `json:"start_time"`
	} `json:"bookings"`
}

// TestVisitsAPI: available_slots with service_ids offers a haircut-then-colour visit; POST
// /v3/visits books both back to back, a second identical visit is refused whole; PATCH moves
// both, the cancel cancels both; every answer matches our OpenAPI document.
func TestVisitsAPI(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("GET", "/v3/available_slots?location_id=1&start_date=2026-11-24&service_ids=1,2&provider_ids=2", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "listAvailableSlots", resp, raw)
	slots := decodeAs[struct {
		Data struct {
			Slots []struct {
				StartsAt string `json:"starts_at"`
				EndsAt   string `json:"ends_at"`
				Segments []struct {
					ServiceID  int64 `json:"service_id"`
					ProviderID int64 `json:"provider_id"`
				} `json:"segments"`
			} `json:"slots"`
		} `json:"data"`
	}](t, raw)
	if len(slots.Data.Slots) == 0 {
		t.Fatalf("no visit slots: %s", raw)
	}
	s := slots.Data.Slots[0]
	if len(s.Segments) != 2 || s.Segments[0].ProviderID != 2 || s.Segments[1].ServiceID != 2 || s.Segments[1].ProviderID != 1 {
		t.Fatalf("first visit slot %+v: want Ben's haircut then Ana's colour", s)
	}

	body := map[string]any{"location_id": 1, "client_id": 1, "start_time": "2026-11-24T10:00:00-03:00",
		"services": []map[string]any{{"service_id": 1, "provider_id": 2}, {"service_id": 2}}}
	resp, raw = f.call("POST", "/v3/visits", body)
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createVisit", resp, raw)
	v := decodeAs[visitResp](t, raw)
	if len(v.Bookings) != 2 || v.Bookings[1].StartTime != "2026-11-24T10:30:00-03:00" || v.Bookings[1].ServiceProviderID != 1 {
		t.Fatalf("visit %s: want the colour with Ana at 10:30", raw)
	}
	resp, raw = f.call("POST", "/v3/visits", body)
	wantStatus(t, resp, raw, http.StatusConflict)
	var n int
	if err := f.db.Read.QueryRow(`SELECT count(*) FROM bookings`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d bookings after a refused visit (%v), want 2", n, err)
	}

	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/visits/%d", v.ID), map[string]any{"start_time": "2026-11-24T09:30:00-03:00"})
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "moveVisit", resp, raw)
	moved := decodeAs[visitResp](t, raw)
	if moved.StartTime != "2026-11-24T09:30:00-03:00" || moved.Bookings[1].StartTime != "2026-11-24T10:00:00-03:00" {
		t.Fatalf("moved visit %s", raw)
	}

	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/visits/%d/cancel", v.ID), nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	resp, raw = f.call("GET", fmt.Sprintf("/v3/visits/%d", v.ID), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getVisit", resp, raw)
	for _, b := range decodeAs[visitResp](t, raw).Bookings {
		if b.StatusID != 5 {
			t.Fatalf("booking %d not cancelled with its visit", b.ID)
		}
	}

	resp, raw = f.call("GET", "/v3/visits/999", nil)
	wantStatus(t, resp, raw, http.StatusNotFound)
	validateResponse(t, "getVisit", resp, raw)
	resp, raw = f.call("POST", "/v3/visits", map[string]any{"location_id": 1, "client_id": 1, "start_time": "2026-11-24T10:00:00-03:00", "services": []any{}})
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
	validateResponse(t, "createVisit", resp, raw)
	resp, raw = f.call("POST", "/v3/visits", map[string]any{"location_id": 1, "client_id": 1, "start_time": "2026-11-24T10:00:00-03:00",
		"services": []map[string]any{{"service_id": 99}}})
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
}

// TestVisitPayOnlineAPI: POST /v3/visits with pay_online reserves both bookings for one
// payment request covering the visit's total, answered with the visit; both bookings are held
// for it. Every answer matches our OpenAPI document.
func TestVisitPayOnlineAPI(t *testing.T) {
	f := newFixture(t)
	bkExec(t, f, `UPDATE company SET online_payments = 1`)
	body := map[string]any{"location_id": 1, "client_id": 1, "start_time": "2026-11-24T10:00:00-03:00", "pay_online": true,
		"services": []map[string]any{{"service_id": 1, "provider_id": 2}, {"service_id": 2}}}
	resp, raw := f.call("POST", "/v3/visits", body)
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createVisit", resp, raw)
	v := decodeAs[struct {
		visitResp
		PaymentRequest *struct {
			ID     int64  `json:"id"`
			Amount string `json:"amount"`
		} `json:"payment_request"`
	}](t, raw)
	if v.PaymentRequest == nil || v.PaymentRequest.Amount != v.Price || len(v.Bookings) != 2 {
		t.Fatalf("visit %s: want one payment request for the visit's price", raw)
	}
	for _, b := range v.Bookings {
		if b.StatusID != 2 {
			t.Fatalf("booking %d has status %d, want reserved", b.ID, b.StatusID)
		}
	}
	var held int
	if err := f.db.Read.QueryRow(`SELECT count(*) FROM bookings WHERE payment_request_id = ?`, v.PaymentRequest.ID).Scan(&held); err != nil || held != 2 {
		t.Fatalf("%d bookings held for the request (%v), want 2", held, err)
	}
	body["status_id"] = 1
	body["start_time"] = "2026-11-25T10:00:00-03:00"
	resp, raw = f.call("POST", "/v3/visits", body)
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
	validateResponse(t, "createVisit", resp, raw)
}
