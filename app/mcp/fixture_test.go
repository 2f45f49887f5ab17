package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"frontdesk/app/api"
	"frontdesk/app/apikey"
	"frontdesk/app/importer"
	"frontdesk/app/keyauth"
	"frontdesk/app/links"
	"frontdesk/app/mcp"
	"frontdesk/app/mcp/channel"
	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
	"frontdesk/db/dbtest"
	_ "time/tzdata" // Santiago's rules must not depend on the host
)

// fixtureNow is Thursday 2027-04-01 09:00 in Santiago. That Saturday night, 2027-04-03, the
// clocks go back at midnight (-03 → -04): 23:00–23:59 happen twice.
var fixtureNow = time.Date(2027, 4, 1, 12, 0, 0, 0, time.UTC)

// business is imported into every fixture (docs/import.md). Providencia is open every evening
// into the night so the fall-back hour can be booked; Ben works Saturday 22:00–24:00 and
// Sunday 00:00–03:00 there, Ana weekdays.
const business = `{
  "company": {"name": "Test Salon", "currency": "CLP", "slot_step_min": 15, "min_notice_min": 0,
              "max_advance_days": 0, "can_edit": true, "can_cancel": true, "edit_lock_min": 0, "max_changes": 0},
  "locations": [
    {"key": "prov", "name": "Providencia", "timezone": "America/Santiago", "country": {"code": "CL", "name": "Chile"},
     "address": {"route": "Av. Providencia", "street_number": "1234", "locality": "Santiago"}, "phone": "+56223456789",
     "hours": [
       {"day": "monday", "open": "09:00", "close": "19:00"}, {"day": "tuesday", "open": "09:00", "close": "19:00"},
       {"day": "wednesday", "open": "09:00", "close": "19:00"}, {"day": "thursday", "open": "09:00", "close": "19:00"},
       {"day": "friday", "open": "09:00", "close": "19:00"}, {"day": "saturday", "open": "19:00", "close": "24:00"},
       {"day": "sunday", "open": "00:00", "close": "24:00"}]},
    {"key": "nyc", "name": "Manhattan", "timezone": "America/New_York", "country": {"code": "US", "name": "United States"},
     "hours": [{"day": "monday", "open": "10:00", "close": "18:00"}]}
  ],
  "categories": [{"key": "hair", "name": "Hair"}],
  "services": [
    {"key": "cut", "name": "Haircut", "category": "hair", "price": "15000", "duration": 30, "keywords": ["corte", "pelo"]},
    {"key": "colour", "name": "Colour", "category": "hair", "price": "45000", "duration": 90, "keywords": ["tinte"]},
    {"key": "massage", "name": "Massage", "price": "30000", "duration": 60, "online_booking": false}
  ],
  "providers": [
    {"key": "ben", "public_name": "Ben", "locations": ["prov"], "services": ["cut"],
     "hours": [{"location": "prov", "day": "saturday", "open": "22:00", "close": "24:00"},
               {"location": "prov", "day": "sunday", "open": "00:00", "close": "03:00"}]},
    {"key": "ana", "public_name": "Ana", "locations": ["prov"], "services": ["cut", "colour", "massage"],
     "hours": [{"location": "prov", "day": "monday", "open": "09:00", "close": "18:00"},
               {"location": "prov", "day": "tuesday", "open": "09:00", "close": "18:00"},
               {"location": "prov", "day": "friday", "open": "09:00", "close": "18:00"}]}
  ],
  "clients": [
    {"key": "maria", "first_name": "María", "last_name": "López", "email": "maria@example.com", "phone": "+56912345678"},
    {"key": "john", "first_name": "John", "last_name": "Smith", "email": "john@example.com"}
  ]
}`

// Client ids as the import assigns them (in file order).
const (
	clientMaria = 1
	clientJohn  = 2
)

// fixture is a real SQLite file with the business above, the real /v3 and /mcp handlers behind
// one httptest server (as app/server.go mounts them, sharing one keyauth.Keys), and a webhook
// receiver with a running dispatcher.
type fixture struct {
	t       *testing.T
	db      *db.DB
	mu      sync.Mutex // guards now: the dispatcher reads the clock too
	now     time.Time
	srv     *httptest.Server
	hooks   *receiver
	secret  string // the webhook's signing secret
	fullKey string // every scope, allowed over MCP
}

type fixtureOptions struct {
	limits keyauth.Limits
}

func newFixture(t *testing.T, opts ...func(*fixtureOptions)) *fixture {
	t.Helper()
	var o fixtureOptions
	for _, opt := range opts {
		opt(&o)
	}
	ctx := context.Background()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	f := &fixture{t: t, db: d, now: fixtureNow}
	if _, err := importer.Load(ctx, d, []byte(business), f.now); err != nil {
		t.Fatalf("import: %v", err)
	}
	now := func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	keys := keyauth.New(d, keyauth.Options{Now: now, Log: log, Limits: o.limits})
	root := chi.NewRouter()
	root.Mount("/v3", api.New(d, api.Options{Now: now, Log: log, Keys: keys}).Routes())
	base, err := links.Parse("https://book.example.com")
	if err != nil {
		t.Fatal(err)
	}
	root.Handle("/mcp", mcp.New(d, mcp.Options{Now: now, Log: log, Keys: keys, Version: "test", Links: base}).Handler())
	f.srv = httptest.NewServer(root)
	t.Cleanup(f.srv.Close)

	f.hooks = newReceiver(t)
	_, f.secret, err = webhook.NewManager(d, webhook.ManagerOptions{Now: now}).Create(ctx, webhook.CreateInput{
		URL: f.hooks.srv.URL + "/hooks", Events: []string{"*"}, AllowPrivate: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	dispatcher := dispatch.New(d, dispatch.Config{AllowPrivate: true, Poll: 50 * time.Millisecond, Handoff: webhook.NewHandoff(d)}, log, now, nil)
	d.AfterCommit(dispatcher.Wake)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); dispatcher.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done })

	f.fullKey = f.newKey("", true)
	return f
}

// setNow moves the fixture's clock.
func (f *fixture) setNow(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = t
}

// newKey creates a key with the given comma-separated scopes ("" = full access), allowed over
// MCP or not.
func (f *fixture) newKey(scopes string, overMCP bool) string {
	f.t.Helper()
	if scopes == "" {
		scopes = apikey.FullAccess // full access is an explicit choice, never a default
	}
	row, key, err := apikey.Create(context.Background(), f.db, apikey.NewKey{Name: "test", Scopes: scopes}, f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	if overMCP {
		if err := channel.AllowKey(context.Background(), f.db, row.ID, true); err != nil {
			f.t.Fatal(err)
		}
	}
	return key
}

// bearer adds a key to every request of an HTTP client.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session over HTTP with key, as any client built on the official SDK would.
func (f *fixture) connect(key string) *sdk.ClientSession {
	f.t.Helper()
	cs, err := f.tryConnect(key)
	if err != nil {
		f.t.Fatalf("connect: %v", err)
	}
	f.t.Cleanup(func() { cs.Close() })
	return cs
}

func (f *fixture) tryConnect(key string) (*sdk.ClientSession, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "frontdesk-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint: f.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer{key}}, MaxRetries: -1,
	}, nil)
}

func callParams(name string, args any) *sdk.CallToolParams {
	return &sdk.CallToolParams{Name: name, Arguments: args}
}

// toolResult is a tool's answer as a client reads it.
type toolResult struct {
	isError bool
	text    string
	data    json.RawMessage
}

// call calls a tool; a protocol failure fails the test (tools answer errors as results).
func call(t *testing.T, cs *sdk.ClientSession, name string, args any) toolResult {
	t.Helper()
	r, err := tryCall(cs, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// tryCall is call for other goroutines than the test's.
func tryCall(cs *sdk.ClientSession, name string, args any) (toolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, callParams(name, args))
	if err != nil {
		return toolResult{}, err
	}
	var out toolResult
	out.isError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			out.text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return out, err
		}
		out.data = raw
	}
	return out, nil
}

// ok calls a tool that must succeed and decodes its structured content into dst (if not nil).
func ok(t *testing.T, cs *sdk.ClientSession, name string, args any, dst any) toolResult {
	t.Helper()
	r := call(t, cs, name, args)
	if r.isError {
		t.Fatalf("%s(%v): tool error %s", name, args, r.text)
	}
	if dst != nil {
		if err := json.Unmarshal(r.data, dst); err != nil {
			t.Fatalf("%s: decode %s: %v", name, r.data, err)
		}
	}
	return r
}

// fails calls a tool that must answer a tool error starting with kind.
func fails(t *testing.T, cs *sdk.ClientSession, name string, args any, kind string) toolResult {
	t.Helper()
	r := call(t, cs, name, args)
	if !r.isError || !strings.HasPrefix(r.text, kind+":") {
		t.Fatalf("%s(%v): got error=%v %q, want a %s tool error", name, args, r.isError, r.text, kind)
	}
	return r
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// receiver is a real HTTP endpoint that keeps every webhook delivery.
type receiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []delivery
	more chan struct{}
}

type delivery struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{more: make(chan struct{}, 1000)}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivery{req.Header.Clone(), body})
		r.mu.Unlock()
		r.more <- struct{}{}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// wait returns the first n deliveries once they have arrived.
func (r *receiver) wait(t *testing.T, n int) []delivery {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		r.mu.Lock()
		if len(r.got) >= n {
			out := append([]delivery(nil), r.got[:n]...)
			r.mu.Unlock()
			return out
		}
		r.mu.Unlock()
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("waited 30s for %d webhook deliveries; have %d", n, len(r.got))
		}
	}
}
