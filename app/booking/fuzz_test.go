package booking

import (
	"testing"
	"time"
)

// FuzzParseDate: a date is accepted exactly when it is a real YYYY-MM-DD calendar date in the
// supported years (Date.IsValid), and then it prints back as the same text.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-11-24", "2026-02-29", "2028-02-29", "2026-13-01", "0000-01-01", "9999-12-31", "2026-1-1", "2026-11-24T00:00:00Z", " 2026-11-24"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		ref, refErr := time.Parse("2006-01-02", s)
		if (err == nil) != (refErr == nil && len(s) == 10 && DateOf(ref).IsValid()) {
			t.Fatalf("ParseDate(%q) error %v, time.Parse error %v", s, err, refErr)
		}
		if err != nil {
			return
		}
		if d.String() != s || DateOf(ref) != d {
			t.Fatalf("ParseDate(%q) = %v (prints %q), want the same date", s, d, d.String())
		}
	})
}
