package api

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"frontdesk/app/payments"
)

// The seeded business (fixture_test.go): now is Monday 2026-11-23 09:00 in Santiago. Ben (2)
// cuts hair (service 1, 30 min) at Providencia (location 1); Tuesday 10:00 in Santiago is
// 13:00 UTC.

const (
	benTuesday10 = "2026-11-24T13:00:00Z" // 10:00 in Santiago
	benSlot      = "2026-11-24 10:00-10:30 Ben 2026-11-24T10:00:00-03:00"
)

// cartItem is a haircut line; overrides replace fields, nil values remove them.
func cartItem(overrides map[string]any) map[string]any {
	it := map[string]any{"item_id": 1, "item_type": "service", "unit_price": "15000", "quantity": 1}
	maps.Copy(it, overrides)
	for k, v := range it {
		if v == nil {
			delete(it, k)
		}
	}
	return it
}

// bookingInstance asks for Ben at start when the payment request is raised.
func bookingInstance(start string) []any {
	return []any{map[string]any{"instance_type": "booking", "reference_id": nil,
		"data": map[string]any{"start_time": start, "provider_id": 2}}}
}

// haircutCart is a cart for Maria at Providencia: a haircut with Ben on Tuesday at 10:00.
func haircutCart() map[string]any {
	return map[string]any{"client_id": 1, "location_id": 1, "note": "first visit",
		"items": []any{cartItem(map[string]any{"instances": bookingInstance(benTuesday10)})}}
}

// cartResp and paymentRequestResp are the parts of the resources the tests read.
type cartResp struct {
	ID            int64   `json:"id"`
	UUID          string  `json:"uuid"`
	ClientID      *int64  `json:"client_id"`
	Total         string  `json:"total"`
	Subtotal      string  `json:"subtotal"`
	Discount      string  `json:"discount"`
	Note          *string `json:"note"`
	OnlinePayment bool    `json:"online_payment"`
	Items         []struct {
		ID          string `json:"id"`
		ItemName    string `json:"item_name"`
		TotalPrice  string `json:"total_price"`
		ReferenceID *int64 `json:"reference_id"`
	} `json:"items"`
	PaymentRequest *paymentRequestResp `json:"payment_request"`
}

type paymentRequestResp struct {
	ID     int64  `json:"id"`
	UUID   string `json:"uuid"`
	CartID int64  `json:"cart_id"`
	Amount string `json:"amount"`
	Status string `json:"status"`
	Params struct {
		CheckoutURL string  `json:"checkout_url"`
		ExpiresAt   *string `json:"expires_at"`
	} `json:"params"`
}

// enablePayments turns online payments on and makes every service payable online.
func (f *fixture) enablePayments(t *testing.T) {
	t.Helper()
	bkExec(t, f, `UPDATE company SET online_payments = 1`)
	bkExec(t, f, `UPDATE services SET online_payment_mode = 'OPTIONAL'`)
}

func (f *fixture) createCart(t *testing.T, body any) cartResp {
	t.Helper()
	resp, raw := f.call("POST", "/v3/carts", body)
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createCart", resp, raw)
	return decodeAs[cartResp](t, raw)
}

func (f *fixture) getCart(t *testing.T, id int64) cartResp {
	t.Helper()
	resp, raw := f.call("GET", "/v3/carts/"+itoa(id), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getCart", resp, raw)
	return decodeAs[cartResp](t, raw)
}

func (f *fixture) createPaymentRequest(t *testing.T, cartID int64) paymentRequestResp {
	t.Helper()
	resp, raw := f.call("POST", "/v3/carts/"+itoa(cartID)+"/payment_requests", nil)
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createPaymentRequest", resp, raw)
	return decodeAs[paymentRequestResp](t, raw)
}

func decodeAs[T any](t *testing.T, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// benOffered reports whether Ben's Tuesday 10:00 haircut is offered.
func (f *fixture) benOffered(t *testing.T) bool {
	t.Helper()
	slots := f.getSlots(t, "location_id=1&service_id=1&provider_id=2&start_date=2026-11-24")
	return slices.Contains(slots.short(), benSlot)
}

func bookingStatus(t *testing.T, f *fixture, id int64) int {
	t.Helper()
	return bkCount(t, f, `SELECT status_id FROM bookings WHERE id = ?`, id)
}

func eventTypesOf(t *testing.T, f *fixture) []string {
	t.Helper()
	var out []string
	for _, e := range bkEvents(t, f) {
		out = append(out, e.Type)
	}
	return out
}

// The checkout flow of the reference guide: a cart with an on-demand booking, a payment
// request that reserves it (the slot is no longer offered), and a cancel that releases it.
func TestCartToPaymentRequestToCancel(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	if !f.benOffered(t) {
		t.Fatal("Ben's Tuesday 10:00 is not offered before the test; the fixture changed")
	}
	cart := f.createCart(t, haircutCart())
	if cart.Total != "15000.0" || cart.Subtotal != "15000.0" || cart.Discount != "0.0" || !cart.OnlinePayment {
		t.Errorf("got total %s subtotal %s discount %s online %v, want 15000.0, 15000.0, 0.0, true", cart.Total, cart.Subtotal, cart.Discount, cart.OnlinePayment)
	}
	if len(cart.Items) != 1 || cart.Items[0].ItemName != "Haircut" || cart.Items[0].ReferenceID != nil {
		t.Fatalf("got items %+v, want one Haircut without a booking yet", cart.Items)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM bookings`); n != 0 {
		t.Fatalf("got %d bookings after creating the cart, want 0 (bookings are made with the payment request)", n)
	}

	pr := f.createPaymentRequest(t, cart.ID)
	if pr.Status != "pending" || pr.Amount != "15000.0" || pr.CartID != cart.ID {
		t.Errorf("got status %s amount %s cart %d, want pending 15000.0 %d", pr.Status, pr.Amount, pr.CartID, cart.ID)
	}
	if want := "https://book.example.test/pay/" + pr.UUID; pr.Params.CheckoutURL != want {
		t.Errorf("got checkout_url %q, want %q", pr.Params.CheckoutURL, want)
	}
	if want := "2026-11-23T12:15:00Z"; pr.Params.ExpiresAt == nil || *pr.Params.ExpiresAt != want {
		t.Errorf("got expires_at %v, want %s (now + the default 15 minutes)", pr.Params.ExpiresAt, want)
	}
	bookingID := int64(bkCount(t, f, `SELECT id FROM bookings WHERE payment_request_id = ?`, pr.ID))
	if got := bookingStatus(t, f, bookingID); got != 2 {
		t.Fatalf("got booking status %d, want 2 (reserved)", got)
	}
	if f.benOffered(t) {
		t.Error("Ben's Tuesday 10:00 is still offered while the payment request holds it")
	}
	cart = f.getCart(t, cart.ID)
	if cart.Items[0].ReferenceID == nil || *cart.Items[0].ReferenceID != bookingID {
		t.Errorf("got item reference_id %v, want the reserved booking %d", cart.Items[0].ReferenceID, bookingID)
	}
	if cart.PaymentRequest == nil || cart.PaymentRequest.ID != pr.ID {
		t.Errorf("got cart payment_request %+v, want request %d", cart.PaymentRequest, pr.ID)
	}

	resp, raw := f.call("PATCH", "/v3/payment_requests/"+itoa(pr.ID)+"/cancel", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "cancelPaymentRequest", resp, raw)
	if got := decodeAs[paymentRequestResp](t, raw); got.Status != "cancelled" {
		t.Errorf("got status %s after cancel, want cancelled", got.Status)
	}
	if got := bookingStatus(t, f, bookingID); got != 5 {
		t.Errorf("got booking status %d after cancel, want 5 (released)", got)
	}
	if !f.benOffered(t) {
		t.Error("Ben's Tuesday 10:00 is not offered again after the cancel")
	}
	if got, want := eventTypesOf(t, f), []string{"booking.created", "booking.updated"}; !slices.Equal(got, want) {
		t.Errorf("got events %v, want %v", got, want)
	}

	resp, raw = f.call("PATCH", "/v3/payment_requests/"+itoa(pr.ID)+"/cancel", nil)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "payment_request_invalid_status", "*")
	validateResponse(t, "cancelPaymentRequest", resp, raw)
	resp, raw = f.call("PATCH", "/v3/payment_requests/999/cancel", nil)
	wantError(t, resp, raw, http.StatusNotFound, "payment_request_not_found", "")
	validateResponse(t, "cancelPaymentRequest", resp, raw)
}

// A new payment request cancels the pending one and releases its booking in the same
// transaction, so it can reserve the same time again.
func TestNewPaymentRequestReplacesPending(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	cart := f.createCart(t, haircutCart())
	first := f.createPaymentRequest(t, cart.ID)
	second := f.createPaymentRequest(t, cart.ID)
	if second.ID == first.ID || second.Status != "pending" {
		t.Fatalf("got second request %+v, want a new pending one", second)
	}
	statuses := bkCount(t, f, `SELECT count(*) FROM payment_requests WHERE id = ? AND status = 'cancelled'`, first.ID)
	if statuses != 1 {
		t.Errorf("the first request is not cancelled")
	}
	if n := bkCount(t, f, `SELECT count(*) FROM bookings WHERE status_id = 2`); n != 1 {
		t.Errorf("got %d reserved bookings, want 1 (the second request's)", n)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM bookings WHERE payment_request_id = ? AND status_id = 5`, first.ID); n != 1 {
		t.Errorf("got %d released bookings of the first request, want 1", n)
	}
}

// A taken time is a 409 and nothing is written: no request, no booking, no event.
func TestPaymentRequestSlotTaken(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	cart := f.createCart(t, haircutCart())
	f.book(t, map[string]any{"client_id": 2}) // Ben, Tuesday 10:00 Santiago
	before := [3]int{f.count("payment_requests"), f.count("bookings"), f.count("events")}
	resp, raw := f.call("POST", "/v3/carts/"+itoa(cart.ID)+"/payment_requests", nil)
	wantError(t, resp, raw, http.StatusConflict, "conflict", "slot_unavailable")
	validateResponse(t, "createPaymentRequest", resp, raw)
	if after := [3]int{f.count("payment_requests"), f.count("bookings"), f.count("events")}; after != before {
		t.Errorf("got (requests, bookings, events) %v after the refusal, want %v", after, before)
	}
}

func TestPaymentRequestRefusals(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	withOffset := haircutCart()
	withOffset["items"] = []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-24T10:00:00-03:00")})}
	offsetCart := f.createCart(t, withOffset) // accepted here, refused when reserved (the reference's rule)
	plain := f.createCart(t, map[string]any{"items": []any{cartItem(nil)}})
	massage := f.createCart(t, map[string]any{"items": []any{cartItem(map[string]any{"item_id": 4})}})
	bkExec(t, f, `UPDATE services SET online_payment_mode = 'NOT_AVAILABLE' WHERE id = 4`)
	closed := haircutCart()
	closed["items"] = []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-29T13:00:00Z")})} // a Sunday
	closedCart := f.createCart(t, closed)

	tests := []struct {
		name         string
		cart         int64
		setup        string
		status       int
		code, detail string
	}{
		{"non-UTC start", offsetCart.ID, "", 422, "invalid_start_time", "*"},
		{"service not payable online", massage.ID, "", 422, "company_payments_disabled", "*"},
		{"closed day", closedCart.ID, "", 422, "unprocessable_entity", "*"},
		{"unknown cart", 999, "", 404, "cart_not_found", ""},
		{"payments disabled", plain.ID, `UPDATE company SET online_payments = 0`, 422, "company_payments_disabled", "*"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != "" {
				bkExec(t, f, tc.setup)
			}
			before := [3]int{f.count("payment_requests"), f.count("bookings"), f.count("events")}
			resp, raw := f.call("POST", "/v3/carts/"+itoa(tc.cart)+"/payment_requests", nil)
			wantError(t, resp, raw, tc.status, tc.code, tc.detail)
			validateResponse(t, "createPaymentRequest", resp, raw)
			if after := [3]int{f.count("payment_requests"), f.count("bookings"), f.count("events")}; after != before {
				t.Errorf("got (requests, bookings, events) %v after the refusal, want %v", after, before)
			}
		})
	}
	if got := f.getCart(t, massage.ID); got.OnlinePayment {
		t.Error("a cart with a service that is not payable online says online_payment true")
	}
}

// PATCH replaces the items; a pending request is cancelled first and its booking released.
func TestUpdateCart(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	cart := f.createCart(t, haircutCart())
	pr := f.createPaymentRequest(t, cart.ID)

	body := `{"note":null,"items":[{"item_id":7,"item_type":"addon","item_name":"Shampoo","unit_price":"4990.5","quantity":2,"unit_discount":"10","unit_discount_type":"percentage"}]}`
	resp, raw := f.call("PATCH", "/v3/carts/"+itoa(cart.ID), body)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "updateCart", resp, raw)
	got := decodeAs[cartResp](t, raw)
	if got.Note != nil || len(got.Items) != 1 || got.Items[0].ItemName != "Shampoo" {
		t.Errorf("got note %v items %+v, want no note and the one Shampoo line", got.Note, got.Items)
	}
	// 2 × 4990.50 = 9981.00, less 10 % per unit (499.05 each) = 8982.90.
	if got.Subtotal != "9981.0" || got.Discount != "998.1" || got.Total != "8982.9" {
		t.Errorf("got subtotal %s discount %s total %s, want 9981.0, 998.1, 8982.9", got.Subtotal, got.Discount, got.Total)
	}
	if got.PaymentRequest == nil || got.PaymentRequest.Status != "cancelled" {
		t.Errorf("got payment_request %+v, want the pending one cancelled", got.PaymentRequest)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM bookings WHERE payment_request_id = ? AND status_id = 5`, pr.ID); n != 1 {
		t.Errorf("got %d released bookings, want 1", n)
	}

	resp, raw = f.call("PATCH", "/v3/carts/"+itoa(cart.ID), `{"client_id":null,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1,"instances":[{"instance_type":"booking","reference_id":null,"data":{"start_time":"`+benTuesday10+`","provider_id":2}}]}]}`)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "client_id: is required when an item books a service")
	validateResponse(t, "updateCart", resp, raw)
	resp, raw = f.call("PATCH", "/v3/carts/999", `{"note":"x"}`)
	wantError(t, resp, raw, http.StatusNotFound, "cart_not_found", "")
	validateResponse(t, "updateCart", resp, raw)
	resp, raw = f.call("GET", "/v3/carts/999", nil)
	wantError(t, resp, raw, http.StatusNotFound, "cart_not_found", "")
	validateResponse(t, "getCart", resp, raw)
}

// A cart is closed 24 hours after it was made, and for good once it is paid.
func TestCartExpiredAndPaid(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	old := f.createCart(t, map[string]any{"items": []any{cartItem(nil)}})
	paid := f.createCart(t, haircutCart())
	pr := f.createPaymentRequest(t, paid.ID)
	if _, err := payments.Settle(context.Background(), f.db, pr.ID, payments.MethodCash, f.now); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(payments.CartTTL)
	for _, tc := range []struct {
		name, method, path, operation string
		body                          any
		code                          string
	}{
		{"update expired", "PATCH", "/v3/carts/" + itoa(old.ID), "updateCart", `{"note":"late"}`, "cart_expired"},
		{"pay expired", "POST", "/v3/carts/" + itoa(old.ID) + "/payment_requests", "createPaymentRequest", nil, "cart_expired"},
		{"update paid", "PATCH", "/v3/carts/" + itoa(paid.ID), "updateCart", `{"note":"again"}`, "cart_paid"},
		{"pay paid", "POST", "/v3/carts/" + itoa(paid.ID) + "/payment_requests", "createPaymentRequest", nil, "cart_paid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, raw := f.call(tc.method, tc.path, tc.body)
			wantError(t, resp, raw, http.StatusUnprocessableEntity, tc.code, "*")
			validateResponse(t, tc.operation, resp, raw)
		})
	}
	if got := f.getCart(t, old.ID); got.Note != nil {
		t.Errorf("an expired cart was changed: note %q", *got.Note)
	}
}

func TestCreateCartIdempotent(t *testing.T) {
	f := newFixture(t)
	body := haircutCart()
	resp1, raw1 := f.call("POST", "/v3/carts", body, "Idempotency-Key", "cart-1")
	wantStatus(t, resp1, raw1, http.StatusCreated)
	resp2, raw2 := f.call("POST", "/v3/carts", body, "Idempotency-Key", "cart-1")
	wantStatus(t, resp2, raw2, http.StatusCreated)
	validateResponse(t, "createCart", resp2, raw2)
	if string(raw1) != string(raw2) || resp2.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retry: got %s (replayed %q), want the first response %s replayed", raw2, resp2.Header.Get("Idempotent-Replayed"), raw1)
	}
	if n := f.count("carts"); n != 1 {
		t.Errorf("got %d carts after a retried POST, want 1", n)
	}
	body["note"] = "different"
	resp3, raw3 := f.call("POST", "/v3/carts", body, "Idempotency-Key", "cart-1")
	wantError(t, resp3, raw3, http.StatusUnprocessableEntity, "unprocessable_entity", "idempotency_key_reused")
}

// A retried cancel with its Idempotency-Key gets the first answer instead of a 422.
func TestCancelPaymentRequestIdempotent(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	pr := f.createPaymentRequest(t, f.createCart(t, haircutCart()).ID)
	path := "/v3/payment_requests/" + itoa(pr.ID) + "/cancel"
	resp1, raw1 := f.call("PATCH", path, nil, "Idempotency-Key", "cancel-1")
	wantStatus(t, resp1, raw1, http.StatusOK)
	resp2, raw2 := f.call("PATCH", path, nil, "Idempotency-Key", "cancel-1")
	wantStatus(t, resp2, raw2, http.StatusOK)
	validateResponse(t, "cancelPaymentRequest", resp2, raw2)
	if string(raw1) != string(raw2) {
		t.Errorf("retry: got %s, want %s", raw2, raw1)
	}
}

func TestCartScopes(t *testing.T) {
	f := newFixture(t)
	key := f.newKey("sales:read")
	resp, raw := f.callWithKey(key, "POST", "/v3/carts", haircutCart())
	wantError(t, resp, raw, http.StatusForbidden, "forbidden", "scope_denied")
	validateResponse(t, "createCart", resp, raw)
	resp, raw = f.callWithKey(f.newKey("carts:write"), "PATCH", "/v3/payment_requests/1/cancel", nil)
	wantError(t, resp, raw, http.StatusForbidden, "forbidden", "scope_denied")
	validateResponse(t, "cancelPaymentRequest", resp, raw)
	resp, raw = f.callWithKey("", "GET", "/v3/carts/1", nil)
	wantError(t, resp, raw, http.StatusUnauthorized, "unauthorized", "*")
	validateResponse(t, "getCart", resp, raw)
}
