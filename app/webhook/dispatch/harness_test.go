package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app/webhook"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// harness is a real SQLite file with a Manager over it; startDispatcher adds a running
// dispatcher that stops when the test ends.
type harness struct {
	t   testing.TB
	db  *db.DB
	m   *webhook.Manager
	now func() time.Time
	reg *prometheus.Registry
	// handoff is the database's, as serve makes it (app/server.go); startDispatcher hands it
	// to the dispatcher unless the test's Config brings its own.
	handoff *webhook.Handoff
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	h := &harness{t: t, db: d, now: time.Now, reg: prometheus.NewRegistry(), handoff: webhook.NewHandoff(d)}
	h.m = webhook.NewManager(d, webhook.ManagerOptions{Now: func() time.Time { return h.now() }})
	return h
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// fastSchedule retries quickly so that end-to-end tests take milliseconds per step.
func fastSchedule(steps ...time.Duration) webhook.Schedule {
	return append(webhook.Schedule{0}, steps...)
}

// startDispatcher runs a dispatcher until the test ends, woken by commits as in serve.
func (h *harness) startDispatcher(cfg Config) *Dispatcher {
	h.t.Helper()
	return h.startDispatcherWith(cfg, nil)
}

// startDispatcherWith lets a test swap the HTTP client (e.g. for a fake resolver) before Run.
func (h *harness) startDispatcherWith(cfg Config, client *http.Client) *Dispatcher {
	h.t.Helper()
	if cfg.Handoff == nil {
		cfg.Handoff = h.handoff
	}
	d := New(h.db, cfg, discardLog(), func() time.Time { return h.now() }, h.reg)
	if client != nil {
		d.client = client
	}
	h.db.AfterCommit(d.Wake)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- d.Run(ctx) }()
	h.t.Cleanup(func() {
		cancel()
		select {
		case err := <-stopped:
			if err != nil {
				h.t.Errorf("dispatcher Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			h.t.Errorf("dispatcher did not stop within 30 s of cancellation")
		}
	})
	return d
}

// create registers a webhook (private targets allowed: receivers live on loopback).
func (h *harness) create(url string, events ...string) (webhook.Webhook, string) {
	h.t.Helper()
	w, secret, err := h.m.Create(context.Background(), webhook.CreateInput{URL: url, Events: events, AllowPrivate: true})
	if err != nil {
		h.t.Fatalf("Create(%s, %v): %v", url, events, err)
	}
	return w, secret
}

// enqueue commits one event the way every emitting change does, and returns its id.
func (h *harness) enqueue(eventType string, data any) string {
	h.t.Helper()
	var id string
	err := h.db.InTx(context.Background(), func(q *db.Queries) error {
		var err error
		id, err = webhook.Enqueue(context.Background(), q, h.now(), eventType, data)
		return err
	})
	if err != nil {
		h.t.Fatalf("Enqueue(%s): %v", eventType, err)
	}
	return id
}

// deliveryOf returns the delivery of an event to a webhook.
func (h *harness) deliveryOf(eventID string, webhookID int64) webhook.Delivery {
	h.t.Helper()
	ds, err := h.m.FindEvent(context.Background(), eventID)
	if err != nil {
		h.t.Fatalf("FindEvent(%s): %v", eventID, err)
	}
	for _, d := range ds {
		if d.WebhookID == webhookID {
			return d
		}
	}
	h.t.Fatalf("event %s has no delivery to webhook %d (deliveries: %+v)", eventID, webhookID, ds)
	return webhook.Delivery{}
}

func (h *harness) webhook(id int64) webhook.Overview {
	h.t.Helper()
	o, err := h.m.Get(context.Background(), id)
	if err != nil {
		h.t.Fatalf("Get(%d): %v", id, err)
	}
	return o
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// received is one request as a receiver saw it.
type received struct {
	at     time.Time
	header http.Header
	body   []byte
}

// receiver is a real HTTP endpoint on loopback that records every request and answers with
// whatever respond returns (204 by default).
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     []received
	respond func(w http.ResponseWriter, r *http.Request, n int) // n: 0-based request number
}

func newReceiver(t testing.TB, respond func(w http.ResponseWriter, r *http.Request, n int)) *receiver {
	t.Helper()
	rc := &receiver{respond: respond}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		n := len(rc.got)
		rc.got = append(rc.got, received{at: time.Now(), header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if rc.respond == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		rc.respond(w, r, n)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// byID returns the requests carrying webhook-id id.
func (rc *receiver) byID(id string) []received {
	var out []received
	for _, r := range rc.requests() {
		if r.header.Get(webhook.HeaderID) == id {
			out = append(out, r)
		}
	}
	return out
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.got)
}

// decodeBody reads a request's JSON body into v, ignoring errors (the caller checks v).
func decodeBody(r *http.Request, v any) {
	json.NewDecoder(r.Body).Decode(v)
}

// verifyWith checks a received request with the independent Standard Webhooks library.
func verifyWith(t *testing.T, secret string, r received) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(r.body, r.header); err != nil {
		t.Errorf("Standard Webhooks Verify: %v", err)
	}
}
