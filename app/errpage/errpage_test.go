package errpage_test

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/errpage"
	"frontdesk/app/fail"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The table: each code of the domain's refusals (app/fail) becomes its page, in the domain's own
// words when it has them and else what the code means; an error without a code is a logged 500
// that shows nothing of the error.
func TestErrorPageByCode(t *testing.T) {
	es := i18n.NewPrinter("es", i18n.Prefs{}) // not the default language: the page speaks the reader's
	for _, tc := range []struct {
		name   string
		err    error
		status int
		says   string // the page's sentence
		logged bool
	}{
		{"no code is internal", errors.New("disk on fire"), 500, es.T("error.internal"), true},
		{"a page error is itself", errpage.CrossOrigin, 403, es.T("error.cross_origin"), false},
		{"not found", fmt.Errorf("show: %w", clients.ErrNotFound), 404, es.T("error.not_found"), false},
		{"invalid, in the domain's words", &booking.InvalidError{Field: "notes", Message: "too long", Msg: i18n.M("booking.invalid.cancelled")},
			400, es.T("booking.invalid.cancelled"), false},
		{"invalid, without them", fail.Invalid("name", "bad"), 400, es.T("error.invalid"), false},
		{"conflict", booking.ErrSlotUnavailable, 409, es.T("error.conflict"), false},
		{"forbidden", &booking.RestrictedError{Rule: booking.RuleCanEdit}, 403, es.T("booking.restricted.can_edit"), false},
		{"forbidden, without words", fail.Forbidden("some_rule", "no"), 403, es.T("error.forbidden"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			p := errpage.Pages{Log: slog.New(slog.NewTextHandler(&log, nil)), Name: "test"}
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodGet, "/x", nil)
			r = r.WithContext(i18n.WithPrinter(r.Context(), es))
			p.Error(w, r, tc.err, func(title string) ui.Page { return ui.Page{Title: title} })
			body := html.UnescapeString(w.Body.String())
			if w.Code != tc.status || !strings.Contains(body, tc.says) {
				t.Errorf("got %d, want %d saying %q:\n%s", w.Code, tc.status, tc.says, body)
			}
			if got := strings.Contains(log.String(), "level=ERROR"); got != tc.logged {
				t.Errorf("logged an error: %v, want %v (%s)", got, tc.logged, log.String())
			}
			if strings.Contains(body, "disk on fire") {
				t.Error("the page shows the internal error")
			}
		})
	}
}
