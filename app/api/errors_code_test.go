package api

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/fail"
	"frontdesk/app/payments"
)

// writeError's table: each code of the shared vocabulary (app/fail) becomes its /v3 status and
// {error, detail}, whichever domain package said it, and the handlers' own translations keep
// the reference's answers for a resource; an error without a code is a bare 500.
func TestWriteErrorByCode(t *testing.T) {
	a := &API{log: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"no code is internal", errors.New("disk on fire"), 500, `{"error":"internal_server_error","detail":null}`},
		{"not found", fmt.Errorf("get: %w", clients.ErrNotFound), 404, `{"error":"not_found","detail":"client"}`},
		{"not found without a resource", &fail.Error{Code: fail.CodeNotFound}, 404, `{"error":"not_found","detail":"resource"}`},
		{"invalid: a field", clients.Errors{{Field: "email", Message: "is not an email address"}}, 422,
			`{"error":"unprocessable_entity","detail":"email: is not an email address"}`},
		{"invalid: the request", clients.ErrAlreadyDeactivated, 422, `{"error":"unprocessable_entity","detail":"client_already_deactivated"}`},
		{"conflict", fmt.Errorf("book: %w", booking.ErrSlotUnavailable), 409, `{"error":"conflict","detail":"slot_unavailable"}`},
		{"conflict: a change at the same moment", booking.ErrConcurrentChange, 409, `{"error":"conflict","detail":"concurrent_update"}`},
		{"forbidden", &booking.RestrictedError{Rule: booking.RuleMaxChanges}, 422, `{"error":"restricted","detail":"max_changes"}`},
		{"a record the body refers to", bookingError(&booking.NotFoundError{Resource: "service"}), 422,
			`{"error":"unprocessable_entity","detail":"service_id: no such service"}`},
		{"the booking at the URL", bookingError(&booking.NotFoundError{Resource: "booking"}), 404, `{"error":"not_found","detail":"booking"}`},
		{"the reference's cart_not_found", paymentError(payments.ErrCartNotFound), 404, `{"error":"cart_not_found","detail":null}`},
		{"the reference's payment codes", paymentError(&payments.RefusedError{Code: payments.CodeCartExpired, Detail: "the cart expired"}), 422,
			`{"error":"cart_expired","detail":"the cart expired"}`},
		{"a sale is not_found", paymentError(payments.ErrSaleNotFound), 404, `{"error":"not_found","detail":"sale"}`},
		{"the reference's location_not_found", slotsError(&booking.NotFoundError{Resource: "location"}), 404, `{"error":"location_not_found","detail":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			a.writeError(w, httptest.NewRequest(http.MethodGet, "/v3/x", nil), tc.err)
			if w.Code != tc.status || w.Body.String() != tc.body+"\n" && w.Body.String() != tc.body {
				t.Errorf("got %d %s, want %d %s", w.Code, w.Body.String(), tc.status, tc.body)
			}
		})
	}
}
