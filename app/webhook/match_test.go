package webhook

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	tests := []struct {
		name      string
		patterns  []string
		eventType string
		want      bool
	}{
		{name: "exact", patterns: []string{"booking.created"}, eventType: BookingCreated, want: true},
		{name: "exact other type", patterns: []string{"booking.created"}, eventType: BookingUpdated, want: false},
		{name: "star", patterns: []string{"*"}, eventType: PaymentRequestExpired, want: true},
		{name: "group", patterns: []string{"booking.*"}, eventType: BookingUpdated, want: true},
		{name: "group other resource", patterns: []string{"booking.*"}, eventType: ClientCreated, want: false},
		{name: "group is not a bare prefix", patterns: []string{"client.*"}, eventType: "clients.created", want: false},
		{name: "star without dot is no group", patterns: []string{"booking*"}, eventType: BookingCreated, want: false},
		{name: "payment group", patterns: []string{"payment_request.*"}, eventType: PaymentRequestPaid, want: true},
		{name: "service group", patterns: []string{"service.*"}, eventType: ServiceUpdated, want: true},
		{name: "second pattern matches", patterns: []string{"client.*", "service.updated"}, eventType: ServiceUpdated, want: true},
		{name: "none match", patterns: []string{"client.*", "service.updated"}, eventType: BookingCreated, want: false},
		{name: "no patterns", patterns: nil, eventType: BookingCreated, want: false},
		{name: "test event ignores patterns", patterns: []string{"client.created"}, eventType: TestEvent, want: true},
		{name: "test event with no patterns", patterns: nil, eventType: TestEvent, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Matches(tt.patterns, tt.eventType); got != tt.want {
				t.Errorf("Matches(%q, %q) = %v, want %v", tt.patterns, tt.eventType, got, tt.want)
			}
		})
	}
}

// Every known type must be reachable through "*" and its own group, or a
// new type added to the list without a group would be unsubscribable.
func TestEveryEventTypeHasAGroup(t *testing.T) {
	for _, et := range EventTypes() {
		group, _, _ := strings.Cut(et, ".")
		if !Matches([]string{group + ".*"}, et) || !Matches([]string{"*"}, et) {
			t.Errorf("event type %q not matched by %q and %q", et, group+".*", "*")
		}
		if err := ValidatePatterns([]string{group + ".*"}); err != nil {
			t.Errorf("group pattern for %q rejected: %v", et, err)
		}
	}
}

func TestValidatePatterns(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		wantErr  string // empty: valid
	}{
		{name: "every known pattern", patterns: Patterns()},
		{name: "single type", patterns: []string{"payment_request.paid"}},
		{name: "star", patterns: []string{"*"}},
		{name: "overlapping is fine", patterns: []string{"*", "booking.created", "booking.*"}},
		{name: "nil", patterns: nil, wantErr: "at least one"},
		{name: "empty", patterns: []string{}, wantErr: "at least one"},
		{name: "unknown type", patterns: []string{"booking.created", "booking.deleted"}, wantErr: `"booking.deleted"`},
		{name: "unknown group", patterns: []string{"invoice.*"}, wantErr: `"invoice.*"`},
		{name: "empty string", patterns: []string{""}, wantErr: `pattern ""`},
		{name: "wrong case", patterns: []string{"Booking.Created"}, wantErr: `"Booking.Created"`},
		{name: "surrounding space", patterns: []string{" booking.created"}, wantErr: `" booking.created"`},
		{name: "partial wildcard", patterns: []string{"booking.cre*"}, wantErr: `"booking.cre*"`},
		{name: "double star", patterns: []string{"**"}, wantErr: `"**"`},
		{name: "the test event", patterns: []string{"webhook.test"}},
		{name: "the test event with others", patterns: []string{"booking.*", "webhook.test"}},
		{name: "the test event as a group", patterns: []string{"webhook.*"}, wantErr: `"webhook.*"`},
		{name: "duplicate", patterns: []string{"client.*", "booking.created", "client.*"}, wantErr: `"client.*" is listed more than once`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidatePatterns(tt.patterns)
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("ValidatePatterns(%q) = %v, want nil", tt.patterns, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ValidatePatterns(%q) = nil, want error containing %s", tt.patterns, tt.wantErr)
			}
			if !errors.Is(err, ErrInvalidPatterns) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ValidatePatterns(%q) = %q, want ErrInvalidPatterns containing %s", tt.patterns, err, tt.wantErr)
			}
		})
	}
}

func TestListsAreCopies(t *testing.T) {
	types := EventTypes()
	types[0] = "tampered"
	if slices.Contains(EventTypes(), "tampered") {
		t.Errorf("EventTypes() shares its backing array with callers, want a copy")
	}
	pats := Patterns()
	pats[0] = "tampered"
	if slices.Contains(Patterns(), "tampered") {
		t.Errorf("Patterns() shares its backing array with callers, want a copy")
	}
}

// TestParsePatterns: each events_json text gives its own patterns; a text that is not a JSON
// array of strings is an error.
func TestParsePatterns(t *testing.T) {
	for text, want := range map[string][]string{
		`["booking.*"]`:                   {"booking.*"},
		`["booking.created","client.*"]`:  {"booking.created", "client.*"},
		`["booking.created", "client.*"]`: {"booking.created", "client.*"},
		`["*"]`:                           {"*"},
	} {
		got, err := parsePatterns(text)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("parsePatterns(%s) = %q, %v; want %q", text, got, err, want)
		}
	}
	if _, err := parsePatterns(`{"not": "a list"}`); err == nil {
		t.Error("an object parsed as patterns")
	}
}
