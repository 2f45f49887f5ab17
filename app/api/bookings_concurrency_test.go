package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// bkAttempt is one concurrent request and what came back.
type bkAttempt struct {
	set    int // the overlapping set it belongs to
	method string
	path   string
	body   string
	status int
	resp   []byte
	err    error
}

// race sends every attempt at once from its own goroutine (a real HTTP client each) and waits.
func (f *fixture) race(attempts []*bkAttempt) {
	var start, done sync.WaitGroup
	start.Add(1)
	for _, a := range attempts {
		done.Add(1)
		go func() {
			defer done.Done()
			req, err := http.NewRequest(a.method, f.srv.URL+a.path, bytes.NewReader([]byte(a.body)))
			if err != nil {
				a.err = err
				return
			}
			req.Header.Set("Authorization", "Bearer "+f.key)
			req.Header.Set("Content-Type", "application/json")
			client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
			start.Wait()
			resp, err := client.Do(req)
			if err != nil {
				a.err = err
				return
			}
			defer resp.Body.Close()
			a.status = resp.StatusCode
			a.resp, a.err = io.ReadAll(resp.Body)
		}()
	}
	start.Done()
	done.Wait()
}

// wantOneWinnerPerSet checks that each set has exactly one success and every other attempt got
// 409 slot_unavailable.
func wantOneWinnerPerSet(t *testing.T, attempts []*bkAttempt, sets int, success int) {
	t.Helper()
	wins := make([]int, sets)
	for _, a := range attempts {
		switch {
		case a.err != nil:
			t.Fatalf("%s %s: %v", a.method, a.path, a.err)
		case a.status == success:
			wins[a.set]++
		case a.status == http.StatusConflict:
			var e struct{ Error, Detail string }
			if json.Unmarshal(a.resp, &e) != nil || e.Error != "conflict" || e.Detail != "slot_unavailable" {
				t.Fatalf("loser got %s, want conflict/slot_unavailable", a.resp)
			}
		default:
			t.Fatalf("%s %s %s: got %d %s, want %d or 409", a.method, a.path, a.body, a.status, a.resp, success)
		}
	}
	for set, n := range wins {
		if n != 1 {
			t.Fatalf("set %d: got %d winners, want exactly 1", set, n)
		}
	}
}

// TestConcurrentBookingsHTTP: 50 clients try to book Ben on Tuesday in five overlapping sets
// (ten attempts each, at the set's hour or 15 minutes later, so every two attempts of a set
// overlap and no two sets do). Exactly one per set may win.
func TestConcurrentBookingsHTTP(t *testing.T) {
	f := newFixture(t)
	hours := []int{9, 10, 11, 12, 14}
	var attempts []*bkAttempt
	for i := range 50 {
		set := i % len(hours)
		minute := 15 * (i / len(hours) % 2)
		body, _ := json.Marshal(bkBooking(map[string]any{
			"start_time": fmt.Sprintf("2026-11-24T%02d:%02d:00-03:00", hours[set], minute),
			"client_id":  1 + i%3,
		}))
		attempts = append(attempts, &bkAttempt{set: set, method: "POST", path: "/v3/bookings", body: string(body)})
	}
	f.race(attempts)
	wantOneWinnerPerSet(t, attempts, len(hours), http.StatusCreated)
	wantNoOverlaps(t, f)
	if n := bkCount(t, f, `SELECT count(*) FROM bookings`); n != len(hours) {
		t.Fatalf("got %d bookings, want %d", n, len(hours))
	}
	if n := bkCount(t, f, `SELECT count(*) FROM events WHERE type = 'booking.created'`); n != len(hours) {
		t.Fatalf("got %d booking.created events, want %d (one per winner)", n, len(hours))
	}
}

// TestConcurrentReschedulesHTTP: reschedules race creates. Ben has 25 bookings on Wednesday and
// Thursday; 25 clients PATCH one each onto one of five contested Tuesday hours while 25 others
// try to create bookings there. Per hour exactly one request wins, whichever kind it is.
func TestConcurrentReschedulesHTTP(t *testing.T) {
	f := newFixture(t)
	var ids []int64
	for day := 25; day <= 26; day++ {
		for m := 9 * 60; m < 17*60 && len(ids) < 25; m += 30 {
			if m >= 13*60 && m < 14*60 {
				continue
			}
			b := f.book(t, map[string]any{"start_time": fmt.Sprintf("2026-11-%02dT%02d:%02d:00-03:00", day, m/60, m%60)})
			ids = append(ids, b.ID)
		}
	}
	hours := []int{9, 10, 11, 12, 14}
	var attempts []*bkAttempt
	for i := range 50 {
		set := i % len(hours)
		start := fmt.Sprintf("2026-11-24T%02d:%02d:00-03:00", hours[set], 15*(i/len(hours)%2))
		if i%2 == 0 {
			body, _ := json.Marshal(bkBooking(map[string]any{"start_time": start}))
			attempts = append(attempts, &bkAttempt{set: set, method: "POST", path: "/v3/bookings", body: string(body)})
			continue
		}
		attempts = append(attempts, &bkAttempt{set: set, method: "PATCH", path: fmt.Sprintf("/v3/bookings/%d", ids[i/2]),
			body: fmt.Sprintf(`{"start_time":%q}`, start)})
	}
	f.race(attempts)
	wins := make([]int, len(hours))
	for _, a := range attempts {
		switch {
		case a.err != nil:
			t.Fatal(a.err)
		case a.status == http.StatusCreated || a.status == http.StatusOK:
			wins[a.set]++
		case a.status != http.StatusConflict:
			t.Fatalf("%s %s: got %d %s, want a win or 409", a.method, a.path, a.status, a.resp)
		}
	}
	for set, n := range wins {
		if n != 1 {
			t.Fatalf("hour %d: got %d winners, want exactly 1", hours[set], n)
		}
	}
	wantNoOverlaps(t, f)
	if n := bkCount(t, f, `SELECT count(*) FROM bookings WHERE start_at >= 1795489200000 AND start_at < 1795575600000`); n != len(hours) {
		t.Fatalf("got %d bookings on Tuesday, want %d", n, len(hours))
	}
}
