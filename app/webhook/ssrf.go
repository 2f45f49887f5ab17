package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A webhook URL is typed by whoever administers the appliance, but the
// request is sent from inside the owner's network. Without a guard, a URL
// pointing at 127.0.0.1, the LAN or a cloud metadata service would turn
// "send a test event" into a port scanner and credential reader (SSRF).
// Checking the URL's host when it is saved is not enough: a name can resolve
// to a public address then and to 127.0.0.1 at delivery time (DNS
// rebinding). So the check runs in the dialer, on the very IP the socket is
// about to connect to, after resolution.

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

// guardDial is a net.Dialer.Control hook: it runs after name resolution,
// once per candidate address, just before connect(2).
func guardDial(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot parse dial address %q", ErrForbiddenAddress, address)
	}
	return CheckAddr(ap.Addr())
}

// newDialer returns the dialer behind NewHTTPClient: guarded unless
// allowPrivate. A nil resolver means the system's.
func newDialer(timeout time.Duration, allowPrivate bool, resolver *net.Resolver) *net.Dialer {
	d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Resolver: resolver}
	if !allowPrivate {
		d.Control = guardDial
	}
	return d
}

// DefaultTimeout is the delivery timeout of docs/webhooks.md, used when NewHTTPClient is
// given none: a client without a timeout would let one silent receiver hold
// a worker forever.
const DefaultTimeout = 15 * time.Second

// NewHTTPClient returns the client deliveries are sent with.
//
//   - Unless allowPrivate, it refuses at dial time every address CheckAddr
//     refuses (the error matches ErrForbiddenAddress). allowPrivate turns
//     the guard off entirely; it is the owner's explicit opt-in for LAN and
//     local development targets.
//   - It never follows redirects: the 3xx response itself is returned, and
//     the caller records it as a failed attempt. Following one would let a
//     public URL bounce us into the private network and would resend the
//     signed body to a URL the owner never registered.
//   - It uses no proxy from the environment: a proxy is dialled instead of
//     the target, which would bypass the guard.
//   - timeout bounds the whole attempt, from dial to the last body byte
//     (<= 0 means DefaultTimeout).
//   - maxConnsPerHost is the most requests the caller sends to one host at
//     once (its worker count; values below 1 mean 1). That many idle
//     connections are kept per host, because Go's default of 2 makes the
//     other workers redial and halves throughput (PERFORMANCE.md). The cap
//     itself is the dispatcher's job, so the transport sets none.
//   - It speaks HTTP/1.1 only: one connection per in-flight delivery keeps a
//     slow response from stalling others on a shared HTTP/2 connection, and
//     is what was measured.
func NewHTTPClient(timeout time.Duration, allowPrivate bool, maxConnsPerHost int) *http.Client {
	return newHTTPClient(timeout, allowPrivate, maxConnsPerHost, nil)
}

// newHTTPClient takes the resolver so tests can point names at loopback
// without touching the machine's DNS.
func newHTTPClient(timeout time.Duration, allowPrivate bool, maxConnsPerHost int, resolver *net.Resolver) *http.Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	perHost := max(maxConnsPerHost, 1)
	var http1Only http.Protocols
	http1Only.SetHTTP1(true)
	transport := &http.Transport{
		Protocols:              &http1Only,
		Proxy:                  nil,
		DialContext:            newDialer(timeout, allowPrivate, resolver).DialContext,
		MaxIdleConns:           max(100, perHost),
		MaxIdleConnsPerHost:    perHost,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    timeout,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 64 << 10, // receivers answer briefly; don't buffer a megabyte of headers
	}
	return &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
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

// Error categories for the delivery log (docs/webhooks.md). The outbox stores them
// as TEXT with a CHECK constraint that mirrors this list.
const (
	CategoryDNS              = "dns"
	CategoryConnect          = "connect"
	CategoryTLS              = "tls"
	CategoryTimeout          = "timeout"
	CategoryForbiddenAddress = "forbidden_address"
	CategoryHTTPStatus       = "http_status" // set by the caller for non-2xx responses
	CategoryOther            = "other"
)

// Categorize names what went wrong with a request that produced no response,
// so the owner sees "dns" rather than a Go error string. The checks run
// from most to least specific: a refused address beats the dial error that
// carries it; a DNS or TLS failure is reported as such even if it ended in a
// timeout; "connect" means the TCP connection could not be opened (refused,
// unreachable); anything after that (e.g. the receiver closing the
// connection mid-response) is "other". A nil error has no category ("").
func Categorize(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, ErrForbiddenAddress) {
		return CategoryForbiddenAddress
	}
	if _, ok := errors.AsType[*net.DNSError](err); ok {
		return CategoryDNS
	}
	if isTLSError(err) {
		return CategoryTLS
	}
	if ne, ok := errors.AsType[net.Error](err); (ok && ne.Timeout()) || errors.Is(err, context.DeadlineExceeded) {
		return CategoryTimeout
	}
	if oe, ok := errors.AsType[*net.OpError](err); ok && oe.Op == "dial" {
		return CategoryConnect
	}
	return CategoryOther
}

func isTLSError(err error) bool {
	if errors.Is(err, http.ErrSchemeMismatch) { // https:// URL, plain HTTP server
		return true
	}
	if _, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return true
	}
	if _, ok := errors.AsType[tls.RecordHeaderError](err); ok {
		return true
	}
	if _, ok := errors.AsType[tls.AlertError](err); ok {
		return true
	}
	if _, ok := errors.AsType[x509.UnknownAuthorityError](err); ok {
		return true
	}
	if _, ok := errors.AsType[x509.HostnameError](err); ok {
		return true
	}
	_, ok := errors.AsType[x509.CertificateInvalidError](err)
	return ok
}
