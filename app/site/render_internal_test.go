package site

import (
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/managelink"
	"frontdesk/ui/i18n"
)

// renderError's table: each code of the domain's refusals (app/fail) becomes a booking-site
// page a visitor understands, in the domain's words when it has them; an error without a code
// is the generic 500 page.
func TestRenderErrorByCode(t *testing.T) {
	es := i18n.NewPrinter("es", i18n.Prefs{})
	s := &Site{log: slog.New(slog.DiscardHandler)}
	for _, tc := range []struct {
		name   string
		err    error
		status int
		says   string
	}{
		{"no code is internal", errors.New("disk on fire"), 500, es.T("error.internal")},
		{"not found", fmt.Errorf("manage: %w", managelink.ErrNotFound), 404, es.T("site.error.not_found")},
		{"invalid, in the domain's words", &booking.InvalidError{Field: "booking", Message: "cancelled", Msg: i18n.M("booking.invalid.cancelled")},
			400, es.T("booking.invalid.cancelled")},
		{"invalid, without them", fail.Invalid("name", "bad"), 400, es.T("site.error.refused")},
		{"conflict", booking.ErrClassFull, 409, es.T("site.error.conflict")},
		{"forbidden", &booking.RestrictedError{Rule: booking.RuleCanCancel}, 403, es.T("booking.restricted.can_cancel")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodGet, "/book/x", nil)
			s.renderError(w, r.WithContext(i18n.WithPrinter(r.Context(), es)), tc.err)
			if body := html.UnescapeString(w.Body.String()); w.Code != tc.status || !strings.Contains(body, tc.says) {
				t.Errorf("got %d, want %d saying %q:\n%s", w.Code, tc.status, tc.says, body)
			}
		})
	}
}
