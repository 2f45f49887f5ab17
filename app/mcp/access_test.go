package mcp_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"frontdesk/app/apikey"
	"frontdesk/app/keyauth"
	"frontdesk/app/mcp/channel"
	"frontdesk/db"
)

// A key without bookings:write finds times but cannot book; the refusal says why and nothing
// is written.
func TestKeyWithoutBookingsWriteCannotBook(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.newKey("bookings:read,clients:read,locations:read,services:read", true))
	first, _ := fallBackSlots(t, cs)
	r := fails(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "k"}, "scope_denied")
	if !strings.Contains(r.text, "bookings:write") {
		t.Fatalf("refusal %q does not name the scope", r.text)
	}
	// Nor can it move or cancel anything, or create a client.
	fails(t, cs, "cancel_booking", map[string]any{"booking_id": 1, "client_id": clientMaria}, "scope_denied")
	fails(t, cs, "reschedule_booking", map[string]any{"booking_id": 1, "client_id": clientMaria, "slot_id": first.SlotID}, "scope_denied")
	fails(t, cs, "find_or_create_client", map[string]any{"email": "nobody@example.com", "first_name": "No"}, "scope_denied")
	if n := count(t, f, "SELECT count(*) FROM bookings") + count(t, f, "SELECT count(*) FROM events") + count(t, f, "SELECT count(*) FROM clients WHERE id > 2"); n != 0 {
		t.Fatalf("%d rows written by refused calls", n)
	}
	// A key with only bookings:write cannot read times.
	cs = f.connect(f.newKey("bookings:write", true))
	fails(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "2027-04-03"}, "scope_denied")
}

// A revoked key is refused on its very next call, in an open session.
func TestRevokedKeyRefusedOnNextCall(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	key := f.newKey("", true)
	cs := f.connect(key)
	ok(t, cs, "list_services", map[string]any{}, nil)
	revoke(t, f, key)
	_, err := cs.CallTool(context.Background(), callParams("list_services", map[string]any{}))
	if err == nil || !strings.Contains(err.Error(), "revoked") {
		t.Fatalf("call after revocation: got %v, want a refusal naming the revoked key", err)
	}
	if _, err := f.tryConnect(key); err == nil {
		t.Fatal("a revoked key connected")
	}
}

// The owner's switches: a key not allowed over MCP, and the channel switched off, are refused
// at once with a message saying where to change it; /v3 is unaffected.
func TestOwnerControls(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	notAllowed := f.newKey("", false)
	_, err := f.tryConnect(notAllowed)
	if err == nil || !strings.Contains(err.Error(), "may not be used over MCP") {
		t.Fatalf("key not allowed over MCP: got %v", err)
	}
	if status := v3Status(t, f, notAllowed); status != http.StatusOK {
		t.Fatalf("/v3 with that key: %d, want 200", status)
	}

	cs := f.connect(f.fullKey)
	ok(t, cs, "list_services", map[string]any{}, nil)
	if err := channel.SetEnabled(context.Background(), f.db, f.now, false); err != nil {
		t.Fatal(err)
	}
	_, err = cs.CallTool(context.Background(), callParams("list_services", map[string]any{}))
	if err == nil || !strings.Contains(err.Error(), "switched off") {
		t.Fatalf("channel off: got %v, want a refusal", err)
	}
	if on, err := channel.Enabled(context.Background(), f.db); err != nil || on {
		t.Fatalf("Enabled = %v, %v; want false", on, err)
	}
	if err := channel.SetEnabled(context.Background(), f.db, f.now, true); err != nil {
		t.Fatal(err)
	}
	ok(t, cs, "list_services", map[string]any{}, nil)

	// Allowing a key takes effect at once; a revoked key cannot be allowed.
	id := keyID(t, f, notAllowed)
	if err := channel.AllowKey(context.Background(), f.db, id, true); err != nil {
		t.Fatal(err)
	}
	f.connect(notAllowed)
	revoke(t, f, notAllowed)
	if err := channel.AllowKey(context.Background(), f.db, id, true); err != channel.ErrKeyNotFound {
		t.Fatalf("AllowKey on a revoked key: %v, want ErrKeyNotFound", err)
	}
}

// /v3 and /mcp share one rate-limit budget per key: requests through either count.
func TestRateLimitSharedWithAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *fixtureOptions) { o.limits = keyauth.Limits{PerMinute: 6} })
	key := f.newKey("", true)
	cs := f.connect(key) // the SDK's handshake takes requests too
	for v3Status(t, f, key) == http.StatusOK {
	}
	_, err := cs.CallTool(context.Background(), callParams("list_services", map[string]any{}))
	if err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Fatalf("over the limit: got %v, want a rate-limit refusal", err)
	}
	// On the wire: 429 with Retry-After and the X-RateLimit headers, and words for the model.
	resp, body := rawPost(t, f, key, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
		resp.Header.Get("X-RateLimit-Burst-Limit") != "6" || !strings.Contains(body, `"id":7`) || !strings.Contains(body, "retry after") {
		t.Fatalf("over the limit: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	// Another key has its own budget.
	ok(t, f.connect(f.fullKey), "list_services", map[string]any{}, nil)
}

// rawPost sends one JSON-RPC message to /mcp as a Streamable HTTP client does.
func rawPost(t *testing.T, f *fixture, key, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", f.srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(raw)
}

func v3Status(t *testing.T, f *fixture, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+"/v3/services", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func keyID(t *testing.T, f *fixture, key string) int64 {
	t.Helper()
	row, err := f.db.R.GetAPIKeyByHash(context.Background(), apikey.Hash(key))
	if err != nil {
		t.Fatal(err)
	}
	return row.ID
}

func revoke(t *testing.T, f *fixture, key string) {
	t.Helper()
	n, err := f.db.W.RevokeAPIKey(context.Background(), db.RevokeAPIKeyParams{RevokedAt: db.NullMillis(&f.now), ID: keyID(t, f, key)})
	if err != nil || n != 1 {
		t.Fatalf("revoke: %d, %v", n, err)
	}
}

func count(t *testing.T, f *fixture, query string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.Read.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// The HTTP answers docs/mcp.md promises before any tool runs.
func TestHTTPRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, body := rawPost(t, f, "apk_live_nope", `{"jsonrpc":"2.0","id":"a","method":"tools/list"}`)
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") ||
		!strings.Contains(body, `"id":"a"`) || !strings.Contains(body, `"code":-32001`) {
		t.Fatalf("unknown key: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, body = rawPost(t, f, f.newKey("", false), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":-32003`) {
		t.Fatalf("key not allowed over MCP: %d %s", resp.StatusCode, body)
	}
	resp, body = rawPost(t, f, f.fullKey, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, `"book"`) {
		t.Fatalf("tools/list without a session: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, _ = rawPost(t, f, f.fullKey, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"`+strings.Repeat("y", 1<<20)+`"}}`)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("body over 1 MiB: %d, want 413", resp.StatusCode)
	}
	// Two Authorization headers are ambiguous credentials: refused, whichever is valid.
	two, _ := http.NewRequest("POST", f.srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	two.Header.Set("Content-Type", "application/json")
	two.Header.Set("Accept", "application/json, text/event-stream")
	two.Header.Add("Authorization", "Bearer "+f.fullKey)
	two.Header.Add("Authorization", "Bearer apk_live_other")
	twoResp, err := http.DefaultClient.Do(two)
	if err != nil {
		t.Fatal(err)
	}
	twoResp.Body.Close()
	if twoResp.StatusCode != http.StatusBadRequest {
		t.Fatalf("two Authorization headers: %d, want 400", twoResp.StatusCode)
	}
	req, _ := http.NewRequest("GET", f.srv.URL+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+f.fullKey)
	req.Header.Set("Accept", "text/event-stream")
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	get.Body.Close()
	if get.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET /mcp: %d, want 405 (no server-to-client stream)", get.StatusCode)
	}
}

// Clients on the protocol versions in use today (initialize handshake, then calls without a
// session) work as well as the SDK's newest.
func TestOlderProtocolVersions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, v := range []string{"2025-03-26", "2025-06-18", "2025-11-25"} {
		client := sdk.NewClient(&sdk.Implementation{Name: "legacy", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
			Endpoint: f.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer{f.fullKey}}, MaxRetries: -1,
		}, &sdk.ClientSessionOptions{ProtocolVersion: v})
		if err != nil {
			t.Fatalf("%s: connect: %v", v, err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != v {
			t.Fatalf("negotiated %s, want %s", got, v)
		}
		var out struct {
			Date string `json:"date"`
		}
		ok(t, cs, "resolve_date", map[string]any{"phrase": "mañana", "location_id": 1}, &out)
		if out.Date != "2027-04-02" {
			t.Fatalf("%s: mañana is %s", v, out.Date)
		}
		cs.Close()
	}
}

// A message with a key twice in one object is refused before any tool runs: the SDK would take
// the last "name" and cancel a booking the first "name" only lists services for. The answer is
// a JSON-RPC parse error naming the key, for the call's id (or a null id when "id" itself is
// the key sent twice); nothing is written.
func TestDuplicateKeysRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	first, _ := fallBackSlots(t, cs)
	var b bookingOut
	ok(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "dup"}, &b)
	events := count(t, f, "SELECT count(*) FROM events")
	for _, c := range []struct{ name, body, path, id string }{
		{"tool name", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_services","name":"cancel_booking",` +
			`"arguments":{"booking_id":` + itoa(b.BookingID) + `,"client_id":1}}}`, "params.name", `"id":5`},
		{"argument, other letter case", `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"cancel_booking",` +
			`"arguments":{"booking_id":999,"Booking_ID":` + itoa(b.BookingID) + `,"client_id":1}}}`, "params.arguments.Booking_ID", `"id":"x"`},
		{"method", `{"jsonrpc":"2.0","id":6,"method":"tools/list","method":"tools/call","params":{"name":"cancel_booking",` +
			`"arguments":{"booking_id":` + itoa(b.BookingID) + `,"client_id":1}}}`, "method", `"id":6`},
		{"id", `{"jsonrpc":"2.0","id":7,"id":8,"method":"tools/list"}`, "id", `"id":null`},
	} {
		resp, body := rawPost(t, f, f.fullKey, c.body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"code":-32700`) ||
			!strings.Contains(body, `the key \"`+c.path+`\" twice`) || !strings.Contains(body, c.id) {
			t.Errorf("%s: %d %s, want 400, a parse error naming %s, and %s", c.name, resp.StatusCode, clipped(body), c.path, c.id)
		}
	}
	if n := count(t, f, "SELECT count(*) FROM bookings WHERE status_id = 5"); n != 0 {
		t.Fatalf("%d bookings cancelled by refused messages", n)
	}
	if n := count(t, f, "SELECT count(*) FROM events"); n != events {
		t.Fatalf("refused messages wrote %d events", n-events)
	}
	// The same message with each key once is answered as usual.
	resp, body := rawPost(t, f, f.fullKey, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_services","arguments":{}}}`)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Haircut") {
		t.Fatalf("a well-formed call: %d %s", resp.StatusCode, clipped(body))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Failed authentications are limited per client address as on /v3, on the same count: after
// keyauth.MaxFailuresPerMinute failures, through either surface, both answer 429 with
// Retry-After before looking any key up, until the minute is over.
func TestFailedAuthenticationLimitedWithAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	half := keyauth.MaxFailuresPerMinute / 2
	for i := range keyauth.MaxFailuresPerMinute {
		var status int
		if i < half {
			status = v3Status(t, f, "apk_live_wrong")
		} else {
			resp, _ := rawPost(t, f, "apk_live_wrong", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			status = resp.StatusCode
		}
		if status != http.StatusUnauthorized {
			t.Fatalf("failure %d: got %d, want 401", i+1, status)
		}
	}
	// Now even a valid key from this address waits: the address is refused before any lookup.
	resp, body := rawPost(t, f, f.fullKey, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
		!strings.Contains(body, `"code":-32029`) || !strings.Contains(body, `"id":3`) || !strings.Contains(body, "failed authentications") {
		t.Fatalf("after %d failures: %d %v %s, want 429 with Retry-After", keyauth.MaxFailuresPerMinute, resp.StatusCode, resp.Header, clipped(body))
	}
	if s := v3Status(t, f, f.fullKey); s != http.StatusTooManyRequests {
		t.Fatalf("/v3 after the failures: %d, want 429", s)
	}
	f.setNow(f.now.Add(time.Minute))
	resp, body = rawPost(t, f, f.fullKey, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a minute later: %d %s, want 200", resp.StatusCode, clipped(body))
	}
}
