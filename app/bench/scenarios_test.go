package bench

import (
	"errors"
	"net/http"
	"testing"
)

func TestNotServedTellsMissingFeaturesFromBrokenOnes(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"not implemented", &statusError{"POST", "/v3/bookings", http.StatusNotImplemented, `{"error":"not_implemented"}`}, true},
		{"no such route", &statusError{"GET", "/v3/available_slots", http.StatusNotFound, `{"error":"not_found","detail":"route"}`}, true},
		{"a missing record is an answer", &statusError{"GET", "/v3/services/9", http.StatusNotFound, `{"error":"not_found","detail":"service"}`}, false},
		{"a server error is a failure", &statusError{"GET", "/v3/bookings", http.StatusInternalServerError, `{}`}, false},
		{"no answer at all", errors.New("connection refused"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := notServed(tc.err); got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
