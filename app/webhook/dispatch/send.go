package dispatch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/webhook"
)

// Bounds of what the delivery log keeps of one attempt. The body a receiver sends back is read
// up to webhook.MaxResponseBody for the log and drained up to drainLimit so the connection can
// be reused; anything longer is cut off with the connection. Nothing is read without a bound.
const (
	maxHeaderLog = 8 << 10
	maxErrorLog  = 1 << 10
	drainLimit   = 64 << 10
)

// result is one finished attempt, for the writer to record.
type result struct {
	job
	startedAt  time.Time
	duration   time.Duration
	status     int // 0: no response
	retryAfter time.Duration
	category   string
	message    string
	// The log keeps what differs per attempt on the attempt's row and the rest as shared texts
	// (log.go): reqHeader is the request's headers but the Standard Webhooks ones, signature
	// the webhook-signature sent; respHeader the response's headers but a single Date, which
	// is respDate.
	reqHeader  string
	signature  string
	respHeader string
	respDate   string
	respBody   string
	decision   Decision
}

// attempt makes one POST and decides what follows it. It never returns an error: every
// failure is an outcome to record.
func (d *Dispatcher) attempt(j job) result {
	start := d.now()
	res := result{job: j, startedAt: start}
	// The request is not tied to the dispatcher's context: on shutdown an attempt in flight
	// finishes (within the client's timeout) and is recorded rather than cut off.
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, j.url, bytes.NewReader(j.body))
	if err != nil {
		res.category, res.message = CategoryOther, clip(err.Error(), maxErrorLog)
	} else {
		req.Header = d.baseHeader()
		SetHeaders(req.Header, j.keys, j.eventID, start, j.body)
		res.signature = req.Header.Get(webhook.HeaderSignature)
		res.reqHeader = d.reqHeader // the headers but the Standard Webhooks ones, rendered once
		d.send(req, &res)
		if res.category == CategoryForbiddenAddress {
			d.logRefused(j, res.message)
		}
	}
	end := d.now()
	res.duration = end.Sub(start)
	d.metrics.latency.Observe(res.duration.Seconds())

	o := Outcome{Status: res.status, RetryAfter: res.retryAfter}
	res.decision = NextAttempt(d.cfg.Schedule, j.series, o, end, d.rnd)
	return res
}

// send does the HTTP exchange and fills in what came back.
func (d *Dispatcher) send(req *http.Request, res *result) {
	resp, err := d.client.Do(req)
	if err != nil {
		res.category, res.message = Categorize(err), clip(err.Error(), maxErrorLog)
		return
	}
	defer resp.Body.Close()
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, webhook.MaxResponseBody))
	if readErr == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, drainLimit))
	}
	res.status = resp.StatusCode
	skip := ""
	if dates := resp.Header.Values("Date"); len(dates) == 1 {
		res.respDate, skip = dates[0], "Date"
	}
	res.respHeader = formatHeader(resp.Header, maxHeaderLog, skip)
	res.respBody = strings.ToValidUTF8(string(body), "\uFFFD")
	res.retryAfter, _ = ParseRetryAfter(resp.Header.Get("Retry-After"), d.now())

	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		// A 2xx is a success even if the body could not be read to the end.
	case resp.StatusCode >= 300 && resp.StatusCode <= 399:
		res.category = CategoryHTTPStatus
		res.message = clip(fmt.Sprintf("HTTP %s: redirect to %q not followed; register the final URL instead", resp.Status, resp.Header.Get("Location")), maxErrorLog)
	default:
		res.category, res.message = CategoryHTTPStatus, "HTTP "+resp.Status
	}
}

// baseHeader is a new request's headers before the Standard Webhooks ones are added.
func (d *Dispatcher) baseHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}, "User-Agent": {d.cfg.UserAgent}}
}

// formatHeader renders h as "Name: value" lines in name order, cut at limit bytes, leaving out
// the header named skip (canonical form; "" leaves out nothing).
func formatHeader(h http.Header, limit int, skip ...string) string {
	names := make([]string, 0, len(h))
	for name := range h {
		if !slices.Contains(skip, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		for _, v := range h[name] {
			b.WriteString(name)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return clip(b.String(), limit)
}

// clip cuts s to at most limit bytes without splitting a UTF-8 sequence.
func clip(s string, limit int) string {
	if len(s) <= limit {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "\uFFFD") + "…"
}

// SetHeaders sets the three Standard Webhooks headers of one attempt on h.
func SetHeaders(h http.Header, keys [][]byte, msgID string, ts time.Time, body []byte) {
	h.Set(webhook.HeaderID, msgID)
	h.Set(webhook.HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(webhook.HeaderSignature, webhook.SignatureHeader(keys, msgID, ts, body))
}
