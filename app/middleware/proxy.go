package middleware

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The real client behind reverse proxies (docs/deploy.md "Behind a proxy"). Anyone can send
// X-Forwarded-For and X-Forwarded-Proto, so they are believed only when the connection comes
// from an address the owner listed with --trusted-proxies; otherwise the connection's own
// address and TLS state are the truth. Everything that cares — sign-in throttling, the secure
// cookie flag, the access log — asks ClientIP and IsHTTPS, never the headers.

type clientKey struct{}

type client struct {
	ip    string
	https bool
}

// ParseTrustedProxies reads a comma-separated list of CIDR prefixes or single addresses
// ("10.0.0.0/8, 127.0.0.1, ::1"). An empty string trusts nobody.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR prefix like 10.0.0.0/8", part)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// RealClient resolves each request's client address and scheme once, trusting forwarding
// headers only from the given proxies, and puts the result where ClientIP and IsHTTPS find it.
//
// X-Forwarded-For is read from the right: each proxy appends the address it got the request
// from, so the rightmost entries were written by our own proxies, and the first address from
// the right that is not a trusted proxy is the client. Entries further left were written by
// the client itself and are ignored.
func RealClient(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := resolve(r, trusted)
			if info := infoFrom(r.Context()); info != nil && !info.resolved {
				// Inside WithRequestID the request's own record holds it: no context of its own.
				info.client, info.resolved = c, true
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, c)))
		})
	}
}

func resolve(r *http.Request, trusted []netip.Prefix) client {
	peer, text := peerAddrText(r.RemoteAddr)
	c := client{ip: r.RemoteAddr, https: r.TLS != nil}
	if peer.IsValid() {
		c.ip = text
	}
	if !peer.IsValid() || !isTrusted(peer, trusted) {
		return c
	}
	// The connection is from one of our proxies: walk X-Forwarded-For from the right.
	hops := forwardedFor(r.Header.Values("X-Forwarded-For"))
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			break // a garbled entry: keep the last address we could trust
		}
		a = a.Unmap()
		c.ip = a.String()
		if !isTrusted(a, trusted) {
			break
		}
	}
	// The proto header is set by the proxy nearest to us; with several values, the last.
	if protos := r.Header.Values("X-Forwarded-Proto"); len(protos) > 0 {
		last := protos[len(protos)-1]
		if i := strings.LastIndexByte(last, ','); i >= 0 {
			last = last[i+1:]
		}
		c.https = strings.EqualFold(strings.TrimSpace(last), "https")
	}
	return c
}

func forwardedFor(values []string) []string {
	var hops []string
	for _, v := range values {
		for _, h := range strings.Split(v, ",") {
			h = strings.TrimSpace(h)
			// Some proxies add a port or brackets ("[2001:db8::1]:443", "203.0.113.9:5000").
			if host, _, err := net.SplitHostPort(h); err == nil {
				h = host
			}
			hops = append(hops, strings.Trim(h, "[]"))
		}
	}
	return hops
}

func peerAddr(remote string) netip.Addr {
	a, _ := peerAddrText(remote)
	return a
}

// peerAddrText is peerAddr and the address as text (netip.Addr.String). An IPv4 address is
// parsed only in its one canonical form, so its text is the host part of remote as it came,
// which costs no new string.
func peerAddrText(remote string) (netip.Addr, string) {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, ""
	}
	if a.Is4() {
		return a, host
	}
	a = a.Unmap()
	return a, a.String()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP is the address of the client that sent r: the connection's address, or, behind a
// trusted proxy, the address the proxy vouches for. Without RealClient in the chain (a
// handler tested on its own) it is the connection's address.
func ClientIP(r *http.Request) string {
	if c, ok := clientFrom(r.Context()); ok {
		return c.ip
	}
	if a := peerAddr(r.RemoteAddr); a.IsValid() {
		return a.String()
	}
	return r.RemoteAddr
}

// IsHTTPS reports whether the client reached us over HTTPS: directly, or through a trusted
// proxy that says so with X-Forwarded-Proto.
func IsHTTPS(r *http.Request) bool {
	if c, ok := clientFrom(r.Context()); ok {
		return c.https
	}
	return r.TLS != nil
}

// clientFrom is the client RealClient resolved for the request of ctx.
func clientFrom(ctx context.Context) (client, bool) {
	if info := infoFrom(ctx); info != nil && info.resolved {
		return info.client, true
	}
	c, ok := ctx.Value(clientKey{}).(client)
	return c, ok
}
