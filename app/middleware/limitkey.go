package middleware

import "net/netip"

// LimitPrefix is the block of addresses a per-client limit counts as one client: an IPv4
// address alone, an IPv6 address with the rest of its /64. One IPv6 customer is given a whole
// /64 (RFC 6177), so counting each /128 would give one client 2^64 budgets.
func LimitPrefix(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	bits := a.BitLen()
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits) // valid for any valid address
	return p
}

// LimitKey is LimitPrefix for a client address as ClientIP gives it. Anything that is not an
// address (a test's made-up RemoteAddr) is its own key.
func LimitKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	return LimitPrefix(a).String()
}
