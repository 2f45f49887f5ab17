package middleware

import (
	"net/url"
	"strings"
)

// secretParams are the query parameter names (or parts of names) whose values the access log
// never shows: the first-run setup token, booking-site manage tokens, API keys someone pasted
// into a URL, signatures, passwords, one-time codes. Matching is by substring of the
// lower-cased, decoded name, so "api_key", "apiKey", "X-Token" and "manage_token" are all
// caught; a harmless parameter that happens to match loses only its value in the log.
var secretParams = []string{"token", "key", "secret", "password", "passwd", "pwd", "signature", "sig", "auth", "code", "session", "credential"}

// Redacted replaces a secret parameter's value in the log.
const Redacted = "REDACTED"

// RedactQuery returns raw with the values of secret parameters replaced by REDACTED, keeping
// everything else — order, repeated names, odd encodings — as it came, so the log still shows
// what the client sent.
func RedactQuery(raw string) string {
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		if !hasValue || !isSecretParam(name) {
			continue
		}
		parts[i] = name + "=" + Redacted
	}
	return strings.Join(parts, "&")
}

func isSecretParam(raw string) bool {
	name, err := url.QueryUnescape(raw)
	if err != nil {
		name = raw
	}
	name = strings.ToLower(name)
	for _, s := range secretParams {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}

// secretPaths are path prefixes whose next segment is a bearer token the log never shows:
// calendar feeds (/feeds/{token}.ics, app/feeds), which a calendar app fetches for as long as
// it is subscribed, so a token in the log would be a working address.
var secretPaths = []string{"/feeds/"}

// RedactPath returns path with the token segment of a secret path replaced by REDACTED (the
// extension kept: "/feeds/REDACTED.ics"); other paths unchanged.
func RedactPath(path string) string {
	for _, prefix := range secretPaths {
		rest, ok := strings.CutPrefix(path, prefix)
		if !ok || rest == "" {
			continue
		}
		segment, tail, slash := strings.Cut(rest, "/")
		if dot := strings.LastIndexByte(segment, '.'); dot >= 0 {
			segment = Redacted + segment[dot:]
		} else {
			segment = Redacted
		}
		if slash {
			return prefix + segment + "/" + tail
		}
		return prefix + segment
	}
	return path
}
