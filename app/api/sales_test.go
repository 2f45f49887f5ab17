package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"frontdesk/app/payments"
)

type saleResp struct {
	ID            int64  `json:"id"`
	CartID        int64  `json:"cart_id"`
	ClientID      *int64 `json:"client_id"`
	PaidAmount    string `json:"paid_amount"`
	PendingAmount string `json:"pending_amount"`
	Status        string `json:"status"`
	PaidAt        string `json:"paid_at"`
	LocationID    int64  `json:"location_id"`
	Location      struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"location"`
	Transactions []struct {
		Amount        string `json:"amount"`
		PaidAt        string `json:"paid_at"`
		PaymentMethod struct {
			ID   int64  `json:"id"`
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"payment_method"`
	} `json:"transactions"`
}

// paidEvent is the data of payment_request.paid and payment_request.expired.
type paidEvent struct {
	paymentRequestResp
	BookingIDs []int64 `json:"booking_ids"`
	SaleID     *int64  `json:"sale_id"`
}

func lastEvent(t *testing.T, f *fixture, eventType string) paidEvent {
	t.Helper()
	events := bkEvents(t, f)
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == eventType {
			return decodeAs[paidEvent](t, events[i].Data)
		}
	}
	t.Fatalf("no %s event among %v", eventType, eventTypesOf(t, f))
	return paidEvent{}
}

// Settling a request writes the sale and its transaction, confirms the reserved booking with
// the sale, and records payment_request.paid — once.
func TestSettleCreatesSale(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	cart := f.createCart(t, haircutCart())
	pr := f.createPaymentRequest(t, cart.ID)
	bookingID := int64(bkCount(t, f, `SELECT id FROM bookings WHERE payment_request_id = ?`, pr.ID))
	ctx := context.Background()
	saleID, err := payments.Settle(ctx, f.db, pr.ID, payments.MethodCardTerminal, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if got := bookingStatus(t, f, bookingID); got != 1 {
		t.Errorf("got booking status %d after payment, want 1 (confirmed)", got)
	}
	resp, raw := f.call("GET", "/v3/bookings/"+itoa(bookingID), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	var b struct {
		Sale *struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
			CartID int64  `json:"cart_id"`
		} `json:"sale"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	if b.Sale == nil || b.Sale.ID != saleID || b.Sale.Status != "paid" || b.Sale.CartID != cart.ID {
		t.Errorf("got booking sale %+v, want {%d paid %d}", b.Sale, saleID, cart.ID)
	}
	if got, want := eventTypesOf(t, f), []string{"booking.created", "booking.updated", "payment_request.paid"}; !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}
	e := lastEvent(t, f, "payment_request.paid")
	if e.ID != pr.ID || e.Status != "paid" || e.CartID != cart.ID || !slices.Equal(e.BookingIDs, []int64{bookingID}) || e.SaleID == nil || *e.SaleID != saleID {
		t.Errorf("got payment_request.paid data %+v, want request %d paid, cart %d, bookings [%d], sale %d", e, pr.ID, cart.ID, bookingID, saleID)
	}
	if got := f.getCart(t, cart.ID); got.PaymentRequest == nil || got.PaymentRequest.Status != "paid" {
		t.Errorf("got cart payment_request %+v, want it paid", got.PaymentRequest)
	}

	_, err = payments.Settle(ctx, f.db, pr.ID, payments.MethodCash, f.now)
	var refusal *payments.RefusedError
	if !errors.As(err, &refusal) || refusal.Code != payments.CodeInvalidStatus {
		t.Errorf("settling twice: got %v, want %s", err, payments.CodeInvalidStatus)
	}
	if n := f.count("sales"); n != 1 {
		t.Errorf("got %d sales after settling twice, want 1", n)
	}

	resp, raw = f.call("GET", "/v3/sales/"+itoa(saleID), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getSale", resp, raw)
	s := decodeAs[saleResp](t, raw)
	if s.CartID != cart.ID || s.ClientID == nil || *s.ClientID != 1 || s.PaidAmount != "15000.0" || s.PendingAmount != "0.0" ||
		s.Status != "paid" || s.PaidAt != "2026-11-23T12:00:00Z" || s.Location.ID != 1 || s.Location.Name != "Providencia" {
		t.Errorf("got sale %+v, want cart %d, client 1, 15000.0 paid, 0.0 pending, at Providencia", s, cart.ID)
	}
	if len(s.Transactions) != 1 || s.Transactions[0].Amount != "15000.0" || s.Transactions[0].PaymentMethod.Name != "Card terminal" ||
		s.Transactions[0].PaymentMethod.Type != "CompanyPaymentMethod" {
		t.Errorf("got transactions %+v, want one of 15000.0 by card terminal", s.Transactions)
	}

	// The sold booking cannot be sold again.
	again := map[string]any{"client_id": 1, "items": []any{cartItem(map[string]any{
		"instances": []any{map[string]any{"instance_type": "booking", "reference_id": bookingID}}})}}
	resp, raw = f.call("POST", "/v3/carts", again)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "booking_already_sold", "*")
	validateResponse(t, "createCart", resp, raw)
}

// A cart may sell an existing booking: the request reserves nothing (no expiry), and payment
// links the booking to the sale.
func TestSettleExistingBooking(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	existing := f.book(t, nil)
	cart := f.createCart(t, map[string]any{"client_id": 1, "items": []any{cartItem(map[string]any{
		"instances": []any{map[string]any{"instance_type": "booking", "reference_id": existing.ID}}})}})
	if cart.Items[0].ReferenceID == nil || *cart.Items[0].ReferenceID != existing.ID {
		t.Errorf("got reference_id %v, want %d", cart.Items[0].ReferenceID, existing.ID)
	}
	pr := f.createPaymentRequest(t, cart.ID)
	if pr.Params.ExpiresAt != nil {
		t.Errorf("got expires_at %s for a request that reserved nothing, want null", *pr.Params.ExpiresAt)
	}
	saleID, err := payments.Settle(context.Background(), f.db, pr.ID, payments.MethodBankTransfer, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if got := bkCount(t, f, `SELECT sale_id FROM bookings WHERE id = ?`, existing.ID); int64(got) != saleID {
		t.Errorf("got booking sale_id %d, want %d", got, saleID)
	}
	if got := bookingStatus(t, f, existing.ID); got != 1 {
		t.Errorf("got status %d, want the booking left confirmed", got)
	}
}

func TestListSales(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	ctx := context.Background()
	settle := func(clientID int, at time.Time) int64 {
		t.Helper()
		f.now = at
		cart := f.createCart(t, map[string]any{"client_id": clientID, "location_id": 1, "items": []any{cartItem(nil)}})
		pr := f.createPaymentRequest(t, cart.ID)
		id, err := payments.Settle(ctx, f.db, pr.ID, payments.MethodCash, at)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	monday := settle(1, fixtureNow)                                        // Mon 09:00 in Santiago
	lateMonday := settle(2, time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)) // Mon 23:00 in Santiago, Tue in UTC
	tuesday := settle(1, time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC))   // Tue 12:00 in Santiago

	tests := []struct {
		name  string
		query string
		want  []int64
	}{
		{"all", "", []int64{monday, lateMonday, tuesday}},
		{"Monday in Santiago", "?paid_at_start=2026-11-23&paid_at_end=2026-11-23", []int64{monday, lateMonday}},
		{"from Tuesday", "?paid_at_start=2026-11-24", []int64{tuesday}},
		{"until Sunday", "?paid_at_end=2026-11-22", nil},
		{"client 1", "?client_id=1", []int64{monday, tuesday}},
		{"location 1", "?location_id=1", []int64{monday, lateMonday, tuesday}},
		{"location 2", "?location_id=2", nil},
		{"page 2", "?per_page=2&page=2", []int64{tuesday}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, raw := f.call("GET", "/v3/sales"+tc.query, nil)
			wantStatus(t, resp, raw, http.StatusOK)
			validateResponse(t, "listSales", resp, raw)
			var body struct {
				Data       []saleResp `json:"data"`
				Pagination struct {
					TotalRecords int `json:"total_records"`
				} `json:"pagination"`
			}
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, s := range body.Data {
				got = append(got, s.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got sales %v, want %v", got, tc.want)
			}
		})
	}
	for _, tc := range []struct{ query, detail string }{
		{"?paid_at_start=2026-13-01", "invalid_paid_at_start"},
		{"?paid_at_end=yesterday", "invalid_paid_at_end"},
		{"?paid_at_start=2026-11-24&paid_at_end=2026-11-23", "paid_at_end_before_paid_at_start"},
		{"?client_id=x", "invalid_client_id"},
		{"?per_page=101", "invalid_per_page"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			resp, raw := f.call("GET", "/v3/sales"+tc.query, nil)
			wantError(t, resp, raw, http.StatusBadRequest, "bad_request", tc.detail)
			validateResponse(t, "listSales", resp, raw)
		})
	}
	resp, raw := f.call("GET", "/v3/sales/999", nil)
	wantError(t, resp, raw, http.StatusNotFound, "not_found", "sale")
	validateResponse(t, "getSale", resp, raw)
	resp, raw = f.callWithKey(f.newKey("carts:write"), "GET", "/v3/sales", nil)
	wantError(t, resp, raw, http.StatusForbidden, "forbidden", "scope_denied")
	validateResponse(t, "listSales", resp, raw)
}
