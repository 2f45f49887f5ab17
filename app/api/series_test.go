package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
)

type seriesResp struct {
	SeriesID    *int64 `json:"series_id"`
	Occurrences []struct {
		Date    string      `json:"date"`
		Status  string      `json:"status"`
		Booking *bkResource `json:"booking"`
	} `json:"occurrences"`
}

func seriesReq(mode string) map[string]any {
	b := bkBooking(map[string]any{"repeat": map[string]any{"frequency": "weekly", "count": 4}})
	if mode != "" {
		b["mode"] = mode
	}
	return b
}

// TestSeriesAPI: the check shows the taken date, all or nothing answers 409 naming it, the
// free ones books the rest with series_id, and a cancel with scope=following leaves the
// earlier occurrences.
func TestSeriesAPI(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/bookings", bkBooking(map[string]any{"start_time": "2026-12-08T10:00:00-03:00"}))
	wantStatus(t, resp, raw, http.StatusCreated)

	resp, raw = f.call("POST", "/v3/booking_series/check", seriesReq(""))
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "checkBookingSeries", resp, raw)
	check := decodeAs[seriesResp](t, raw)
	var statuses []string
	for _, o := range check.Occurrences {
		statuses = append(statuses, o.Date+" "+o.Status)
	}
	if want := []string{"2026-11-24 free", "2026-12-01 free", "2026-12-08 taken", "2026-12-15 free"}; !slices.Equal(statuses, want) {
		t.Fatalf("check: %v, want %v", statuses, want)
	}

	resp, raw = f.call("POST", "/v3/booking_series", seriesReq("all_or_nothing"))
	wantStatus(t, resp, raw, http.StatusConflict)
	validateResponse(t, "createBookingSeries", resp, raw)
	var refused struct {
		Detail string   `json:"detail"`
		Dates  []string `json:"unavailable_dates"`
	}
	if err := json.Unmarshal(raw, &refused); err != nil || refused.Detail != "series_unavailable" || !slices.Equal(refused.Dates, []string{"2026-12-08"}) {
		t.Fatalf("all or nothing: %s", raw)
	}

	resp, raw = f.call("POST", "/v3/booking_series", seriesReq("free_ones"))
	wantStatus(t, resp, raw, http.StatusCreated)
	validateResponse(t, "createBookingSeries", resp, raw)
	booked := decodeAs[seriesResp](t, raw)
	var ids []int64
	for _, o := range booked.Occurrences {
		if o.Booking != nil {
			ids = append(ids, o.Booking.ID)
		}
	}
	if booked.SeriesID == nil || len(ids) != 3 {
		t.Fatalf("free ones: %s", raw)
	}

	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel?scope=following", ids[1]), nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	for i, id := range ids {
		resp, raw := f.call("GET", fmt.Sprintf("/v3/bookings/%d", id), nil)
		wantStatus(t, resp, raw, http.StatusOK)
		b := decodeAs[struct {
			StatusID int64  `json:"status_id"`
			SeriesID *int64 `json:"series_id"`
		}](t, raw)
		if want := map[bool]int64{true: 1, false: 5}[i == 0]; b.StatusID != want || b.SeriesID == nil || *b.SeriesID != *booked.SeriesID {
			t.Fatalf("occurrence %d after cancelling the second and following: %s", i, raw)
		}
	}
	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel?scope=sometimes", ids[0]), nil)
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
}

// TestAppointmentWaitlistAPI: a client waits, a cancel frees the time, and of two claims of
// the links at once one books (201) and the other is told it is gone with other times (409).
func TestAppointmentWaitlistAPI(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/bookings", bkBooking(map[string]any{"client_id": 3}))
	wantStatus(t, resp, raw, http.StatusCreated)
	bookingID := decodeAs[bkResource](t, raw).ID
	var waits []int64
	for _, c := range []int{1, 2} {
		resp, raw := f.call("POST", "/v3/appointment_waitlist", map[string]any{"client_id": c, "location_id": 1, "service_id": 1,
			"first_date": "2026-11-24", "last_date": "2026-11-26"})
		wantStatus(t, resp, raw, http.StatusCreated)
		validateResponse(t, "joinAppointmentWaitlist", resp, raw)
		waits = append(waits, decodeAs[struct {
			ID int64 `json:"id"`
		}](t, raw).ID)
	}
	resp, raw = f.call("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", bookingID), nil)
	wantStatus(t, resp, raw, http.StatusNoContent)

	var tokens []string
	for _, w := range waits {
		var detail string
		err := f.db.Read.QueryRow(`SELECT m.detail_json FROM messages m JOIN appointment_offers o ON o.id = m.offer_id
			WHERE o.wait_id = ? AND m.kind = 'waitlist_offer'`, w).Scan(&detail)
		if err != nil {
			t.Fatalf("wait %d: no claim link message: %v", w, err)
		}
		tokens = append(tokens, decodeAs[struct {
			Token string `json:"token"`
		}](t, []byte(detail)).Token)
	}
	type answer struct {
		resp *http.Response
		raw  []byte
	}
	answers := make([]answer, 2)
	race(2, func(i int) {
		r, b := f.call("POST", "/v3/appointment_waitlist/claims", map[string]any{"token": tokens[i]})
		answers[i] = answer{r, b}
	})
	codes := []int{answers[0].resp.StatusCode, answers[1].resp.StatusCode}
	slices.Sort(codes)
	if !slices.Equal(codes, []int{http.StatusCreated, http.StatusConflict}) {
		t.Fatalf("two claims at once: %d %s / %d %s", answers[0].resp.StatusCode, answers[0].raw, answers[1].resp.StatusCode, answers[1].raw)
	}
	for _, a := range answers {
		validateResponse(t, "claimAppointmentOffer", a.resp, a.raw)
		if a.resp.StatusCode == http.StatusConflict {
			var gone struct {
				Detail       string            `json:"detail"`
				Alternatives []json.RawMessage `json:"alternatives"`
			}
			if err := json.Unmarshal(a.raw, &gone); err != nil || gone.Detail != "offer_gone" || len(gone.Alternatives) == 0 {
				t.Fatalf("the loser: %s", a.raw)
			}
		}
	}
	resp, raw = f.call("GET", fmt.Sprintf("/v3/appointment_waitlist/%d", waits[0]), nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getAppointmentWait", resp, raw)
	resp, raw = f.call("POST", "/v3/appointment_waitlist/claims", map[string]any{"token": "nope"})
	wantStatus(t, resp, raw, http.StatusUnprocessableEntity)
}

// race runs fn(0…n-1) in n goroutines released together.
func race(n int, fn func(i int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			fn(i)
		})
	}
	close(start)
	wg.Wait()
}
