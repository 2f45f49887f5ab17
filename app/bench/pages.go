package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"frontdesk/app/feeds"
	"frontdesk/db"
)

// The pages a real business of some size opens every day, each measured against a baseline in
// the same run and with the same client, interleaved with it (DrivePair): the figure a change
// moves is the ratio.

// pagePair measures op against base, interleaved, checking the first answer of each (probe)
// before measuring and every checkEvery-th answer of the scenario while it measures.
func (e *env) pagePair(ctx context.Context, name string, op, base func(ctx context.Context, check bool) error) (Figures, Figures, error) {
	if err := op(ctx, true); err != nil {
		return Figures{}, Figures{}, err
	}
	if err := base(ctx, true); err != nil {
		return Figures{}, Figures{}, fmt.Errorf("baseline: %w", err)
	}
	var res, bf Figures
	var n atomic.Int64
	err := e.profiled(name, func() {
		res, bf = DrivePair(ctx, e.load, func(ctx context.Context, _ int) (Outcome, error) {
			return Succeeded, op(ctx, n.Add(1)%checkEvery == 0)
		}, func(ctx context.Context, _ int) (Outcome, error) {
			return Succeeded, base(ctx, false)
		})
	})
	return res, bf, err
}

// getChecked is GET path on the API; with check, the whole answer is read and checked.
func (e *env) getChecked(ctx context.Context, path string, check bool, ok func([]byte) error) error {
	if !check {
		_, err := e.api.do(ctx, http.MethodGet, path, nil, http.StatusOK)
		return err
	}
	_, err := e.probe(ctx, path, ok)
	return err
}

// slotsVisit measures the slots of a three-service visit (cut, colour, style) across the visit
// salon's 20 providers on the slots day (app/booking/visits.go) against the slots of its first
// service alone at the same location and day.
func slotsVisit(ctx context.Context, e *env) ScenarioReport {
	day := e.fx.slotsDay.Format(time.DateOnly)
	s := e.fx.visitServices
	visit := fmt.Sprintf("/v3/available_slots?location_id=%d&service_ids=%d,%d,%d&start_date=%s", e.fx.visitLoc, s[0], s[1], s[2], day)
	single := fmt.Sprintf("/v3/available_slots?location_id=%d&service_id=%d&start_date=%s", e.fx.visitLoc, s[0], day)
	var starts int
	var once sync.Once
	countSlots := func(raw []byte) (int, error) {
		var a struct {
			Data struct {
				Slots []json.RawMessage `json:"slots"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return 0, fmt.Errorf("slots answer: %w", err)
		}
		if len(a.Data.Slots) == 0 {
			return 0, fmt.Errorf("got no slots on %s", day)
		}
		return len(a.Data.Slots), nil
	}
	res, base, err := e.pagePair(ctx, "slots_visit", func(ctx context.Context, check bool) error {
		return e.getChecked(ctx, visit, check, func(raw []byte) error {
			n, err := countSlots(raw)
			once.Do(func() { starts = n })
			return err
		})
	}, func(ctx context.Context, check bool) error {
		return e.getChecked(ctx, single, check, func(raw []byte) error { _, err := countSlots(raw); return err })
	})
	if err != nil {
		return *probeOrReport(err)
	}
	res.What, base.What = "GET "+visit, "GET "+single+": its first service alone"
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.10, ratioOf)},
		Facts: []Fact{{What: "providers", Value: visitProviders}, {What: "services in the visit", Value: 3},
			{What: "visit starts that day", Value: float64(starts)}}}
}

// seriesWeeks is how many weekly occurrences series_check checks.
const seriesWeeks = 52

// seriesCheck measures checking a weekly series of 52 occurrences (POST
// /v3/booking_series/check, app/booking/series.go: every occurrence through the slot rules)
// against checking a series of one, the same booking.
func seriesCheck(ctx context.Context, e *env) ScenarioReport {
	m := e.fx.weekMonday
	start := time.Date(m.Year(), m.Month(), m.Day(), 10, 0, 0, 0, m.Location())
	body := func(count int) []byte {
		raw, _ := json.Marshal(map[string]any{ // strings and integers always encode
			"start_time": start.Format(time.RFC3339), "service_id": e.fx.visitServices[0], "provider_id": e.fx.visitProviders[0],
			"client_id": e.fx.clients[0], "location_id": e.fx.visitLoc, "status_id": 1,
			"repeat": map[string]any{"frequency": "weekly", "interval": 1, "count": count},
		})
		return raw
	}
	long, one := body(seriesWeeks), body(1)
	var free int
	var once sync.Once
	check := func(want int, body []byte, keep bool) func(ctx context.Context, check bool) error {
		return func(ctx context.Context, check bool) error {
			if !check {
				_, err := e.api.do(ctx, http.MethodPost, "/v3/booking_series/check", body, http.StatusOK)
				return err
			}
			_, head, err := e.api.send(ctx, http.MethodPost, "/v3/booking_series/check", body, 1<<20, http.StatusOK)
			if err != nil {
				return err
			}
			var a struct {
				Occurrences []struct {
					Status string `json:"status"`
				} `json:"occurrences"`
			}
			if err := json.Unmarshal([]byte(head), &a); err != nil {
				return fmt.Errorf("series check answer: %w", err)
			}
			if len(a.Occurrences) != want {
				return fmt.Errorf("the series check lists %d occurrences, want %d", len(a.Occurrences), want)
			}
			if keep {
				once.Do(func() {
					for _, o := range a.Occurrences {
						if o.Status == "free" {
							free++
						}
					}
				})
			}
			return nil
		}
	}
	res, base, err := e.pagePair(ctx, "series_check", check(seriesWeeks, long, true), check(1, one, false))
	if err != nil {
		return *probeOrReport(err)
	}
	res.What = fmt.Sprintf("POST /v3/booking_series/check: weekly, %d occurrences", seriesWeeks)
	base.What = "POST /v3/booking_series/check: the same booking, one occurrence"
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.05, ratioOf)},
		Facts: []Fact{{What: "occurrences", Value: seriesWeeks}, {What: "free occurrences", Value: float64(free)}}}
}

// feedBookings is how many bookings the provider of feed_provider has inside its feed's window.
const feedBookings = 5000

// feedProvider measures a provider's calendar feed (GET /feeds/{token}.ics, app/feeds) holding
// 5,000 bookings against the floor of showing them at all: one SQLite query of the same
// bookings with their service and client names, on the same read pool.
func feedProvider(ctx context.Context, e *env) ScenarioReport {
	if err := seedFeed(ctx, e.app.DB, e.fx, e.cfg.Now()); err != nil {
		return failed(err)
	}
	token, err := feeds.Issue(ctx, e.app.DB, feeds.Subject{ProviderID: e.fx.feedProvider}, e.cfg.Now())
	if err != nil {
		return failed(fmt.Errorf("turn the feed on: %w", err))
	}
	defer feeds.TurnOff(context.WithoutCancel(ctx), e.app.DB, feeds.Subject{ProviderID: e.fx.feedProvider})
	path := feeds.Path(token)
	var size int
	var once sync.Once
	events := func(raw []byte) error {
		if n := bytes.Count(raw, []byte("BEGIN:VEVENT")); n != feedBookings {
			return fmt.Errorf("the feed holds %d events, want %d", n, feedBookings)
		}
		once.Do(func() { size = len(raw) })
		return nil
	}
	day := time.Now().UTC().Truncate(24 * time.Hour)
	from, to := db.Millis(day.Add(-feeds.Past)), db.Millis(day.Add(feeds.Ahead))
	const floor = `SELECT b.id, b.start_at, b.end_at, s.name, c.first_name FROM bookings b
		JOIN services s ON s.id = b.service_id JOIN clients c ON c.id = b.client_id
		WHERE b.provider_id = ? AND b.start_at >= ? AND b.start_at < ? ORDER BY b.start_at`
	readAll := func(ctx context.Context, _ bool) error {
		rows, err := e.app.DB.Read.QueryContext(ctx, floor, e.fx.feedProvider, from, to)
		if err != nil {
			return err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var id, start, end int64
			var service, client string
			if err := rows.Scan(&id, &start, &end, &service, &client); err != nil {
				return err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n != feedBookings {
			return fmt.Errorf("the query read %d bookings, want %d", n, feedBookings)
		}
		return nil
	}
	res, base, err := e.pagePair(ctx, "feed_provider", func(ctx context.Context, check bool) error {
		return e.getChecked(ctx, path, check, events)
	}, readAll)
	if err != nil {
		return *probeOrReport(err)
	}
	res.What = "GET /feeds/….ics: a provider's feed of 5,000 bookings"
	base.What = "one SQLite query of the same bookings with their names"
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.02, ratioOf)},
		Facts: []Fact{{What: "bookings in the feed", Value: feedBookings}, {What: "feed size", Value: float64(size) / 1024, Unit: "KiB"}}}
}

// seedFeed gives the feed provider 5,000 bookings of one step, every 90 minutes from its hall's
// first bookable day on (about 312 days, inside the feed's window), through the importer's
// insert in one transaction.
func seedFeed(ctx context.Context, d *db.DB, fx *fixture, now time.Time) error {
	step := time.Duration(fx.step) * time.Minute
	first := fx.hall.firstDay
	ms := db.Millis(now)
	return d.InTx(ctx, func(q *db.Queries) error {
		for i := range feedBookings {
			at := first.Add(time.Duration(i) * 90 * time.Minute)
			s, end := db.Millis(at), db.Millis(at.Add(step))
			_, err := q.ImportBooking(ctx, db.ImportBookingParams{
				LocationID: fx.hallLoc, ServiceID: fx.quick, ProviderID: fx.feedProvider, ClientID: fx.clients[i%len(fx.clients)],
				StatusID: 1, StartAt: s, EndAt: end, BlockStartAt: s, BlockEndAt: end, PriceCents: 2000, ListPriceCents: 2000,
				CreatedAt: ms, UpdatedAt: ms,
			})
			if err != nil {
				return fmt.Errorf("seed the feed: %w", err)
			}
		}
		return nil
	})
}

// siteTimes measures the booking site's time page (GET /book/{location}/{service}/times,
// app/site: the whole HTML page of one day's times, anyone available) at the slots studio on
// the slots day — 10 providers, 200 bookings — against the same day's slots from the API,
// /v3/available_slots, which runs the same engine over the same schedule. The site is switched
// on for the scenario and its settings put back afterwards.
func siteTimes(ctx context.Context, e *env) ScenarioReport {
	restore, err := e.siteOn(ctx)
	if err != nil {
		return failed(err)
	}
	defer restore()
	day := e.fx.slotsDay.Format(time.DateOnly)
	page := fmt.Sprintf("/book/%d/%d/times?provider=0&date=%s", e.fx.slotsLoc, e.fx.quick, day)
	api := fmt.Sprintf("/v3/available_slots?location_id=%d&service_id=%d&start_date=%s", e.fx.slotsLoc, e.fx.quick, day)
	var times int
	var once sync.Once
	res, base, err := e.pagePair(ctx, "site_times", func(ctx context.Context, check bool) error {
		return e.getChecked(ctx, page, check, func(raw []byte) error {
			n := bytes.Count(raw, []byte(`data-testid="time"`))
			if n == 0 {
				return fmt.Errorf("the time page shows no times on %s", day)
			}
			once.Do(func() { times = n })
			return nil
		})
	}, func(ctx context.Context, check bool) error {
		return e.getChecked(ctx, api, check, func(raw []byte) error {
			if !bytes.Contains(raw, []byte(`"slots"`)) {
				return fmt.Errorf("the slots answer has no slots: %.80s", raw)
			}
			return nil
		})
	})
	if err != nil {
		return *probeOrReport(err)
	}
	res.What, base.What = "GET "+page+": the whole page", "GET "+api
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.20, ratioOf)},
		Facts: []Fact{{What: "providers", Value: slotsProviders}, {What: "times on the page", Value: float64(times)}}}
}

// siteOn switches the booking site on and returns what puts its settings back.
func (e *env) siteOn(ctx context.Context) (restore func(), err error) {
	saved, err := e.app.DB.R.SiteSettings(ctx)
	if err != nil {
		return nil, fmt.Errorf("site settings: %w", err)
	}
	if err := e.app.DB.InTx(ctx, func(q *db.Queries) error { return q.SiteEnable(ctx, db.Millis(e.cfg.Now())) }); err != nil {
		return nil, fmt.Errorf("switch the booking site on: %w", err)
	}
	return func() {
		ctx := context.WithoutCancel(ctx)
		err := e.app.DB.InTx(ctx, func(q *db.Queries) error {
			return q.UpdateSiteSettings(ctx, db.UpdateSiteSettingsParams{Enabled: saved.Enabled, DisplayName: saved.DisplayName,
				Accent: saved.Accent, PolicyText: saved.PolicyText, FrameOrigins: saved.FrameOrigins, UpdatedAt: db.Millis(e.cfg.Now())})
		})
		if err != nil {
			e.progress("site_times: the booking site's settings not restored: %v", err)
		}
	}, nil
}
