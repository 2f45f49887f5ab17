package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/fail"
	"frontdesk/db/dbtest"
)

// Each code of the shared vocabulary (app/fail) becomes its tool error kind, whichever domain
// package said it; an error without a code is internal.
func TestToolErrorKindByCode(t *testing.T) {
	s := &Server{db: dbtest.Open(t, filepath.Join(t.TempDir(), "test.db")), log: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct {
		name        string
		err         error
		kind, field string
	}{
		{"no code is internal", errors.New("disk on fire"), kindInternal, ""},
		{"not found: the booking", fmt.Errorf("get: %w", &booking.NotFoundError{Resource: "booking"}), kindNotFound, "booking_id"},
		{"not found: the client", clients.ErrNotFound, kindNotFound, "client_id"},
		{"not found: what a slot id carried", fail.NotFound("provider"), kindNotFound, "slot_id"},
		{"invalid: the field", clients.Errors{{Field: "email", Message: "not an email address"}}, kindInvalid, "email"},
		{"invalid: a refusal of the whole request", fail.Refused("client_already_deactivated", "already deactivated"), kindInvalid, ""},
		{"conflict: taken", fmt.Errorf("book: %w", booking.ErrSlotUnavailable), kindTaken, "slot_id"},
		{"conflict: class full", booking.ErrClassFull, kindTaken, "slot_id"},
		{"conflict: concurrent", booking.ErrConcurrentChange, kindRetry, ""},
		{"conflict: any other", fail.Conflict("something_else", "changed"), kindRetry, ""},
		{"forbidden", &booking.RestrictedError{Rule: booking.RuleCanCancel}, kindRefused, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			te := s.toToolError(context.Background(), tc.err)
			if te.Kind != tc.kind || te.Field != tc.field {
				t.Errorf("got %s / %q (%s), want %s / %q", te.Kind, te.Field, te.Message, tc.kind, tc.field)
			}
		})
	}
}
