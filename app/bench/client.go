package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// client is the load generator's HTTP side: keep-alive HTTP/1.1 with one idle connection per
// worker, so every worker reuses its connection as wrk does. The same client drives a scenario
// and its baseline, so the client's own cost is in both and cancels out of the ratio.
type client struct {
	http *http.Client
	base string // "http://127.0.0.1:port"
	key  string // API key, sent as a Bearer token when set
}

func newClient(base, key string, concurrency int) *client {
	t := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        concurrency * 2,
		MaxIdleConnsPerHost: concurrency * 2,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &client{http: &http.Client{Transport: t, Timeout: 30 * time.Second}, base: base, key: key}
}

func (c *client) close() { c.http.CloseIdleConnections() }

// statusError is an answer with a status the scenario did not expect.
type statusError struct {
	method, path string
	status       int
	body         string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s %s: status %d: %s", e.method, e.path, e.status, e.body)
}

// do sends one request and reads the whole answer (so the connection is reused). It returns the
// status and, only when the status is not one of want, a *statusError carrying the body's start.
// body may be nil.
func (c *client) do(ctx context.Context, method, path string, body []byte, want ...int) (int, error) {
	status, _, err := c.send(ctx, method, path, body, 0, want...)
	return status, err
}

// doHead is do that also returns the first bytes of the answer, for scenarios that must tell
// one refusal from another (a lost race is a 409 slot_unavailable, not just any 409).
func (c *client) doHead(ctx context.Context, method, path string, body []byte, want ...int) (int, string, error) {
	return c.send(ctx, method, path, body, 300, want...)
}

func (c *client) send(ctx context.Context, method, path string, body []byte, keep int64, want ...int) (int, string, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, "", err
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	for _, w := range want {
		if resp.StatusCode == w {
			head, err := io.ReadAll(io.LimitReader(resp.Body, keep))
			if err == nil {
				_, err = io.Copy(io.Discard, resp.Body)
			}
			return resp.StatusCode, string(head), err
		}
	}
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, string(head), &statusError{method, path, resp.StatusCode, string(head)}
}

// get sends a GET and returns the status and the whole body, for the checks before a scenario
// measures.
func (c *client) get(ctx context.Context, path string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	return resp.StatusCode, raw, err
}
