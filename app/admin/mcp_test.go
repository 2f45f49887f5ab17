package admin_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// mcpCall sends one tools/call to the appliance's /mcp endpoint with key, and returns the HTTP
// status and the tool's text (or the refusal's message).
func mcpCall(t *testing.T, ts *testServer, key, tool string, args map[string]any) (int, string, bool) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res := ts.newClient(t).do(t, req)
	var msg struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			Structured json.RawMessage `json:"structuredContent"`
		} `json:"result"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(res.Body), &msg); err != nil {
		t.Fatalf("/mcp answered %d %q", res.Status, res.Body)
	}
	if res.Status != http.StatusOK {
		return res.Status, msg.Error.Message, true
	}
	text := ""
	for _, c := range msg.Result.Content {
		text += c.Text
	}
	return res.Status, text, msg.Result.IsError
}

var newKeyOnPage = regexp.MustCompile(`data-testid="new-api-key">(apk_live_[A-Za-z0-9_-]+)<`)

// createKey creates an API key in the admin UI and returns it as shown once.
func createKey(t *testing.T, c *client, form url.Values) string {
	t.Helper()
	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", form), "/settings/integrations/api-keys")
	m := newKeyOnPage.FindStringSubmatch(c.get(t, "/settings/integrations/api-keys").Body)
	if m == nil {
		t.Fatal("the new key is not shown")
	}
	return m[1]
}

// Settings → Integrations → MCP: the owner switches the channel and each key, and /mcp obeys at
// once; a booking an assistant makes shows in the day view like any other.
func TestMCPSettings(t *testing.T) {
	ts := startServer(t, "FRONTDESK_DEMO=true")
	c := ts.setupOwner(t)
	page := c.get(t, "/settings/integrations/mcp")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, "AI assistants (MCP)", `data-testid="mcp-channel-state">on<`, `&#34;url&#34;: &#34;`+ts.LinkBase+`/mcp&#34;`, `data-testid="mcp-endpoint">`+ts.LinkBase+`/mcp<`)

	bot := createKey(t, c, url.Values{"name": {"Chat bot"}, "access": {"full"}, "mcp": {"1"}})
	plain := createKey(t, c, url.Values{"name": {"Connect sync"}, "access": {"full"}})
	wantBody(t, c.get(t, "/settings/integrations/api-keys"), `data-testid="api-key-mcp"`)
	page = c.get(t, "/settings/integrations/mcp")
	rows := strings.Split(page.Body, `data-testid="mcp-key-row"`)
	if len(rows) != 3 || !strings.Contains(rows[1], "Chat bot") || !strings.Contains(rows[1], ">allowed<") ||
		!strings.Contains(rows[2], "Connect sync") || !strings.Contains(rows[2], "not allowed") {
		t.Fatalf("key rows do not show who may use MCP:\n%s", page.Body)
	}
	if status, _, _ := mcpCall(t, ts, bot, "list_locations", map[string]any{}); status != http.StatusOK {
		t.Fatalf("allowed key: %d", status)
	}
	if status, msg, _ := mcpCall(t, ts, plain, "list_locations", map[string]any{}); status != http.StatusForbidden || !strings.Contains(msg, "Settings → Integrations") {
		t.Fatalf("key not allowed: %d %q", status, msg)
	}

	// Allow the second key; stop the first.
	keyURL := regexp.MustCompile(`action="(/settings/integrations/api-keys/\d+/mcp)"`).FindAllStringSubmatch(page.Body, -1)
	wantRedirect(t, c.post(t, keyURL[1][1], url.Values{"allowed": {"1"}}), "/settings/integrations/mcp")
	wantBody(t, c.get(t, "/settings/integrations/mcp"), "The API key “Connect sync” may now be used over MCP.")
	wantRedirect(t, c.post(t, keyURL[0][1], url.Values{"allowed": {"0"}}), "/settings/integrations/mcp")
	if status, _, _ := mcpCall(t, ts, plain, "list_locations", map[string]any{}); status != http.StatusOK {
		t.Fatalf("key allowed in the UI: %d", status)
	}
	if status, _, _ := mcpCall(t, ts, bot, "list_locations", map[string]any{}); status != http.StatusForbidden {
		t.Fatalf("key stopped in the UI: %d", status)
	}
	wantStatus(t, c.post(t, keyURL[0][1], url.Values{"allowed": {"maybe"}}), http.StatusBadRequest)
	wantStatus(t, c.post(t, "/settings/integrations/api-keys/999/mcp", url.Values{"allowed": {"1"}}), http.StatusNotFound)

	// The channel switch.
	wantRedirect(t, c.post(t, "/settings/integrations/mcp", url.Values{"enabled": {"0"}}), "/settings/integrations/mcp")
	wantBody(t, c.get(t, "/settings/integrations/mcp"), `data-testid="mcp-channel-state">off<`)
	if status, msg, _ := mcpCall(t, ts, plain, "list_locations", map[string]any{}); status != http.StatusForbidden || !strings.Contains(msg, "switched off") {
		t.Fatalf("channel off: %d %q", status, msg)
	}
	wantRedirect(t, c.post(t, "/settings/integrations/mcp", url.Values{"enabled": {"1"}}), "/settings/integrations/mcp")

	// A booking made by an assistant appears in the day view.
	// Three days ahead, or four when that is a Sunday, when the demo's Providencia is closed.
	zone, zerr := time.LoadLocation("America/Santiago")
	if zerr != nil {
		t.Fatal(zerr)
	}
	day := time.Now().In(zone).AddDate(0, 0, 3)
	if day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, 1)
	}
	_, text, isErr := mcpCall(t, ts, plain, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": day.Format("2006-01-02"), "limit": 1})
	slot := regexp.MustCompile(`slot_id (slot_[A-Za-z0-9_-]+)`).FindStringSubmatch(text)
	date := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`).FindString(text)
	if isErr || slot == nil {
		t.Fatalf("find_free_times: %q", text)
	}
	_, text, isErr = mcpCall(t, ts, plain, "find_or_create_client", map[string]any{"email": "walkin@example.com", "first_name": "Walter", "last_name": "In"})
	clientID := regexp.MustCompile(`client (\d+)`).FindStringSubmatch(text)
	if isErr || clientID == nil {
		t.Fatalf("find_or_create_client: %q", text)
	}
	_, text, isErr = mcpCall(t, ts, plain, "book", map[string]any{"slot_id": slot[1], "client_id": json.Number(clientID[1]), "idempotency_key": "day-view"})
	booked := regexp.MustCompile(`Booking (\d+) \(confirmed\)`).FindStringSubmatch(text)
	if isErr || booked == nil {
		t.Fatalf("book: %q", text)
	}
	wantBody(t, c.get(t, "/bookings/day?location=1&date="+date), `data-booking="`+booked[1]+`"`)
	// The activity trail puts the booking down to the assistant's key (docs/activity.md).
	var kind, label string
	err := openBookingDB(t, ts).Read.QueryRow(`SELECT actor_kind, actor_label FROM activity WHERE entity = 'booking' AND entity_id = ?`, booked[1]).Scan(&kind, &label)
	if err != nil || kind != "mcp" || label != "Connect sync" {
		t.Errorf("the booking's activity: %q %q (%v), want mcp and the key's name", kind, label, err)
	}

	// In Spanish.
	form := businessForm()
	form.Set("language", "es")
	wantRedirect(t, c.post(t, "/settings/business", form), "/settings/business")
	wantBody(t, c.get(t, "/settings/integrations/mcp"), "Asistentes de IA (MCP)", `data-testid="mcp-channel-state">activada<`, "Retirar Connect sync")
}
