package clients

import "strings"

// Lookups by contact (Find: the MCP endpoint's find-or-create, the booking site) compare what
// is stored, so their callers normalise an email or phone exactly as Create would store it.

// NormalizeEmail returns s as a client's email is stored (trimmed, lower-cased), or a
// FieldError for "email" when it is not a plain address.
func NormalizeEmail(s string) (string, error) {
	out, msg := checkEmail(strings.TrimSpace(s))
	if msg != "" {
		return "", Errors{newFieldError("email", msg)}
	}
	return out, nil
}

// NormalizePhone returns s as a client's phone is stored (E.164), or a FieldError for "phone".
// Spaces, dots, hyphens and brackets that people write inside numbers are dropped first.
func NormalizePhone(s string) (string, error) {
	out, msg := checkPhone(stripPhone(s))
	if msg != "" {
		return "", Errors{newFieldError("phone", msg+" (with the country code)")}
	}
	return out, nil
}

// stripPhone drops the spaces, dots, hyphens and brackets people write inside phone numbers.
func stripPhone(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '-', '(', ')', '\u00a0':
			return -1
		}
		return r
	}, strings.TrimSpace(s))
}
