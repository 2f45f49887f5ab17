package middleware

import "testing"

func TestLimitKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.9":                   "203.0.113.9/32",
		"::ffff:203.0.113.9":            "203.0.113.9/32",
		"2001:db8:1:2::1":               "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:ffff:ffff:1": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":               "2001:db8:1:3::/64",
		"::1":                           "::/64",
		"not an address":                "not an address",
	} {
		if got := LimitKey(in); got != want {
			t.Errorf("LimitKey(%q) = %q, want %q", in, got, want)
		}
	}
}
