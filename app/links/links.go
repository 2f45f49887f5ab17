// Package links builds the absolute URLs frontdesk hands out — the first-run setup URL, checkout
// URLs, and (for the booking site and messages) manage links — from one value: the public URL
// the owner configured with --public-url. A request's Host header is never used: anyone can
// send any Host, and a link built from it would point wherever they like (docs/deploy.md).
package links

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Base is the scheme and host every generated link starts with. The zero Base is not usable;
// make one with Parse or FromListen.
type Base struct {
	scheme, host string
	// configured is false when the base was derived from the listen address because no public
	// URL was given; the admin UI says so, since such links only work on this machine or LAN.
	configured bool
}

// Parse reads a configured public URL: absolute http or https, a host, an optional port, and
// nothing else. A path is refused because every page is served from the root (a sub-path
// behind a proxy would break the admin's own links); a query, fragment or user:password make
// no sense in a base.
func Parse(raw string) (Base, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return Base{}, errors.New("empty")
	case err != nil:
		return Base{}, fmt.Errorf("%q is not a URL", raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return Base{}, fmt.Errorf("%q: want an absolute http:// or https:// URL", raw)
	case u.Host == "" || u.Hostname() == "":
		return Base{}, fmt.Errorf("%q has no host", raw)
	case u.User != nil:
		return Base{}, fmt.Errorf("%q must not contain user:password", u.Redacted())
	case u.Path != "" && u.Path != "/":
		return Base{}, fmt.Errorf("%q has a path; frontdesk is served from the root of its host, so give only scheme://host[:port]", raw)
	case u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(raw, "?") || strings.Contains(raw, "#"):
		return Base{}, fmt.Errorf("%q must not have a query or fragment", raw)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return Base{}, fmt.Errorf("%q has port %q, want 1 to 65535", raw, p)
		}
	}
	host := strings.ToLower(u.Host)
	// Drop a default port so links read as people type them.
	if (u.Scheme == "https" && u.Port() == "443") || (u.Scheme == "http" && u.Port() == "80") {
		host = strings.ToLower(hostOnly(u))
	}
	return Base{scheme: u.Scheme, host: host, configured: true}, nil
}

// hostOnly is u's host without the port, with brackets kept around an IPv6 address.
func hostOnly(u *url.URL) string {
	h := u.Hostname()
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// FromListen is the base used when no public URL is configured: http:// and the address the
// server listens on. An unspecified host (":8080", "0.0.0.0", "[::]") becomes "localhost",
// which at least works on the machine itself.
func FromListen(addr string) Base {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return Base{scheme: "http", host: addr}
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return Base{scheme: "http", host: net.JoinHostPort(host, port)}
}

// Configured reports whether the base came from a configured public URL.
func (b Base) Configured() bool { return b.configured }

// Scheme is "http" or "https".
func (b Base) Scheme() string { return b.scheme }

// Host is host[:port] as links carry it.
func (b Base) Host() string { return b.host }

// Hostname is the host without a port or IPv6 brackets: the name a certificate is for.
func (b Base) Hostname() string {
	return (&url.URL{Host: b.host}).Hostname()
}

// String is "scheme://host[:port]" without a trailing slash.
func (b Base) String() string {
	if b.scheme == "" {
		return ""
	}
	return b.scheme + "://" + b.host
}

// URL joins path (which must start with "/") and an optional query onto the base. Path
// segments are escaped as needed, so a token or uuid can be passed as it is.
func (b Base) URL(path string, query url.Values) string {
	u := url.URL{Scheme: b.scheme, Host: b.host, Path: path}
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	return u.String()
}
