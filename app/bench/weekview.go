package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"frontdesk/app/owner"
)

// weekView measures the admin's week view of the week desk — 30 providers, 300 bookings —
// as a receptionist opens it: GET /bookings/week over HTTP with a signed-in session, the whole
// page rendered. Its baseline is the floor of showing that week at all: one SQLite query of the
// same bookings with their provider, client and service names, in-process on the same read pool.
func weekView(ctx context.Context, e *env) ScenarioReport {
	c, err := e.signedIn(ctx)
	if err != nil {
		return failed(err)
	}
	defer c.close()
	monday := e.fx.weekMonday
	path := fmt.Sprintf("/bookings/week?date=%s&location=%d", monday.Format(time.DateOnly), e.fx.weekLoc)
	blocks := func(raw []byte) error {
		if n := bytes.Count(raw, []byte(`data-testid="cal-booking"`)); n != weekBookings {
			return fmt.Errorf("the week shows %d bookings, want %d", n, weekBookings)
		}
		return nil
	}
	status, raw, err := c.get(ctx, path)
	if err == nil && status != http.StatusOK {
		err = &statusError{http.MethodGet, path, status, trimBody(string(raw))}
	}
	if err == nil {
		err = blocks(raw)
	}
	if err != nil {
		return failed(err)
	}
	from, to := monday.UnixMilli(), monday.AddDate(0, 0, 7).UnixMilli()
	const floor = `SELECT b.id, b.start_at, b.end_at, p.public_name, c.first_name, s.name FROM bookings b
		JOIN providers p ON p.id = b.provider_id JOIN clients c ON c.id = b.client_id JOIN services s ON s.id = b.service_id
		WHERE b.location_id = ? AND b.start_at >= ? AND b.start_at < ? ORDER BY b.provider_id, b.start_at`
	readWeek := func(ctx context.Context, _ int) (Outcome, error) {
		rows, err := e.app.DB.Read.QueryContext(ctx, floor, e.fx.weekLoc, from, to)
		if err != nil {
			return Succeeded, err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var id, start, end int64
			var provider, client, service string
			if err := rows.Scan(&id, &start, &end, &provider, &client, &service); err != nil {
				return Succeeded, err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return Succeeded, err
		}
		if n != weekBookings {
			return Succeeded, fmt.Errorf("the week's query read %d bookings, want %d", n, weekBookings)
		}
		return Succeeded, nil
	}
	var res, base Figures
	err = e.profiled("week_view", func() {
		res, base = DrivePair(ctx, e.load, func(ctx context.Context, _ int) (Outcome, error) {
			status, raw, err := c.get(ctx, path)
			if err == nil && status != http.StatusOK {
				err = &statusError{http.MethodGet, path, status, trimBody(string(raw))}
			}
			if err == nil {
				err = blocks(raw)
			}
			return Succeeded, err
		}, readWeek)
	})
	if err != nil {
		return failed(err)
	}
	res.What = fmt.Sprintf("GET %s, signed in: the whole page", path)
	base.What = "one SQLite query of the same week's bookings with their names"
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.05, ratioOf)},
		Facts: []Fact{{What: "providers in the week", Value: weekProviders}, {What: "bookings in the week", Value: weekBookings}}}
}

// signedIn makes an owner account for the bench and returns a client holding its session.
func (e *env) signedIn(ctx context.Context) (*client, error) {
	email := fmt.Sprintf("bench-%d@bench.invalid", time.Now().UnixNano())
	const password = "bench-desk-password-42"
	if _, err := owner.Create(ctx, e.app.DB, email, password, e.cfg.Now()); err != nil {
		return nil, fmt.Errorf("bench owner: %w", err)
	}
	c := newClient(e.app.URL, "", e.load.Concurrency)
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	c.http.Jar = jar
	form := url.Values{"email": {email}, "password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.app.URL+"/login", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	follow := c.http.CheckRedirect
	c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.http.Do(req)
	c.http.CheckRedirect = follow
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return nil, errors.New("bench owner: sign-in answered " + resp.Status)
	}
	return c, nil
}
