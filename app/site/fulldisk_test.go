package site_test

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db/dbtest"
)

// On a full disk (a real 8 MB file system, mounted for the test) the booking site answered 500
// and logged an error per request, where the API and the admin answer 507. It now answers 507
// with Retry-After, as they do, and a page that asks the customer to try again later (a cancel
// too); pages
// that only show go on, nothing is logged as an error, and once there is room again bookings
// go through.
func TestFullDiskTryAgainLater(t *testing.T) {
	dir := dbtest.Tmpfs(t, "8m")
	logs := &lockedBuffer{}
	f := newFixtureIn(t, dir, withLog(logs))
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.bookAt(at)
	form := f.details(haircut, f.ana, at.Add(time.Hour)) // a form to fill again for each time
	book := func(i int) response {
		t.Helper()
		var nonce [16]byte
		rand.Read(nonce[:])
		form.Set("nonce", base64.RawURLEncoding.EncodeToString(nonce[:]))
		form.Set("start", at.Add(time.Duration(i)*30*time.Minute).Format(time.RFC3339))
		return f.post("/book/1/1/details", form)
	}

	free := dbtest.Fill(t, dir)
	var res response
	booked := 0
	for i := 1; i <= 2000; i++ {
		if res = book(i); res.status != http.StatusSeeOther {
			break
		}
		booked++
	}
	if res.status != http.StatusInsufficientStorage || res.header.Get("Retry-After") != "60" {
		t.Fatalf("booking on a full disk after %d bookings: status %d, Retry-After %q; want 507 and 60:\n%.3000s",
			booked, res.status, res.header.Get("Retry-After"), res.body)
	}
	wantBody(t, res, "Please try again later", "nothing was booked or changed")
	res = f.post(manage+"/cancel", nil)
	if res.status != http.StatusInsufficientStorage {
		t.Errorf("cancel on a full disk: status %d, want 507:\n%.3000s", res.status, res.body)
	}
	wantStatus(t, f.get("/book/1"), http.StatusOK)
	wantStatus(t, f.get(manage), http.StatusOK)
	if b := f.bookings(); len(b) != booked+1 || b[0].status == booking.StatusCancelled {
		t.Errorf("%d bookings (the first %+v), want the %d that were confirmed, none cancelled", len(b), b[0], booked+1)
	}

	free()
	if res := book(booked + 2); res.status != http.StatusSeeOther {
		t.Errorf("booking once there is room again: status %d, want 303:\n%.3000s", res.status, res.body)
	}
	if strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Errorf("error-level log lines for a full disk (the storage watcher reports it once):\n%s", logs)
	}
}
