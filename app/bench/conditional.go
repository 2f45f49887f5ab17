package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// listBookingsNotModified is a polling integration: it lists the bookings of the busy location
// with the ETag of its last answer, and nothing has changed, so every answer is a 304 without a
// body (docs/api.md, "Conditional requests"). Every checkEvery-th request also reads the whole
// list and checks it still carries that tag, so a tag that drifted without a write shows as
// errors.
func listBookingsNotModified(ctx context.Context, e *env) ScenarioReport {
	path := fmt.Sprintf("/v3/bookings?location_id=%d&per_page=30", e.fx.slotsLoc)
	full := wantFullPage(int64(e.fx.slotsSeed))
	tag, err := e.api.etag(ctx, path, full)
	if r := probeOrReport(err); r != nil {
		return *r
	}
	if tag == "" {
		return unavailable("GET %s answers no ETag", path)
	}
	if status, err := e.api.conditionalGet(ctx, path, tag); err != nil || status != http.StatusNotModified {
		return failed(fmt.Errorf("GET %s with If-None-Match %s: status %d, %v; want 304 without a body", path, tag, status, err))
	}
	b, err := startJSONBaseline()
	if err != nil {
		return failed(err)
	}
	defer b.stop()
	bc := newClient(b.URL, "", e.load.Concurrency)
	defer bc.close()
	var res, base Figures
	var n atomic.Int64
	err = e.profiled("list_bookings_not_modified", func() {
		res, base = DrivePair(ctx, e.load, func(ctx context.Context, _ int) (Outcome, error) {
			if n.Add(1)%checkEvery == 0 {
				got, err := e.api.etag(ctx, path, full)
				if err == nil && got != tag {
					err = fmt.Errorf("GET %s: ETag %s, want %s: nothing was written", path, got, tag)
				}
				return Succeeded, err
			}
			status, err := e.api.conditionalGet(ctx, path, tag)
			if err == nil && status != http.StatusNotModified {
				err = &statusError{http.MethodGet, path, status, "want 304"}
			}
			return Succeeded, err
		}, b.op(bc))
	})
	if err != nil {
		return failed(err)
	}
	base.What = jsonBaselineWhat
	res.What = "GET " + path + " with If-None-Match (304)"
	return ScenarioReport{Result: &res, Baseline: &base, targets: []target{atLeast("ratio", 0.60, ratioOf)}}
}

// etag GETs path, checks the answer like a probe and returns its ETag.
func (c *client) etag(ctx context.Context, path string, check func([]byte) error) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", &statusError{http.MethodGet, path, resp.StatusCode, trimBody(string(raw))}
	}
	if err := check(raw); err != nil {
		return "", fmt.Errorf("GET %s: %w", path, err)
	}
	return resp.Header.Get("ETag"), nil
}

// conditionalGet GETs path with If-None-Match tag; a 304 must come without a body.
func (c *client) conditionalGet(ctx context.Context, path, tag string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("If-None-Match", tag)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode == http.StatusNotModified && n > 0 {
		err = fmt.Errorf("GET %s: 304 with a body of %d bytes", path, n)
	}
	return resp.StatusCode, err
}
