package webhook

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// A webhook URL is typed by whoever administers the appliance, but the
// request is sent from inside the owner's network. Without a guard, a URL
// pointing at 127.0.0.1, the LAN or a cloud metadata service would turn
// "send a test event" into a port scanner and credential reader (SSRF).
// Checking the URL's host when it is saved is not enough: a name can resolve
// to a public address then and to 127.0.0.1 at delivery time (DNS
// rebinding). So the check runs in the dialer, on the very IP the socket is
// about to connect to, after resolution (app/webhook/dispatch/ssrf.go).
//
// This file holds the rules both sides share, with no network in them: which URLs may be
// registered (ValidateURL) and which addresses may not be reached (CheckAddr), which the
// Manager also applies to a literal host when a webhook is saved.

// ErrForbiddenAddress is matched (errors.Is) by the error a guarded client
// returns when the target resolved to a refused address.
var ErrForbiddenAddress = errors.New("forbidden webhook target address")

// AddressError says which address was refused and why.
type AddressError struct {
	Addr   netip.Addr
	Reason string // e.g. "loopback", "private", "link-local (cloud metadata)"
}

func (e *AddressError) Error() string {
	return fmt.Sprintf("webhook target %s is a %s address; private targets are refused unless explicitly allowed", e.Addr, e.Reason)
}

// Is makes errors.Is(err, ErrForbiddenAddress) hold.
func (e *AddressError) Is(target error) bool { return target == ErrForbiddenAddress }

type addrRange struct {
	prefix netip.Prefix
	reason string
}

// refused lists every range a webhook may not reach by default; the first
// match names the reason. Documentation and benchmarking ranges are refused
// too: nothing public lives there, and 198.18.0.0/15 is used by some VPNs
// and proxies as a fake-IP range that leads into the local network. The
// table is read-only.
var refused = []addrRange{
	{netip.MustParsePrefix("0.0.0.0/32"), "unspecified"},
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (CGNAT)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.169.254/32"), "link-local (cloud metadata)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignment"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("192.88.99.0/24"), "reserved (6to4 relay)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("255.255.255.255/32"), "broadcast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},

	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible (deprecated)"},
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "IPv4-translated"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local NAT64"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("fc00::/7"), "private (unique local)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local (deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// IPv6 ranges that carry an IPv4 address a gateway will connect to; the
// embedded address is what gets checked.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: last 4 bytes
	sixToFour = netip.MustParsePrefix("2002::/16")    // RFC 3056: bytes 2..5
)

// CheckAddr returns an *AddressError if ip may not be a webhook target by
// default, nil otherwise. IPv4-mapped (::ffff:a.b.c.d), NAT64 and 6to4 forms
// are judged by the IPv4 address inside them, so ::ffff:127.0.0.1 is as
// loopback as 127.0.0.1. An invalid address is refused.
func CheckAddr(ip netip.Addr) error {
	if !ip.IsValid() {
		return &AddressError{Addr: ip, Reason: "invalid"}
	}
	orig := ip
	ip = ip.WithZone("").Unmap()
	via := ""
	switch b := ip.As16(); {
	case ip.Is6() && nat64.Contains(ip):
		ip, via = netip.AddrFrom4([4]byte(b[12:16])), " (inside NAT64)"
	case ip.Is6() && sixToFour.Contains(ip):
		ip, via = netip.AddrFrom4([4]byte(b[2:6])), " (inside 6to4)"
	}
	for _, r := range refused {
		if r.prefix.Contains(ip) {
			return &AddressError{Addr: orig, Reason: r.reason + via}
		}
	}
	return nil
}

// ErrInvalidURL is wrapped by every ValidateURL error.
var ErrInvalidURL = errors.New("invalid webhook URL")

// maxURLLength keeps a URL storable, loggable and displayable in one line.
const maxURLLength = 2048

// ValidateURL checks a webhook URL when it is registered: an absolute http
// or https URL with a host, no user:password (the signature authenticates
// us; credentials in URLs end up in logs), no fragment (it would never be
// sent, so it is a mistake), a port in range if one is given. The host is
// not resolved here: addresses are checked at dial time, on every attempt.
func ValidateURL(raw string) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidURL}, args...)...)
	}
	switch {
	case raw == "":
		return fail("empty")
	case len(raw) > maxURLLength:
		return fail("longer than %d characters", maxURLLength)
	case strings.TrimSpace(raw) != raw:
		return fail("%q has leading or trailing spaces", raw)
	case strings.Contains(raw, "#"):
		return fail("%q has a fragment (#…), which is never sent", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fail("%q is not a URL: %v", raw, errors.Unwrap(err))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fail("%q must start with http:// or https://", raw)
	case u.Opaque != "" || u.Host == "":
		return fail("%q must be absolute, like https://example.com/hooks", raw)
	case u.Hostname() == "":
		return fail("%q has no host", raw)
	case u.User != nil:
		return fail("%q contains credentials (user:password@); remove them and verify the webhook-signature header instead", u.Redacted())
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fail("%q has port %s, want 1 to 65535", raw, p)
		}
	}
	return nil
}
