package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Hostile arguments — wrong types, huge strings, unknown fields, control characters — get a
// tool error naming the argument, never a protocol failure or a 5xx, and write nothing.
func TestHostileArguments(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	first, _ := fallBackSlots(t, cs)
	huge := strings.Repeat("x", 100<<10) // under the 1 MiB body limit, 100 times over every field's
	book := func(over map[string]any) map[string]any {
		args := map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "k"}
		for k, v := range over {
			if v == nil {
				delete(args, k)
			} else {
				args[k] = v
			}
		}
		return args
	}
	cases := []struct {
		name  string
		tool  string
		args  any
		field string // the argument the error must name
	}{
		{"slot id a number", "book", book(map[string]any{"slot_id": 5}), "slot_id"},
		{"client id a string", "book", book(map[string]any{"client_id": "1"}), "client_id"},
		{"client id a fraction", "book", book(map[string]any{"client_id": 1.5}), "client_id"},
		{"client id too big", "book", book(map[string]any{"client_id": 1e30}), "client_id"},
		{"client id negative", "book", book(map[string]any{"client_id": -1}), "client_id"},
		{"client id missing", "book", book(map[string]any{"client_id": nil}), "client_id"},
		{"client id unknown", "book", book(map[string]any{"client_id": 999}), "client_id"},
		{"unknown field", "book", book(map[string]any{"start_time": "2027-04-03T23:30:00Z"}), "start_time"},
		{"nested unknown field", "cancel_booking", map[string]any{"booking_id": 1, "client_id": 1, "extra": map[string]any{"a": 1}}, "extra"},
		{"huge slot id", "book", book(map[string]any{"slot_id": huge}), "slot_id"},
		{"forged slot id", "book", book(map[string]any{"slot_id": forge(first.SlotID)}), "slot_id"},
		{"huge notes", "book", book(map[string]any{"notes": huge}), "notes"},
		{"NUL in notes", "book", book(map[string]any{"notes": "hi\x00there"}), "notes"},
		{"idempotency key too long", "book", book(map[string]any{"idempotency_key": strings.Repeat("k", 256)}), "idempotency_key"},
		{"idempotency key not ASCII", "book", book(map[string]any{"idempotency_key": "clé"}), "idempotency_key"},
		{"idempotency key missing", "book", book(map[string]any{"idempotency_key": nil}), "idempotency_key"},
		{"arguments an array", "book", []int{1, 2}, "arguments"},
		{"arguments a string", "list_services", "all of them", "arguments"},
		{"huge date", "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": huge}, "date"},
		{"date a number", "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": 20270403}, "date"},
		{"nonsense date", "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "the twelfth of never"}, "date"},
		{"days out of range", "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "tomorrow", "days": 1000}, "days"},
		{"bad after", "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "tomorrow", "after": "25:00"}, "after"},
		{"location an object", "find_free_times", map[string]any{"location_id": map[string]any{}, "service_id": 1, "date": "tomorrow"}, "location_id"},
		{"unknown location", "find_free_times", map[string]any{"location_id": 99, "service_id": 1, "date": "tomorrow"}, "location_id"},
		{"huge email", "find_or_create_client", map[string]any{"email": huge}, "email"},
		{"bad email", "find_or_create_client", map[string]any{"email": "not an email", "first_name": "X"}, "email"},
		{"bad phone", "find_or_create_client", map[string]any{"phone": "call me maybe", "first_name": "X"}, "phone"},
		{"huge first name", "find_or_create_client", map[string]any{"email": "new@example.com", "first_name": huge}, "first_name"},
		{"phrase a list", "resolve_date", map[string]any{"phrase": []string{"tomorrow"}, "location_id": 1}, "phrase"},
		{"huge query", "list_services", map[string]any{"query": huge}, "query"},
		{"location a bool", "list_services", map[string]any{"location_id": true}, "location_id"},
		{"booking id a string", "reschedule_booking", map[string]any{"booking_id": "x", "client_id": 1, "slot_id": first.SlotID}, "booking_id"},
		{"no such booking", "cancel_booking", map[string]any{"booking_id": 1, "client_id": 2}, "booking_id"},
	}
	tables := []string{"bookings", "events", "deliveries", "clients", "idempotency_keys"}
	before := map[string]int{}
	for _, tb := range tables {
		before[tb] = count(t, f, "SELECT count(*) FROM "+tb)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, cs, c.tool, c.args)
			if !r.isError {
				t.Fatalf("got success %q, want a tool error", r.text)
			}
			kind, rest, _ := strings.Cut(r.text, ": ")
			if kind != "invalid_input" && kind != "not_found" || !strings.HasPrefix(rest, c.field+":") {
				t.Fatalf("got %q, want invalid_input or not_found naming %s", clipped(r.text), c.field)
			}
			if len(r.text) > 2000 || strings.Contains(r.text, "goroutine") || strings.Contains(r.text, "sql") {
				t.Fatalf("error text leaks or echoes too much: %q", clipped(r.text))
			}
		})
	}
	for _, tb := range tables {
		if n := count(t, f, "SELECT count(*) FROM "+tb); n != before[tb] {
			t.Fatalf("%s: %d rows after hostile calls, want %d", tb, n, before[tb])
		}
	}

	// On the wire, whatever the body: never a 5xx.
	big, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "book", "arguments": map[string]any{"notes": strings.Repeat("y", 2<<20)}}})
	for _, body := range []string{
		string(big),
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book","arguments":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"nonsense"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"`,
		`[1,2,3]`,
		`"\u0000"`,
	} {
		resp, out := rawPost(t, f, f.fullKey, body)
		if resp.StatusCode >= 500 {
			t.Fatalf("body %.60q: status %d %s", body, resp.StatusCode, clipped(out))
		}
	}
	for _, tb := range tables {
		if n := count(t, f, "SELECT count(*) FROM "+tb); n != before[tb] {
			t.Fatalf("%s: %d rows after hostile requests, want %d", tb, n, before[tb])
		}
	}
}

// forge changes every character of a slot id's last eight to another one.
func forge(id string) string {
	b := []byte(id)
	for i := len(b) - 8; i < len(b); i++ {
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
	}
	return string(b)
}

func clipped(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
