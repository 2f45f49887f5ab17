package webhook

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCreateValidates(t *testing.T) {
	tests := []struct {
		name      string
		in        CreateInput
		wantField string
		wantErr   error
	}{
		{name: "ok", in: CreateInput{URL: "https://hooks.example.com/x", Events: []string{"booking.*", "client.created"}}},
		{name: "empty URL", in: CreateInput{URL: "", Events: []string{"*"}}, wantField: "url", wantErr: ErrInvalidURL},
		{name: "relative URL", in: CreateInput{URL: "/hooks", Events: []string{"*"}}, wantField: "url", wantErr: ErrInvalidURL},
		{name: "ftp URL", in: CreateInput{URL: "ftp://example.com/", Events: []string{"*"}}, wantField: "url", wantErr: ErrInvalidURL},
		{name: "credentials", in: CreateInput{URL: "https://u:p@example.com/", Events: []string{"*"}}, wantField: "url", wantErr: ErrInvalidURL},
		{name: "loopback literal", in: CreateInput{URL: "http://127.0.0.1:9000/", Events: []string{"*"}}, wantField: "url", wantErr: ErrPrivateTarget},
		{name: "localhost", in: CreateInput{URL: "http://localhost:9000/", Events: []string{"*"}}, wantField: "url", wantErr: ErrPrivateTarget},
		{name: "metadata literal", in: CreateInput{URL: "http://169.254.169.254/", Events: []string{"*"}}, wantField: "url", wantErr: ErrPrivateTarget},
		{name: "private literal opted in", in: CreateInput{URL: "http://192.168.1.5/", Events: []string{"*"}, AllowPrivate: true}},
		{name: "no events", in: CreateInput{URL: "https://example.com/", Events: nil}, wantField: "events", wantErr: ErrInvalidPatterns},
		{name: "unknown event", in: CreateInput{URL: "https://example.com/", Events: []string{"booking.deleted"}}, wantField: "events", wantErr: ErrInvalidPatterns},
		{name: "the test event", in: CreateInput{URL: "https://example.com/", Events: []string{TestEvent}}},
		{name: "long description", in: CreateInput{URL: "https://example.com/", Events: []string{"*"}, Description: strings.Repeat("x", 501)}, wantField: "description", wantErr: ErrInvalidDescription},
		{name: "control character", in: CreateInput{URL: "https://example.com/", Events: []string{"*"}, Description: "a\x00b"}, wantField: "description", wantErr: ErrInvalidDescription},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, secret, err := h.m.Create(context.Background(), tt.in)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Create: %v, want success", err)
				}
				if !strings.HasPrefix(secret, "whsec_") || w.ID == 0 || w.State != WebhookActive || len(w.Secrets) != 1 {
					t.Errorf("Create = %+v, %q; want an active webhook with one whsec_ secret", w, secret)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tt.wantField || !errors.Is(err, tt.wantErr) {
				t.Errorf("Create: %v, want a FieldError on %q wrapping %v", err, tt.wantField, tt.wantErr)
			}
		})
	}
}

func TestCreateLimit(t *testing.T) {
	h := newHarness(t)
	h.m = NewManager(h.db, ManagerOptions{Limit: 2})
	for range 2 {
		h.create("https://example.com/", "*")
	}
	_, _, err := h.m.Create(context.Background(), CreateInput{URL: "https://example.com/", Events: []string{"*"}})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "" || !errors.Is(err, ErrTooManyWebhooks) {
		t.Errorf("third Create with limit 2: %v, want a form-level ErrTooManyWebhooks", err)
	}
}

func TestUpdateAndDelete(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	w, _ := h.create("https://example.com/a", "*")
	url, desc := "https://example.com/b", "CRM"
	got, err := h.m.Update(ctx, w.ID, UpdateInput{URL: &url, Events: []string{"service.updated"}, Description: &desc})
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != url || got.Description != desc || len(got.Events) != 1 || got.Events[0] != "service.updated" {
		t.Errorf("Update = %+v, want the new URL, events and description", got)
	}
	bad := "http://10.0.0.1/"
	if _, err := h.m.Update(ctx, w.ID, UpdateInput{URL: &bad}); !errors.Is(err, ErrPrivateTarget) {
		t.Errorf("Update to a private literal without opt-in: %v, want ErrPrivateTarget", err)
	}
	if err := h.m.Delete(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Get":    func() error { _, err := h.m.Get(ctx, w.ID); return err }(),
		"Delete": h.m.Delete(ctx, w.ID),
		"Update": func() error { _, err := h.m.Update(ctx, w.ID, UpdateInput{Description: &desc}); return err }(),
		"Rotate": func() error { _, err := h.m.RotateSecret(ctx, w.ID, time.Hour); return err }(),
		"Reactivate": func() error {
			_, err := h.m.Reactivate(ctx, w.ID, true)
			return err
		}(),
		"SendTest": func() error { _, err := h.m.SendTest(ctx, w.ID); return err }(),
		"Resend":   func() error { _, err := h.m.Resend(ctx, 12345); return err }(),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s of a deleted webhook: %v, want ErrNotFound", name, err)
		}
	}
	if _, err := h.m.RotateSecret(ctx, 1, -time.Second); !errors.Is(err, ErrInvalidState) {
		t.Errorf("RotateSecret with a negative grace: %v, want an error", err)
	}
}

func TestDeliveryLogFiltersAndPages(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	w, _ := h.create("https://example.com/", "*") // never dispatched: every delivery stays pending
	var clientIDs []string
	for i := range 5 {
		clientIDs = append(clientIDs, h.enqueue(ClientCreated, map[string]any{"id": i}))
		h.enqueue(BookingCreated, map[string]any{"id": i})
	}
	tests := []struct {
		name      string
		f         DeliveryFilter
		wantTotal int
		wantRows  int
		wantPages int
	}{
		{name: "all", f: DeliveryFilter{WebhookID: w.ID}, wantTotal: 10, wantRows: 10, wantPages: 1},
		{name: "by type", f: DeliveryFilter{WebhookID: w.ID, EventType: ClientCreated}, wantTotal: 5, wantRows: 5, wantPages: 1},
		{name: "by state", f: DeliveryFilter{WebhookID: w.ID, State: StateSucceeded}, wantTotal: 0, wantRows: 0, wantPages: 0},
		{name: "second page", f: DeliveryFilter{WebhookID: w.ID, Page: 2, PerPage: 4}, wantTotal: 10, wantRows: 4, wantPages: 3},
		{name: "last page", f: DeliveryFilter{WebhookID: w.ID, Page: 3, PerPage: 4}, wantTotal: 10, wantRows: 2, wantPages: 3},
		{name: "before the events", f: DeliveryFilter{WebhookID: w.ID, To: time.Now().Add(-time.Hour)}, wantTotal: 0, wantRows: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := h.m.Deliveries(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != tt.wantTotal || len(p.Deliveries) != tt.wantRows || p.TotalPages != tt.wantPages {
				t.Errorf("got total %d, %d rows, %d pages; want %d, %d, %d", p.Total, len(p.Deliveries), p.TotalPages, tt.wantTotal, tt.wantRows, tt.wantPages)
			}
		})
	}
	p, _ := h.m.Deliveries(ctx, DeliveryFilter{WebhookID: w.ID, EventType: ClientCreated})
	if p.Deliveries[0].EventID != clientIDs[4] {
		t.Errorf("first row %s, want the newest event %s", p.Deliveries[0].EventID, clientIDs[4])
	}
	if _, err := h.m.Deliveries(ctx, DeliveryFilter{WebhookID: w.ID, State: "lost"}); !errors.Is(err, ErrInvalidState) {
		t.Errorf("unknown state filter: %v, want an error", err)
	}
	found, err := h.m.FindEvent(ctx, clientIDs[0])
	if err != nil || len(found) != 1 || found[0].EventType != ClientCreated {
		t.Errorf("FindEvent = %+v, %v; want the one client.created delivery", found, err)
	}
}
