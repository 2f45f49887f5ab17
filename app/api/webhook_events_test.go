package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"frontdesk/app/catalog"
	"frontdesk/app/payments"
	"frontdesk/app/webhook"
)

// eventSchema is the schema our document gives the body of one webhook event type.
func eventSchema(t *testing.T, eventType string) *openapi3.Schema {
	t.Helper()
	doc, err := ourDoc()
	if err != nil {
		t.Fatal(err)
	}
	item := doc.Webhooks[eventType]
	if item == nil || item.Post == nil || item.Post.RequestBody == nil {
		t.Fatalf("our document has no webhooks entry for %s", eventType)
	}
	return item.Post.RequestBody.Value.Content.Get("application/json").Schema.Value
}

// TestWebhookEventsMatchOpenAPI: every event type frontdesk sends, produced by the code that
// really sends it (the API, the catalogue, settlement, expiry, the test-event button), has a
// body the document's webhooks section accepts; and the section refuses a body without the
// fields a receiver relies on.
func TestWebhookEventsMatchOpenAPI(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	ctx := context.Background()
	b := f.book(t, nil)
	resp, raw := f.call("PATCH", "/v3/bookings/"+itoa(b.ID)+"/cancel", nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	resp, raw = f.call("POST", "/v3/clients", `{"first_name":"Rosa","last_name":"Diaz"}`)
	wantStatus(t, resp, raw, http.StatusCreated)
	resp, raw = f.call("PATCH", "/v3/clients/1", `{"city":"Santiago"}`)
	wantStatus(t, resp, raw, http.StatusOK)
	c := f.createCart(t, haircutCart())
	pr := f.createPaymentRequest(t, c.ID)
	if _, err := payments.Settle(ctx, f.db, pr.ID, payments.MethodCash, f.now); err != nil {
		t.Fatal(err)
	}
	c2 := f.createCart(t, map[string]any{"client_id": 2, "location_id": 1,
		"items": []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-24T15:00:00Z")})}})
	f.createPaymentRequest(t, c2.ID)
	f.now = f.now.Add(payments.DefaultExpiry + time.Second)
	if _, err := payments.NewExpirer(f.db, testLogger(t), func() time.Time { return f.now }).ExpireDue(ctx); err != nil {
		t.Fatal(err)
	}
	in, err := catalog.EditService(ctx, f.db.R, 2)
	if err != nil {
		t.Fatal(err)
	}
	in.Price = "47000"
	if _, err := catalog.UpdateService(ctx, f.db, 2, in, f.now); err != nil {
		t.Fatal(err)
	}
	m := webhook.NewManager(f.db, webhook.ManagerOptions{Now: func() time.Time { return f.now }})
	w, _, err := m.Create(ctx, webhook.CreateInput{URL: "https://hooks.example.com/in", Events: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.SendTest(ctx, w.ID); err != nil {
		t.Fatal(err)
	}

	seen := map[string]int{}
	for _, e := range bkEvents(t, f) {
		var body any
		raw, _ := json.Marshal(e)
		json.Unmarshal(raw, &body)
		if err := eventSchema(t, e.Type).VisitJSON(body, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("%s body %s does not match the webhooks section: %v", e.Type, raw, err)
		}
		seen[e.Type]++
	}
	for _, typ := range append(webhook.EventTypes(), webhook.TestEvent) {
		if seen[typ] == 0 {
			t.Errorf("no %s event was produced to check", typ)
		}
	}

	// The section is strict enough to catch a receiver-visible regression.
	var last bkEvent
	for _, e := range bkEvents(t, f) {
		if e.Type == "booking.updated" {
			last = e
		}
	}
	raw, _ = json.Marshal(last)
	var broken any
	json.Unmarshal([]byte(strings.Replace(string(raw), `"status_id":`, `"status_number":`, 1)), &broken)
	if err := eventSchema(t, "booking.updated").VisitJSON(broken, openapi3.EnableJSONSchema2020()); err == nil {
		t.Error("the webhooks section accepted a booking event without status_id")
	}
}
