package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"frontdesk/db"
)

// probe sends GET path once and checks the answer before a scenario measures, so a scenario
// never measures a stream of errors. A status other than 200 is a *statusError. It returns the
// answer, from which scenarios take their facts.
func (e *env) probe(ctx context.Context, path string, check func([]byte) error) ([]byte, error) {
	status, raw, err := e.api.get(ctx, path)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, &statusError{http.MethodGet, path, status, trimBody(string(raw))}
	}
	if err := check(raw); err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return raw, nil
}

// checkEvery is how often a read scenario reads and checks a whole answer while it measures:
// a server that starts answering 200 with the wrong body is caught, at a cost too small to
// move the rate.
const checkEvery = 64

// probeOrReport turns a failed probe into the scenario's report.
func probeOrReport(err error) *ScenarioReport {
	if err == nil {
		return nil
	}
	if why, ok := notServed(err); ok {
		r := unavailable("%s", why)
		return &r
	}
	r := failed(err)
	return &r
}

// readScenario measures GET path against the bare chi baseline, interleaved. check validates an
// answer (it must be safe to call from many workers at once); it runs on the probe and on every
// checkEvery-th answer of the measured runs, and a failed check counts as an error. The probe's
// answer is returned for the scenario's facts.
func (e *env) readScenario(ctx context.Context, name, path string, minRatio float64, check func([]byte) error) (ScenarioReport, []byte) {
	probed, err := e.probe(ctx, path, check)
	if r := probeOrReport(err); r != nil {
		return *r, nil
	}
	b, err := startJSONBaseline()
	if err != nil {
		return failed(err), nil
	}
	defer b.stop()
	bc := newClient(b.URL, "", e.load.Concurrency)
	defer bc.close()
	var res, base Figures
	var n atomic.Int64
	err = e.profiled(name, func() {
		res, base = DrivePair(ctx, e.load, func(ctx context.Context, _ int) (Outcome, error) {
			if n.Add(1)%checkEvery != 0 {
				_, err := e.api.do(ctx, http.MethodGet, path, nil, http.StatusOK)
				return Succeeded, err
			}
			_, err := e.probe(ctx, path, check)
			return Succeeded, err
		}, b.op(bc))
	})
	if err != nil {
		return failed(err), nil
	}
	base.What = jsonBaselineWhat
	res.What = "GET " + path
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", minRatio, ratioOf)}}, probed
}

func readService(ctx context.Context, e *env) ScenarioReport {
	// A demo service when there is one (the first listed), so the answer has the demo's images,
	// providers and keywords; the bench's own service otherwise.
	id := e.fx.quick
	var list struct {
		Data []struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	if status, raw, err := e.api.get(ctx, "/v3/services?per_page=1"); err == nil && status == http.StatusOK &&
		json.Unmarshal(raw, &list) == nil && len(list.Data) > 0 {
		id = list.Data[0].ID
	}
	r, _ := e.readScenario(ctx, "read_service", fmt.Sprintf("/v3/services/%d", id), 0.60, func(raw []byte) error {
		var s struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(raw, &s); err != nil || s.ID != id {
			return fmt.Errorf("got %.80s, want the service with id %d", raw, id)
		}
		return nil
	})
	return r
}

// page is the list envelope, as far as the bench looks at it.
type page struct {
	Data       []json.RawMessage `json:"data"`
	Pagination struct {
		TotalRecords int64 `json:"total_records"`
	} `json:"pagination"`
}

// wantFullPage checks a list answer holds 30 records of at least want.
func wantFullPage(want int64) func([]byte) error {
	return func(raw []byte) error {
		var p page
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("list answer: %w", err)
		}
		if len(p.Data) != 30 || p.Pagination.TotalRecords < want {
			return fmt.Errorf("got %d records of %d, want 30 of at least %d", len(p.Data), p.Pagination.TotalRecords, want)
		}
		return nil
	}
}

// totalRecords is a list answer's total_records (0 for no answer).
func totalRecords(raw []byte) int64 {
	var p page
	json.Unmarshal(raw, &p) // an answer that does not parse has failed wantFullPage already
	return p.Pagination.TotalRecords
}

func listBookings(ctx context.Context, e *env) ScenarioReport {
	path := fmt.Sprintf("/v3/bookings?location_id=%d&per_page=30", e.fx.slotsLoc)
	r, probed := e.readScenario(ctx, "list_bookings", path, 0.30, wantFullPage(int64(e.fx.slotsSeed)))
	r.Facts = append(r.Facts, Fact{What: "bookings at the location", Value: float64(totalRecords(probed))})
	return r
}

func slotsDay(ctx context.Context, e *env) ScenarioReport {
	day := e.fx.slotsDay.Format(time.DateOnly)
	path := fmt.Sprintf("/v3/available_slots?location_id=%d&service_id=%d&start_date=%s", e.fx.slotsLoc, e.fx.quick, day)
	count := func(raw []byte) (int, error) {
		var a struct {
			Data struct {
				Slots []json.RawMessage `json:"slots"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return 0, fmt.Errorf("slots answer: %w", err)
		}
		return len(a.Data.Slots), nil
	}
	var want int // the probe's count: every sampled answer must offer the same slots
	r, probed := e.readScenario(ctx, "slots_day", path, 0.20, func(raw []byte) error {
		n, err := count(raw)
		switch {
		case err != nil:
			return err
		case n == 0:
			return fmt.Errorf("got no slots on %s, want the free steps between the seeded bookings", day)
		case want == 0:
			want = n // the probe, before any worker starts
		case n != want:
			return fmt.Errorf("got %d slots on %s, want the %d of the first answer", n, day, want)
		}
		return nil
	})
	slots, _ := count(probed)
	if r.Result != nil {
		res := *r.Result
		e.slotsDay = &res
	}
	r.Facts = append(r.Facts,
		Fact{What: "providers", Value: slotsProviders},
		Fact{What: "bookings that day", Value: float64(e.fx.slotsSeed)},
		Fact{What: "slots in the answer", Value: float64(slots)})
	return r
}

// listBookings100k seeds cfg.Bookings bookings at the archive location and lists them: a list
// must not slow down with the table (PocketBase counts the whole table on every call).
func listBookings100k(ctx context.Context, e *env) ScenarioReport {
	if e.cfg.Bookings <= 0 {
		return unavailable("skipped: --bookings 0")
	}
	e.progress("seeding %d bookings", e.cfg.Bookings)
	started := time.Now()
	if err := seedArchive(ctx, e.app.DB, e.fx, e.cfg.Bookings, e.cfg.Now()); err != nil {
		return failed(err)
	}
	seeded := time.Since(started)
	path := fmt.Sprintf("/v3/bookings?location_id=%d&per_page=30", e.fx.archiveLoc)
	r, probed := e.readScenario(ctx, "list_bookings_100k", path, 0.30, wantFullPage(int64(e.cfg.Bookings)))
	r.Facts = append(r.Facts,
		Fact{What: "bookings at the location", Value: float64(totalRecords(probed))},
		Fact{What: "seeded in", Value: seeded.Seconds(), Unit: "s"})
	if r.Result == nil { // unavailable or failed
		return r
	}
	// Filters other than a single entity cannot use the maintained counts: time a few requests
	// one at a time, so a list that counts by scanning shows here.
	month := time.Date(e.cfg.Now().Year(), e.cfg.Now().Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -6, 0)
	for _, v := range []struct{ what, query string }{
		{"one at a time: p50", ""},
		{"one at a time, status_id=1: p50", "&status_id=1"},
		{"one at a time, one month: p50", "&start_date=" + month.Format(time.DateOnly) + "&end_date=" + month.AddDate(0, 1, -1).Format(time.DateOnly)},
		// Ranges have no length limit (docs/api.md): every date there is counts on the index.
		{"one at a time, every date: p50", "&start_date=0001-01-01&end_date=9999-12-31"},
	} {
		p50, err := e.sequentialP50(ctx, path+v.query, 11)
		if err != nil {
			return failed(err)
		}
		r.Facts = append(r.Facts, Fact{What: v.what, Value: p50, Unit: "ms"})
	}
	return r
}

// sequentialP50 sends GET path n times, one after the other, and returns the median latency
// in milliseconds: the cost of one request with no queueing.
func (e *env) sequentialP50(ctx context.Context, path string, n int) (float64, error) {
	lat := make([]time.Duration, 0, n)
	for range n {
		began := time.Now()
		if _, err := e.api.do(ctx, http.MethodGet, path, nil, http.StatusOK); err != nil {
			return 0, err
		}
		lat = append(lat, time.Since(began))
	}
	slices.Sort(lat)
	return millis(percentile(lat, 0.5)), nil
}

// seedArchive writes n bookings at the archive location: one per provider through the
// importer's insert, then copies of all of them shifted past their span (rounded up to
// archivePeriod), doubling in one statement each time (the overlap trigger checks every row)
// until there are n. Each provider ends up with a booking every archivePeriod from about a
// year ago on.
func seedArchive(ctx context.Context, d *db.DB, fx *fixture, n int, now time.Time) error {
	step := time.Duration(fx.step) * time.Minute
	first := time.Date(now.Year()-1, now.Month(), 1, 9, 0, 0, 0, time.UTC)
	ms := db.Millis(now)
	return d.InTx(ctx, func(q *db.Queries) error {
		for i, provider := range fx.archive[:min(n, len(fx.archive))] {
			s, end := db.Millis(first), db.Millis(first.Add(step))
			_, err := q.ImportBooking(ctx, db.ImportBookingParams{
				LocationID: fx.archiveLoc, ServiceID: fx.quick, ProviderID: provider, ClientID: fx.clients[i%len(fx.clients)],
				StatusID: 1, StartAt: s, EndAt: end, BlockStartAt: s, BlockEndAt: end, PriceCents: 2000, ListPriceCents: 2000,
				CreatedAt: ms, UpdatedAt: ms,
			})
			if err != nil {
				return fmt.Errorf("seed the archive: %w", err)
			}
		}
		for {
			span, err := q.BenchLocationSpan(ctx, fx.archiveLoc)
			if err != nil {
				return err
			}
			if span.Bookings >= int64(n) {
				return nil
			}
			_, err = q.BenchCopyBookings(ctx, db.BenchCopyBookingsParams{
				ShiftMs: roundUp(span.LastEndAt-span.FirstStartAt, archivePeriod.Milliseconds()), LocationID: fx.archiveLoc, MaxRows: int64(n) - span.Bookings,
			})
			if err != nil {
				return fmt.Errorf("seed the archive: %w", err)
			}
		}
	})
}

// archivePeriod spaces an archive provider's bookings: eight a day, as a busy calendar has.
const archivePeriod = 3 * time.Hour

func roundUp(v, unit int64) int64 { return (v + unit - 1) / unit * unit }
