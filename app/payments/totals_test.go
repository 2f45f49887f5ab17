package payments

import (
	"database/sql"
	"strings"
	"testing"
)

func TestAmounts(t *testing.T) {
	amount := sql.NullString{String: DiscountAmount, Valid: true}
	percent := sql.NullString{String: DiscountPercentage, Valid: true}
	tests := []struct {
		name                  string
		price, quantity       int64
		discount              sql.NullInt64
		kind                  sql.NullString
		wantGross, wantDiscnt int64
	}{
		{"no discount", 1500000, 2, sql.NullInt64{}, sql.NullString{}, 3000000, 0},
		{"amount without type", 1000, 3, sql.NullInt64{Int64: 250, Valid: true}, sql.NullString{}, 3000, 750},
		{"amount", 1000, 1, sql.NullInt64{Int64: 1000, Valid: true}, amount, 1000, 1000},
		{"10 percent", 499050, 2, sql.NullInt64{Int64: 1000, Valid: true}, percent, 998100, 99810},
		{"percent rounds half up per unit", 5, 3, sql.NullInt64{Int64: 5000, Valid: true}, percent, 15, 9},
		{"100 percent", 777, 1, sql.NullInt64{Int64: 10000, Valid: true}, percent, 777, 777},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := amounts(tc.price, tc.quantity, tc.discount, tc.kind)
			if got.GrossCents != tc.wantGross || got.DiscountCents != tc.wantDiscnt {
				t.Errorf("got gross %d discount %d, want %d %d", got.GrossCents, got.DiscountCents, tc.wantGross, tc.wantDiscnt)
			}
		})
	}
}

func TestUUIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		u := newUUID()
		if !isUUID(u) || u[14] != '4' || !strings.ContainsRune("89ab", rune(u[19])) || u != strings.ToLower(u) {
			t.Fatalf("got %q, want a lower-case version 4 UUID", u)
		}
		if seen[u] {
			t.Fatalf("got %q twice", u)
		}
		seen[u] = true
	}
	for _, bad := range []string{"", "x", "0000000000000000000000000000000000000", "00000000-0000-4000-8000-00000000000g", "00000000_0000-4000-8000-000000000000"} {
		if isUUID(bad) {
			t.Errorf("isUUID(%q) = true, want false", bad)
		}
	}
}

func TestUTCStart(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"2026-08-01T13:00:00Z", true},
		{"2026-08-01T13:00:00+00:00", true},
		{"2026-08-01T13:00:00.5Z", true},
		{"2026-08-01T10:00:00-03:00", false},
		{"2026-08-01T13:00:00", false},
		{"2026-08-01", false},
	} {
		_, err := utcStart("p", tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("utcStart(%q): got error %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}
