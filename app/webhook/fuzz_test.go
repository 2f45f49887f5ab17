package webhook

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// FuzzValidateURL: a registered URL is an absolute http(s) URL with a host, no credentials,
// no fragment and a valid port; without the private opt-in its literal host is never a
// loopback or private address. Nothing panics.
func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{"https://hooks.example.com/in", "http://127.0.0.1:8080/x", "https://user:pw@example.com/", "https://example.com/#frag",
		"https://[::ffff:127.0.0.1]/", "https://0x7f000001/", "https://localhost./", "ftp://example.com/", "https://example.com:99999/", "//example.com", "https://169.254.169.254/latest"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := ValidateURL(raw)
		if err != nil {
			return
		}
		u, perr := url.Parse(raw)
		switch {
		case perr != nil:
			t.Fatalf("accepted %q, which url.Parse refuses: %v", raw, perr)
		case u.Scheme != "http" && u.Scheme != "https", u.Hostname() == "", u.User != nil, strings.Contains(raw, "#"):
			t.Fatalf("accepted %q", raw)
		}
		if validateInput(raw, []string{"*"}, "", false) == nil {
			host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
			if ip, err := netip.ParseAddr(host); err == nil && CheckAddr(ip) != nil {
				t.Fatalf("accepted %q, whose literal address %s is refused at dial time", raw, ip)
			}
			if host == "localhost" {
				t.Fatalf("accepted %q without the private opt-in", raw)
			}
		}
	})
}

// FuzzCheckAddr: every spelling of an IPv4 address inside IPv6 (mapped ::ffff:a.b.c.d) is
// refused whenever the IPv4 address itself is: the forms cannot be used to get around the
// guard.
func FuzzCheckAddr(f *testing.F) {
	for _, b := range [][]byte{{127, 0, 0, 1}, {10, 1, 2, 3}, {169, 254, 169, 254}, {100, 64, 0, 1}, {8, 8, 8, 8}, {0, 0, 0, 0}, {224, 0, 0, 1}} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 4 && len(b) != 16 {
			return
		}
		ip, _ := netip.AddrFromSlice(b)
		err := CheckAddr(ip)
		if ip.Is4() {
			mapped := netip.AddrFrom16(ip.As16())
			if err != nil && CheckAddr(mapped) == nil {
				t.Fatalf("%s is refused, its mapped form %s is not", ip, mapped)
			}
		}
		if ip.Is4In6() && CheckAddr(ip.Unmap()) != nil && err == nil {
			t.Fatalf("%s is allowed, its IPv4 %s is refused", ip, ip.Unmap())
		}
	})
}
