package input

import (
	"strconv"
	"testing"
)

func TestParseID(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1", 1, true},
		{"42", 42, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"", 0, false},
		{"0", 0, false},
		{"01", 0, false},
		{"007", 0, false},
		{"+1", 0, false},
		{"-1", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
		{"1.0", 0, false},
		{"1e3", 0, false},
		{"0x1", 0, false},
		{"1_000", 0, false},
		{"١", 0, false}, // an Arabic-Indic digit one
		{"9223372036854775808", 0, false},
		{"18446744073709551615", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseID(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseID(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseID: an id is accepted exactly when it is what strconv would print for a positive
// int64, and then it is that number.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"1", "01", "+1", "-0", "9223372036854775807", "9223372036854775808", "1e9", " 7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseID(s)
		n, err := strconv.ParseInt(s, 10, 64)
		canonical := err == nil && n > 0 && strconv.FormatInt(n, 10) == s
		if ok != canonical {
			t.Fatalf("ParseID(%q) ok = %v, want %v", s, ok, canonical)
		}
		if ok && got != n {
			t.Fatalf("ParseID(%q) = %d, want %d", s, got, n)
		}
	})
}
