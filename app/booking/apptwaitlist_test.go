package booking

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"frontdesk/db"
)

// addClients adds clients 2…n+1 to a store fixture.
func addClients(t *testing.T, d *db.DB, n int) {
	t.Helper()
	for i := 2; i <= n+1; i++ {
		if _, err := d.Write.Exec(`INSERT INTO clients (id, first_name, email, created_at, updated_at) VALUES (?, ?, ?, 0, 0)`,
			i, fmt.Sprintf("C%d", i), fmt.Sprintf("c%d@example.com", i)); err != nil {
			t.Fatal(err)
		}
	}
}

func wait(t *testing.T, d *db.DB, client, provider int64) db.AppointmentWait {
	t.Helper()
	w, err := JoinAppointmentWaitlist(context.Background(), d, storeNow, WaitRequest{LocationID: 1, ServiceID: 1, ProviderID: provider,
		ClientID: client, First: mustDate(t, "2026-11-24"), Last: mustDate(t, "2026-11-27"), Source: SourceConnect})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// offerTokens are the claim-link tokens the messages of wait w carry, in order.
func offerTokens(t *testing.T, d *db.DB, w db.AppointmentWait) []string {
	t.Helper()
	rows, err := d.R.OfferMessages(context.Background(), w.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range rows {
		var dj struct {
			Token string `json:"token"`
		}
		if err := json.Unmarshal([]byte(m.DetailJson), &dj); err != nil || dj.Token == "" {
			t.Fatalf("offer message %d: no token in %s", m.ID, m.DetailJson)
		}
		out = append(out, dj.Token)
	}
	return out
}

// TestCancelOffersFreedTime: a cancel sends claim links to the first OfferFanout clients
// waiting for that time (the provider's, or anyone), in the order they joined; those waiting
// for another provider or other days get none.
func TestCancelOffersFreedTime(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 2)
	addClients(t, d, 6)
	v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-25 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	other := wait(t, d, 2, 2) // waits for provider 2 only
	var waits []db.AppointmentWait
	for c := int64(3); c <= 7; c++ {
		provider := int64(0)
		if c == 4 {
			provider = 1
		}
		waits = append(waits, wait(t, d, c, provider))
	}
	if err := Cancel(ctx, d, storeNow, v.Booking.ID, SourceConnect); err != nil {
		t.Fatal(err)
	}
	if n := len(offerTokens(t, d, other)); n != 0 {
		t.Fatalf("the client waiting for provider 2 got %d claim links", n)
	}
	for i, w := range waits {
		want := 0
		if i < OfferFanout {
			want = 1
		}
		if n := len(offerTokens(t, d, w)); n != want {
			t.Fatalf("client %d (joined %d.): %d claim links, want %d", w.ClientID, i+1, n, want)
		}
	}
}

// TestClaimRace: two clients claim the same freed time at once; exactly one books it, the
// other is told it is gone and shown other free times. A claim link used again is gone too.
func TestClaimRace(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	addClients(t, d, 2)
	v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-25 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	w2, w3 := wait(t, d, 2, 0), wait(t, d, 3, 1)
	if err := Cancel(ctx, d, storeNow, v.Booking.ID, SourceConnect); err != nil {
		t.Fatal(err)
	}
	tokens := []string{offerTokens(t, d, w2)[0], offerTokens(t, d, w3)[0]}
	results := make([]error, 2)
	views := make([]View, 2)
	race(2, func(i int) { views[i], results[i] = ClaimOffer(ctx, d, storeNow, tokens[i], SourceOnline) })
	won := -1
	for i, err := range results {
		var gone *OfferGoneError
		switch {
		case err == nil:
			if won >= 0 {
				t.Fatal("both claimers booked the time")
			}
			won = i
		case errors.As(err, &gone):
			if len(gone.Alternatives) == 0 {
				t.Fatal("the loser was shown no other times")
			}
		default:
			t.Fatalf("claim %d: %v", i, err)
		}
	}
	if won < 0 {
		t.Fatal("nobody booked the freed time")
	}
	if got := views[won].Booking; got.StartAt != v.Booking.StartAt || got.ClientID != []int64{2, 3}[won] {
		t.Fatalf("the winner's booking: %+v", got)
	}
	var gone *OfferGoneError
	if _, err := ClaimOffer(ctx, d, storeNow, tokens[won], SourceOnline); !errors.As(err, &gone) {
		t.Fatalf("a claim link used again: %v, want gone", err)
	}
	w, err := GetAppointmentWait(ctx, d.R, []int64{w2.ID, w3.ID}[won])
	if err != nil || w.Status != WaitBooked || w.BookingID.Int64 != views[won].Booking.ID {
		t.Fatalf("the winner's wait: %+v (%v)", w, err)
	}
	wantNoOverlaps(t, d)
}

// TestClaimManyRacers: of many claimers of one time, exactly one books.
func TestClaimManyRacers(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	addClients(t, d, OfferFanout)
	v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-26 15:00")))
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	var waits []db.AppointmentWait
	for c := int64(2); c < int64(2+OfferFanout); c++ {
		waits = append(waits, wait(t, d, c, 0))
	}
	if err := Cancel(ctx, d, storeNow, v.Booking.ID, SourceAdmin); err != nil {
		t.Fatal(err)
	}
	for _, w := range waits {
		tokens = append(tokens, offerTokens(t, d, w)[0])
	}
	n := 4 * len(tokens) // each link claimed four times at once
	results := make([]error, n)
	race(n, func(i int) { _, results[i] = ClaimOffer(ctx, d, storeNow, tokens[i%len(tokens)], SourceOnline) })
	wins := 0
	for i, err := range results {
		var gone *OfferGoneError
		switch {
		case err == nil:
			wins++
		case !errors.As(err, &gone):
			t.Fatalf("claim %d: %v", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d claimers booked the time, want 1", wins)
	}
	wantNoOverlaps(t, d)
}

// TestWaitlistActivityTrail: the trail records, for each wait, its join, the claim link sent
// when a time frees, the claim that books it, a link used past its time (once, however often
// it is used), and leaving.
func TestWaitlistActivityTrail(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	addClients(t, d, 3)
	v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-25 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	w2, w3, w4 := wait(t, d, 2, 0), wait(t, d, 3, 0), wait(t, d, 4, 0)
	if err := Cancel(ctx, d, storeNow, v.Booking.ID, SourceConnect); err != nil {
		t.Fatal(err)
	}
	late := storeNow.Add(25 * time.Hour)
	var gone *OfferGoneError
	for range 2 {
		if _, err := ClaimOffer(ctx, d, late, offerTokens(t, d, w3)[0], SourceOnline); !errors.As(err, &gone) {
			t.Fatalf("a claim past the link's time: %v, want gone", err)
		}
	}
	if _, err := ClaimOffer(ctx, d, storeNow, offerTokens(t, d, w2)[0], SourceOnline); err != nil {
		t.Fatal(err)
	}
	if _, err := LeaveAppointmentWaitlist(ctx, d, storeNow, w4.ID); err != nil {
		t.Fatal(err)
	}
	rows, err := d.Read.Query(`SELECT action, entity_id FROM activity WHERE entity = 'appointment_wait' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var action string
		var id int64
		if err := rows.Scan(&action, &id); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d", action, id))
	}
	want := []string{
		fmt.Sprintf("%s %d", ActionWaitJoined, w2.ID), fmt.Sprintf("%s %d", ActionWaitJoined, w3.ID), fmt.Sprintf("%s %d", ActionWaitJoined, w4.ID),
		fmt.Sprintf("%s %d", ActionWaitOfferSent, w2.ID), fmt.Sprintf("%s %d", ActionWaitOfferSent, w3.ID), fmt.Sprintf("%s %d", ActionWaitOfferSent, w4.ID),
		fmt.Sprintf("%s %d", ActionWaitOfferExpired, w3.ID),
		fmt.Sprintf("%s %d", ActionWaitClaimed, w2.ID),
		fmt.Sprintf("%s %d", ActionWaitLeft, w4.ID),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("trail:\n%v\nwant\n%v", got, want)
	}
}
