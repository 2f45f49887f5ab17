package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// day_in_the_life sends only changes the business's policy allows (a full run once failed on
// "PATCH /v3/bookings/17060/cancel: 422 restricted/max_changes"): a long run of the mix, with
// the policy of app/booking/change.go as the model, never reschedules or cancels a booking
// already changed max_changes times, nor one it does not own, and does neither when customers
// may not.
func TestDayChangesOnlyWhatThePolicyAllows(t *testing.T) {
	for _, pol := range []struct {
		maxChanges         int
		canEdit, canCancel bool
	}{{3, true, true}, {1, true, true}, {0, true, true}, {3, false, true}, {3, true, false}} {
		d := &day{e: &env{fx: &fixture{maxChanges: pol.maxChanges, canEdit: pol.canEdit, canCancel: pol.canCancel}}}
		dw := &dayWorker{rng: rand.New(rand.NewPCG(7, 15))}
		changes := map[int64]int{} // the appliance's change_count of each live booking
		next := int64(1)
		counts := map[string]int{}
		for range 20_000 {
			kind, i := d.choose(dw, pick(dw.rng))
			counts[kind]++
			switch kind {
			case "create":
				dw.bookings = append(dw.bookings, ownBooking{id: next})
				changes[next] = 0
				next++
			case "reschedule", "cancel":
				if i < 0 || i >= len(dw.bookings) {
					t.Fatalf("%+v: %s of booking index %d of %d", pol, kind, i, len(dw.bookings))
				}
				id := dw.bookings[i].id
				n, live := changes[id]
				switch {
				case !live:
					t.Fatalf("%+v: %s of booking %d, which is not a live booking of this worker", pol, kind, id)
				case pol.maxChanges > 0 && n >= pol.maxChanges:
					t.Fatalf("%+v: %s of booking %d after %d changes: the policy refuses it (max_changes %d)", pol, kind, id, n, pol.maxChanges)
				case kind == "reschedule" && !pol.canEdit, kind == "cancel" && !pol.canCancel:
					t.Fatalf("%+v: %s, which the policy does not allow", pol, kind)
				}
				if kind == "reschedule" {
					changes[id]++
					dw.bookings[i].changes++
				} else {
					delete(changes, id)
					dw.bookings = slices.Delete(dw.bookings, i, i+1)
				}
			default:
				if i != -1 {
					t.Fatalf("%+v: %s got a booking index %d", pol, kind, i)
				}
			}
		}
		// The mix keeps its shape: changes still happen where the policy allows them.
		if pol.canEdit && counts["reschedule"] < 200 || pol.canCancel && counts["cancel"] < 200 {
			t.Fatalf("%+v: got %v; want reschedules and cancels where the policy allows them", pol, counts)
		}
	}
}

// The webhook lag's percentiles are of the timed deliveries; with none they cannot be read,
// and an unreadable lag fails the scenario rather than passing "≤ 1000 ms" as 0 ms.
func TestDayWebhookLag(t *testing.T) {
	lags := []time.Duration{40 * time.Millisecond, 30 * time.Millisecond, 900 * time.Millisecond}
	for range 97 {
		lags = append(lags, 34*time.Millisecond)
	}
	p50, p99 := lagPercentiles(lags)
	if p50 != 34 || p99 != 40 {
		t.Fatalf("got p50 %v p99 %v, want 34 and 40", p50, p99)
	}
	if p50, p99 := lagPercentiles(nil); !math.IsNaN(p50) || !math.IsNaN(p99) {
		t.Fatalf("no lags: got p50 %v p99 %v, want both unreadable", p50, p99)
	}
}
