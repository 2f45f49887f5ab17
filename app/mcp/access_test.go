package mcp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

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
