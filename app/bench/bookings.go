package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"frontdesk/db"
)

// bookingRequest is the POST /v3/bookings body (Connect v3 CreateBookingRequest).
type bookingRequest struct {
	StartTime  string `json:"start_time"`
	ServiceID  int64  `json:"service_id"`
	ProviderID int64  `json:"provider_id"`
	ClientID   int64  `json:"client_id"`
	LocationID int64  `json:"location_id"`
	StatusID   int64  `json:"status_id"`
}

func (e *env) bookingBody(k int64, service, provider int64, start time.Time) []byte {
	body, _ := json.Marshal(bookingRequest{ // a struct of strings and integers always encodes
		StartTime: start.Format(time.RFC3339), ServiceID: service, ProviderID: provider,
		ClientID: e.fx.clients[k%int64(len(e.fx.clients))], LocationID: e.fx.hallLoc, StatusID: 1,
	})
	return body
}

// createBooking books free grid times at the booking hall, each request a time no other
// request asks for, so every one should get 201.
func createBooking(ctx context.Context, e *env) ScenarioReport {
	g := e.fx.hall
	var next atomic.Int64
	book := func(ctx context.Context) (Outcome, error) {
		k := next.Add(1) - 1
		provider, start, err := g.free(k)
		if err != nil {
			return 0, err
		}
		_, err = e.api.do(ctx, http.MethodPost, "/v3/bookings", e.bookingBody(k, e.fx.quick, provider, start), http.StatusCreated)
		return Succeeded, err
	}
	// The first booking is the probe: a missing endpoint is reported as unavailable.
	if _, err := book(ctx); err != nil {
		return *probeOrReport(err)
	}
	res, base, _, err := e.bookingPair(ctx, "create_booking", g, 0, book)
	if err != nil {
		return failed(err)
	}
	res.What = "POST /v3/bookings on free times"
	overlaps, err := serverOverlaps(ctx, e.app.DB)
	if err != nil {
		return failed(err)
	}
	// The ratio to the raw loop is for information, with no target: a booking is a row with its
	// indexes, counters, event, trail entry and messages, against one insert, so even a writer
	// busy all the time stays far under the loop. Creates are judged from outside, against
	// PocketBase's plain insert of the same record (bench/sidebyside.sh, README "Side by side").
	return ScenarioReport{Result: &res, Baseline: &base,
		Facts:   []Fact{{What: "providers", Value: float64(len(g.providers))}},
		targets: []target{atMost("double bookings", "", 0, func(*ScenarioReport) float64 { return float64(overlaps) })}}
}

// conflictingBooking has every group of Concurrency consecutive requests race for three
// overlapping times on one provider: one request per group may win, the rest must get 409.
// Afterwards it sweeps every booking of the database for overlaps; there must be none.
func conflictingBooking(ctx context.Context, e *env) ScenarioReport {
	g := e.fx.raceGrid
	racers := e.cfg.Concurrency
	var next atomic.Int64
	var maxGroup atomic.Int64
	book := func(ctx context.Context) (Outcome, error) {
		k := next.Add(1) - 1
		provider, start, group, err := g.race(k, racers)
		if err != nil {
			return 0, err
		}
		for cur := maxGroup.Load(); group > cur && !maxGroup.CompareAndSwap(cur, group); cur = maxGroup.Load() {
		}
		status, head, err := e.api.doHead(ctx, http.MethodPost, "/v3/bookings", e.bookingBody(k, e.fx.race, provider, start), http.StatusCreated, http.StatusConflict)
		if err != nil {
			return 0, err
		}
		if status == http.StatusConflict {
			// A lost race is exactly this refusal; any other 409 is an error of the system.
			if !strings.Contains(head, `"slot_unavailable"`) {
				return 0, fmt.Errorf("a lost race answered 409 %s, want conflict/slot_unavailable", trimBody(head))
			}
			return Refused, nil
		}
		return Succeeded, nil
	}
	if _, err := book(ctx); err != nil {
		return *probeOrReport(err)
	}
	res, base, baseOverlaps, err := e.bookingPair(ctx, "conflicting_booking", g, racers, book)
	if err != nil {
		return failed(err)
	}
	res.What = fmt.Sprintf("POST /v3/bookings, %d clients racing for each group of 3 overlapping times", racers)
	overlaps, err := serverOverlaps(ctx, e.app.DB)
	if err != nil {
		return failed(err)
	}
	return ScenarioReport{Result: &res, Baseline: &base,
		Facts: []Fact{
			{What: "wins (201)", Value: float64(res.Succeeded)},
			{What: "lost races (409)", Value: float64(res.Refused)},
			{What: "groups raced, warm-up included", Value: float64(maxGroup.Load() + 1)},
			{What: "baseline double bookings", Value: float64(baseOverlaps)},
		},
		targets: []target{atMost("double bookings", "", 0, func(*ScenarioReport) float64 { return float64(overlaps) })}}
}

// bookingPair measures book against the raw SQLite loop over the same grid, interleaved, and
// returns both figures and the overlaps the baseline's own sweep found.
func (e *env) bookingPair(ctx context.Context, name string, g grid, racers int, book func(context.Context) (Outcome, error)) (res, base Figures, baseOverlaps int, err error) {
	raw, err := openRawBookings(ctx, filepath.Join(e.dir, rawName(racers)))
	if err != nil {
		return res, base, 0, err
	}
	defer raw.close()
	err = e.profiled(name, func() {
		res, base = DrivePair(ctx, e.load, func(ctx context.Context, _ int) (Outcome, error) { return book(ctx) }, raw.op(g, racers))
	})
	if err != nil {
		return res, base, 0, err
	}
	base.What = rawWhat
	baseOverlaps, err = raw.overlaps(ctx, base, racers)
	return res, base, baseOverlaps, err
}

// serverOverlaps sweeps the appliance's bookings for two non-cancelled bookings of one provider
// whose busy times overlap.
func serverOverlaps(ctx context.Context, d *db.DB) (int, error) {
	rows, err := d.R.BenchBookingBlocks(ctx)
	if err != nil {
		return 0, fmt.Errorf("read bookings for the overlap sweep: %w", err)
	}
	blocks := make([]block, len(rows))
	for i, r := range rows {
		blocks[i] = block{r.ProviderID, r.BlockStartAt, r.BlockEndAt}
	}
	return countOverlaps(blocks), nil
}
