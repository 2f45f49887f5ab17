package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// Ids the import assigns (fixture_test.go).
const (
	locationProvidencia = 1
	serviceHaircut      = 1
	providerBen         = 1
)

type slot struct {
	SlotID       string `json:"slot_id"`
	Date         string `json:"date"`
	LocalTime    string `json:"local_time"`
	LocalEndTime string `json:"local_end_time"`
	UTCOffset    string `json:"utc_offset"`
	StartsAt     string `json:"starts_at"`
	ProviderID   int64  `json:"provider_id"`
	Note         string `json:"note"`
}

type freeTimes struct {
	FromDate   string `json:"from_date"`
	Slots      []slot `json:"slots"`
	TotalFound int    `json:"total_found"`
}

type bookingOut struct {
	BookingID int64  `json:"booking_id"`
	Status    string `json:"status"`
	Date      string `json:"date"`
	LocalTime string `json:"local_time"`
	UTCOffset string `json:"utc_offset"`
	StartsAt  string `json:"starts_at"`
}

// fallBackSlots finds Ben's times on the Santiago fall-back evening and returns the two
// 23:30s, first (-03:00) and second (-04:00).
func fallBackSlots(t *testing.T, cs *sdk.ClientSession) (first, second slot) {
	t.Helper()
	var ft freeTimes
	// "this Saturday" on Thursday 2027-04-01 is 2027-04-03, read in Santiago's calendar.
	r := ok(t, cs, "find_free_times", map[string]any{
		"location_id": locationProvidencia, "service_id": serviceHaircut, "provider_id": providerBen, "date": "this Saturday",
	}, &ft)
	if ft.FromDate != "2027-04-03" {
		t.Fatalf("this Saturday resolved to %s, want 2027-04-03", ft.FromDate)
	}
	var at2330 []slot
	for _, s := range ft.Slots {
		if s.LocalTime == "23:30" {
			at2330 = append(at2330, s)
		}
	}
	if len(at2330) != 2 {
		t.Fatalf("got %d slots at 23:30, want 2 (the hour repeats when clocks go back):\n%s", len(at2330), r.text)
	}
	first, second = at2330[0], at2330[1]
	if first.StartsAt != "2027-04-03T23:30:00-03:00" || first.UTCOffset != "-03:00" ||
		second.StartsAt != "2027-04-03T23:30:00-04:00" || second.UTCOffset != "-04:00" {
		t.Fatalf("the two 23:30s: got %+v and %+v, want -03:00 then -04:00", first, second)
	}
	if first.SlotID == second.SlotID || !strings.Contains(first.Note, "first") || !strings.Contains(second.Note, "second") {
		t.Fatalf("the two 23:30s are not told apart: %+v / %+v", first, second)
	}
	if second.LocalEndTime != "00:00" || first.LocalEndTime != "23:00" {
		t.Fatalf("end times: got %s and %s, want 23:00 (30 real minutes across the change) and 00:00", first.LocalEndTime, second.LocalEndTime)
	}
	// The text a model reads tells them apart too.
	if !strings.Contains(r.text, "23:30-23:00 (UTC-03:00)") || !strings.Contains(r.text, "23:30-00:00 (UTC-04:00)") {
		t.Fatalf("text does not show both 23:30s with their offsets:\n%s", r.text)
	}
	return first, second
}

// TestAssistantBooksLikeTheAPI is the whole flow of an assistant through a client built on the
// official SDK, compared with the same operations through /v3 on an identical business: the
// bookings, the outbox events and the webhook deliveries must be the same (only the source
// differs: mcp, connect).
func TestAssistantBooksLikeTheAPI(t *testing.T) {
	t.Parallel()
	viaMCP, viaAPI := newFixture(t), newFixture(t)

	cs := viaMCP.connect(viaMCP.fullKey)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"list_locations", "list_services", "resolve_date", "find_free_times",
		"find_or_create_client", "book", "reschedule_booking", "cancel_booking", "upcoming_bookings"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools %v: %s missing", names, want)
		}
	}

	first, second := fallBackSlots(t, cs)
	var client struct {
		ClientID int64 `json:"client_id"`
	}
	ok(t, cs, "find_or_create_client", map[string]any{"email": "Maria@Example.com"}, &client)
	if client.ClientID != clientMaria {
		t.Fatalf("found client %d, want %d", client.ClientID, clientMaria)
	}

	var b bookingOut
	ok(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": client.ClientID, "idempotency_key": "k-1"}, &b)
	if b.Status != "confirmed" || b.LocalTime != "23:30" || b.UTCOffset != "-03:00" || b.StartsAt != first.StartsAt {
		t.Fatalf("booked %+v, want confirmed at the first 23:30", b)
	}
	ok(t, cs, "reschedule_booking", map[string]any{"booking_id": b.BookingID, "client_id": client.ClientID, "slot_id": second.SlotID}, &b)
	if b.StartsAt != second.StartsAt || b.UTCOffset != "-04:00" {
		t.Fatalf("rescheduled %+v, want the second 23:30", b)
	}
	var upcoming struct {
		Bookings []bookingOut `json:"bookings"`
	}
	ok(t, cs, "upcoming_bookings", map[string]any{"client_id": client.ClientID}, &upcoming)
	if len(upcoming.Bookings) != 1 || upcoming.Bookings[0].BookingID != b.BookingID {
		t.Fatalf("upcoming: got %+v, want booking %d", upcoming.Bookings, b.BookingID)
	}
	ok(t, cs, "cancel_booking", map[string]any{"booking_id": b.BookingID, "client_id": client.ClientID}, &b)
	if b.Status != "cancelled" {
		t.Fatalf("cancelled booking has status %q", b.Status)
	}
	ok(t, cs, "upcoming_bookings", map[string]any{"client_id": client.ClientID}, &upcoming)
	if len(upcoming.Bookings) != 0 {
		t.Fatalf("upcoming after cancel: %+v, want none", upcoming.Bookings)
	}

	// The same through /v3.
	v3 := func(method, path string, body any, want int) {
		t.Helper()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, viaAPI.srv.URL+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+viaAPI.fullKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, out, want)
		}
	}
	v3("POST", "/v3/bookings", map[string]any{"location_id": locationProvidencia, "service_id": serviceHaircut,
		"provider_id": providerBen, "client_id": clientMaria, "status_id": 1, "start_time": first.StartsAt}, 201)
	v3("PATCH", fmt.Sprintf("/v3/bookings/%d", b.BookingID), map[string]any{"start_time": second.StartsAt}, 200)
	v3("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", b.BookingID), nil, 204)

	// Bookings: the same rows but for the source.
	mcpRows, apiRows := rows(t, viaMCP, "SELECT * FROM bookings ORDER BY id"), rows(t, viaAPI, "SELECT * FROM bookings ORDER BY id")
	if len(mcpRows) != 1 || mcpRows[0]["source"] != "mcp" || apiRows[0]["source"] != "connect" {
		t.Fatalf("bookings: %v; want one with source mcp (and connect through /v3)", mcpRows)
	}
	delete(mcpRows[0], "source")
	delete(apiRows[0], "source")
	if fmt.Sprint(mcpRows) != fmt.Sprint(apiRows) {
		t.Fatalf("booking rows differ:\nmcp %v\nv3  %v", mcpRows, apiRows)
	}
	// Events: the same types and bodies, in the same order.
	q := "SELECT type, CAST(body AS TEXT) AS body FROM events ORDER BY rowid"
	mcpEvents, apiEvents := rows(t, viaMCP, q), rows(t, viaAPI, q)
	if len(mcpEvents) != 3 || fmt.Sprint(mcpEvents) != fmt.Sprint(apiEvents) {
		t.Fatalf("events differ:\nmcp %v\nv3  %v", mcpEvents, apiEvents)
	}
	// Webhook deliveries: the same signed bodies arrive.
	bodies := func(f *fixture) []string {
		wh, err := standardwebhooks.NewWebhook(f.secret)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range f.hooks.wait(t, 3) {
			if err := wh.VerifyIgnoringTimestamp(d.body, d.header); err != nil {
				t.Fatalf("delivery does not verify: %v", err)
			}
			out = append(out, string(d.body))
		}
		slices.Sort(out) // deliveries may overtake each other
		return out
	}
	if m, a := bodies(viaMCP), bodies(viaAPI); !slices.Equal(m, a) {
		t.Fatalf("webhook deliveries differ:\nmcp %q\nv3  %q", m, a)
	}
}

// rows reads a query as maps of column → value, for comparing records.
func rows(t *testing.T, f *fixture, query string) []map[string]any {
	t.Helper()
	rs, err := f.db.Read.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []map[string]any
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		m := map[string]any{}
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b)
			}
			m[c] = vals[i]
		}
		out = append(out, m)
	}
	return out
}
