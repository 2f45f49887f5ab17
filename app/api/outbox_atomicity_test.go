package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/catalog"
	"frontdesk/app/clients"
	"frontdesk/app/payments"
	"frontdesk/app/webhook"
)

// Every outbox writer — each code path that records a webhook event — writes its change and
// its event (and the event's deliveries, and for bookings the customer-message outbox) in one
// transaction: both are kept or neither (docs/webhooks.md). For each writer a failure is injected with a database trigger, a real
// refusal inside the real transaction: first the event insert fails, then the delivery insert,
// and the change must not be kept; then the change itself fails, and no event may be kept.
// Last, without a fault, the change and its event are both there. The database is compared
// whole, so a write that slips out anywhere is caught. Moving webhook.Enqueue after the commit
// (or before the change, in its own transaction) fails this test.
func TestOutboxWritersAreAtomic(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	ctx := context.Background()
	if _, _, err := webhook.NewManager(f.db, webhook.ManagerOptions{}).Create(ctx, webhook.CreateInput{
		URL: "https://hooks.example.com/in", Events: []string{"*"},
	}); err != nil {
		t.Fatal(err)
	}
	api := func(method, path string, body any, want int) func() error {
		return func() error {
			resp, raw := f.call(method, path, body)
			if resp.StatusCode != want {
				return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
			}
			return nil
		}
	}
	// Records the writers below work on, made before any fault is injected.
	moved := f.book(t, map[string]any{"start_time": "2026-11-24T11:00:00-03:00"})
	cancelled := f.book(t, map[string]any{"start_time": "2026-11-24T12:00:00-03:00"})
	resp, raw := f.call("PATCH", "/v3/clients/3/deactivate", nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	pending := func(start string) paymentRequestResp {
		cart := f.createCart(t, map[string]any{"client_id": 1, "location_id": 1,
			"items": []any{cartItem(map[string]any{"instances": bookingInstance(start)})}})
		return f.createPaymentRequest(t, cart.ID)
	}
	toCancel := pending("2026-11-25T13:00:00Z")
	toSettle := pending("2026-11-25T14:00:00Z")
	toExpire := pending("2026-11-25T15:00:00Z")
	forRequest := f.createCart(t, map[string]any{"client_id": 1, "location_id": 1,
		"items": []any{cartItem(map[string]any{"instances": bookingInstance("2026-11-26T13:00:00Z")})}})
	service, err := catalog.EditService(ctx, f.db.R, 1)
	if err != nil {
		t.Fatal(err)
	}
	service.Price = "16000"

	writers := []struct {
		name  string
		event string // the type the writer records
		table string // the table its change writes first, for the reverse fault
		op    string // INSERT or UPDATE
		act   func() error
		// booking: the writer changes bookings, so it also writes the customer-message outbox
		// (app/messages, message_bookings) in its transaction.
		booking bool
	}{
		{"create a booking (API)", "booking.created", "bookings", "INSERT",
			api("POST", "/v3/bookings", bkBooking(map[string]any{"start_time": "2026-11-24T15:00:00-03:00"}), 201), true},
		{"reschedule a booking (API)", "booking.updated", "bookings", "UPDATE",
			api("PATCH", "/v3/bookings/"+itoa(moved.ID), map[string]any{"start_time": "2026-11-24T16:00:00-03:00"}, 200), true},
		{"cancel a booking (API)", "booking.updated", "bookings", "UPDATE",
			api("PATCH", "/v3/bookings/"+itoa(cancelled.ID)+"/cancel", nil, 204), true},
		{"create a client (API)", "client.created", "clients", "INSERT",
			api("POST", "/v3/clients", map[string]any{"first_name": "Nina", "last_name": "Ortiz"}, 201), false},
		{"update a client (API)", "client.updated", "clients", "UPDATE",
			api("PATCH", "/v3/clients/1", map[string]any{"city": "Valparaíso"}, 200), false},
		{"deactivate a client (API)", "client.updated", "clients", "UPDATE",
			api("PATCH", "/v3/clients/2/deactivate", nil, 204), false},
		{"reactivate a client (admin)", "client.updated", "clients", "UPDATE", func() error {
			_, err := clients.Update(ctx, f.db, f.now, 3, clients.Input{Active: clients.Value(true)}, clients.Options{})
			return err
		}, false},
		{"raise a payment request reserving a booking (API)", "booking.created", "payment_requests", "INSERT",
			api("POST", "/v3/carts/"+itoa(forRequest.ID)+"/payment_requests", nil, 201), true},
		{"cancel a payment request, releasing its booking (API)", "booking.updated", "payment_requests", "UPDATE",
			api("PATCH", "/v3/payment_requests/"+itoa(toCancel.ID)+"/cancel", nil, 200), true},
		{"settle a payment request (admin)", "payment_request.paid", "payment_requests", "UPDATE", func() error {
			_, err := payments.Settle(ctx, f.db, toSettle.ID, payments.MethodCash, f.now)
			return err
		}, true},
		{"expire a payment request (worker)", "payment_request.expired", "payment_requests", "UPDATE", func() error {
			later := f.now.Add(2 * time.Hour)
			e := payments.NewExpirer(f.db, nil, func() time.Time { return later })
			if _, err := e.ExpireDue(ctx); err != nil {
				return err
			}
			if got := bkCount(t, f, `SELECT count(*) FROM payment_requests WHERE id = ? AND status = 'expired'`, toExpire.ID); got != 1 {
				return fmt.Errorf("request %d not expired", toExpire.ID)
			}
			return nil
		}, true},
		{"change a service (admin)", "service.updated", "services", "UPDATE", func() error {
			_, err := catalog.UpdateService(ctx, f.db, 1, service, f.now)
			return err
		}, false},
		{"rename a category (admin)", "service.updated", "categories", "UPDATE", func() error {
			_, err := catalog.UpdateCategory(ctx, f.db, 1, catalog.CategoryInput{Name: "Hair & beard", Order: "2"}, f.now)
			return err
		}, false},
	}
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			faults := []struct{ table, op string }{{"events", "INSERT"}, {"deliveries", "INSERT"}, {w.table, w.op}}
			if w.booking {
				faults = append(faults, struct{ table, op string }{"message_bookings", "INSERT"})
			}
			for _, fault := range faults {
				before := f.digest(t)
				undo := f.injectFault(t, fault.table, fault.op)
				err := w.act()
				undo()
				if err == nil {
					t.Fatalf("with %s %s failing: the writer reported success", fault.op, fault.table)
				}
				if after := f.digest(t); after != before {
					t.Fatalf("with %s %s failing (%v): the database changed — part of the write was kept", fault.op, fault.table, err)
				}
			}
			events := bkCount(t, f, `SELECT count(*) FROM events WHERE type = ?`, w.event)
			if err := w.act(); err != nil {
				t.Fatalf("without a fault: %v", err)
			}
			if got := bkCount(t, f, `SELECT count(*) FROM events WHERE type = ?`, w.event); got <= events {
				t.Fatalf("without a fault: no %s event recorded", w.event)
			}
			if n := bkCount(t, f, `SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)`); n != 0 {
				t.Fatalf("%d events without their delivery", n)
			}
		})
	}
	t.Run("send a test event (admin)", func(t *testing.T) {
		before := f.digest(t)
		undo := f.injectFault(t, "deliveries", "INSERT")
		_, err := webhook.NewManager(f.db, webhook.ManagerOptions{}).SendTest(ctx, 1)
		undo()
		if err == nil || f.digest(t) != before {
			t.Fatalf("test event with its delivery failing: err %v, database changed %v", err, f.digest(t) != before)
		}
	})
}

// injectFault makes every op (INSERT or UPDATE) on table fail inside whatever transaction
// tries it, until the returned function removes the trigger.
func (f *fixture) injectFault(t *testing.T, table, op string) func() {
	t.Helper()
	name := "inject_fault_" + strings.ToLower(op) + "_" + table
	if _, err := f.db.Write.Exec(fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s BEGIN SELECT RAISE(ABORT, 'injected fault'); END`, name, op, table)); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if _, err := f.db.Write.Exec(`DROP TRIGGER ` + name); err != nil {
			t.Fatal(err)
		}
	}
}

// digest fingerprints every row of every table but the API's own bookkeeping (keys' last use,
// idempotency keys), so any write that was kept shows.
func (f *fixture) digest(t *testing.T) string {
	t.Helper()
	rows, err := f.db.Read.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('api_keys', 'idempotency_keys') ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	h := sha256.New()
	for _, table := range tables {
		rows, err := f.db.Read.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		fmt.Fprintf(h, "%s\n", table)
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%v\n", vals)
		}
		rows.Close()
	}
	return hex.EncodeToString(h.Sum(nil))
}
