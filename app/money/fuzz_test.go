package money

import (
	"regexp"
	"strconv"
	"testing"
)

var decimal = regexp.MustCompile(`^[0-9]{1,13}(\.[0-9]{1,2})?$`)

// FuzzParse: Parse accepts exactly the documented decimals (digits, at most two decimals, at
// most MaxCents), its value is the decimal's, and String gives a text that parses back to it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "15000", "15000.0", "12.5", "12.55", "1.234", "-1", "1e5", "9999999999999.99", " 1", "1.", ".5", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if decimal.MatchString(s) && withinMax(s) {
				t.Fatalf("Parse(%q) refused a valid decimal: %v", s, err)
			}
			return
		}
		if !decimal.MatchString(s) || c < 0 || c > MaxCents {
			t.Fatalf("Parse(%q) = %d, want it refused", s, c)
		}
		want, _ := strconv.ParseFloat(s, 64)
		if got := float64(c) / 100; got-want > 0.001 || want-got > 0.001 {
			t.Fatalf("Parse(%q) = %d hundredths, want %v", s, c, want)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(%q).String() = %q, which parses to %d, %v", s, c.String(), back, err)
		}
	})
}

func withinMax(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f*100 <= MaxCents
}
