package dispatch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"frontdesk/app/webhook"
)

// guardDial is a net.Dialer.Control hook: it runs after name resolution,
// once per candidate address, just before connect(2).
func guardDial(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot parse dial address %q", webhook.ErrForbiddenAddress, address)
	}
	return webhook.CheckAddr(ap.Addr())
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
	if errors.Is(err, webhook.ErrForbiddenAddress) {
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
