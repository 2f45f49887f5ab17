package dispatch

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// dialCheck runs the dialer's Control hook the way net.Dialer does, without
// connecting anywhere: no packet leaves the machine for these addresses.
func dialCheck(t *testing.T, allowPrivate bool, address string) error {
	t.Helper()
	d := newDialer(time.Second, allowPrivate, nil)
	if d.Control == nil {
		return nil
	}
	return d.Control("tcp", address, nil)
}

func TestDialGuardAddresses(t *testing.T) {
	tests := []struct {
		name       string
		addr       string
		wantReason string // empty: allowed even by default
	}{
		{name: "loopback v4", addr: "127.0.0.1", wantReason: "loopback"},
		{name: "loopback v4 top", addr: "127.255.255.254", wantReason: "loopback"},
		{name: "loopback v6", addr: "::1", wantReason: "loopback"},
		{name: "private 10/8", addr: "10.1.2.3", wantReason: "private"},
		{name: "private 172.16/12 low", addr: "172.16.0.1", wantReason: "private"},
		{name: "private 172.16/12 high", addr: "172.31.255.255", wantReason: "private"},
		{name: "private 192.168/16", addr: "192.168.1.1", wantReason: "private"},
		{name: "unique local fc00::/7", addr: "fd12:3456::1", wantReason: "unique local"},
		{name: "unique local fc00::", addr: "fc00::1", wantReason: "unique local"},
		{name: "site-local fec0::/10", addr: "fec0::1", wantReason: "site-local"},
		{name: "metadata", addr: "169.254.169.254", wantReason: "cloud metadata"},
		{name: "link-local v4", addr: "169.254.1.1", wantReason: "link-local"},
		{name: "link-local v6", addr: "fe80::1", wantReason: "link-local"},
		{name: "link-local v6 with zone", addr: "fe80::1%eth0", wantReason: "link-local"},
		{name: "CGNAT low", addr: "100.64.0.1", wantReason: "CGNAT"},
		{name: "CGNAT high", addr: "100.127.255.255", wantReason: "CGNAT"},
		{name: "multicast v4", addr: "239.255.255.250", wantReason: "multicast"},
		{name: "multicast v6", addr: "ff02::1", wantReason: "multicast"},
		{name: "unspecified v4", addr: "0.0.0.0", wantReason: "unspecified"},
		{name: "unspecified v6", addr: "::", wantReason: "unspecified"},
		{name: "this network", addr: "0.1.2.3", wantReason: "this-network"},
		{name: "broadcast", addr: "255.255.255.255", wantReason: "broadcast"},
		{name: "reserved 240/4", addr: "240.0.0.1", wantReason: "reserved"},
		{name: "IETF 192.0.0/24", addr: "192.0.0.8", wantReason: "IETF"},
		{name: "documentation v4", addr: "203.0.113.7", wantReason: "documentation"},
		{name: "documentation v6", addr: "2001:db8::1", wantReason: "documentation"},
		{name: "benchmarking", addr: "198.18.0.1", wantReason: "benchmarking"},
		{name: "discard-only v6", addr: "100::1", wantReason: "discard-only"},
		{name: "mapped loopback", addr: "::ffff:127.0.0.1", wantReason: "loopback"},
		{name: "mapped private", addr: "::ffff:10.0.0.1", wantReason: "private"},
		{name: "mapped metadata", addr: "::ffff:169.254.169.254", wantReason: "cloud metadata"},
		{name: "mapped CGNAT", addr: "::ffff:100.64.0.1", wantReason: "CGNAT"},
		{name: "mapped unspecified", addr: "::ffff:0.0.0.0", wantReason: "unspecified"},
		{name: "mapped broadcast", addr: "::ffff:255.255.255.255", wantReason: "broadcast"},
		{name: "mapped multicast", addr: "::ffff:224.0.0.1", wantReason: "multicast"},
		{name: "mapped hex form", addr: "::ffff:7f00:1", wantReason: "loopback"},
		{name: "IPv4-compatible", addr: "::7f00:1", wantReason: "IPv4-compatible"},
		{name: "NAT64 of loopback", addr: "64:ff9b::7f00:1", wantReason: "loopback (inside NAT64)"},
		{name: "NAT64 of metadata", addr: "64:ff9b::a9fe:a9fe", wantReason: "link-local (cloud metadata) (inside NAT64)"},
		{name: "6to4 of private", addr: "2002:c0a8:101::1", wantReason: "private (inside 6to4)"},
		{name: "local NAT64", addr: "64:ff9b:1::1", wantReason: "local NAT64"},

		{name: "public v4", addr: "93.184.215.14"},
		{name: "just past 172.16/12", addr: "172.32.0.1"},
		{name: "just past CGNAT", addr: "100.128.0.1"},
		{name: "just below 10/8", addr: "9.255.255.255"},
		{name: "public v6", addr: "2606:4700:4700::1111"},
		{name: "mapped public", addr: "::ffff:93.184.215.14"},
		{name: "NAT64 of public", addr: "64:ff9b::5db8:d70e"},
		{name: "6to4 of public", addr: "2002:5db8:d70e::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			address := net.JoinHostPort(tt.addr, "443")

			err := dialCheck(t, false, address)
			switch {
			case tt.wantReason == "" && err != nil:
				t.Errorf("default guard refused %s: %v, want allowed", address, err)
			case tt.wantReason != "" && err == nil:
				t.Errorf("default guard allowed %s, want refused as %q", address, tt.wantReason)
			case tt.wantReason != "":
				ae, ok := errors.AsType[*webhook.AddressError](err)
				if !ok || !errors.Is(err, webhook.ErrForbiddenAddress) {
					t.Fatalf("error %v (%T), want an *AddressError matching ErrForbiddenAddress", err, err)
				}
				if !strings.Contains(ae.Reason, tt.wantReason) {
					t.Errorf("reason %q, want it to contain %q", ae.Reason, tt.wantReason)
				}
				if ip := netip.MustParseAddr(tt.addr); ae.Addr != ip {
					t.Errorf("AddressError.Addr = %v, want the dialled %v", ae.Addr, ip)
				}
			}

			if err := dialCheck(t, true, address); err != nil {
				t.Errorf("allowPrivate guard refused %s: %v, want allowed", address, err)
			}
		})
	}
}

func TestDialGuardFailsClosed(t *testing.T) {
	for _, address := range []string{"not-an-address", "example.com:443", "127.0.0.1"} {
		if err := dialCheck(t, false, address); !errors.Is(err, webhook.ErrForbiddenAddress) {
			t.Errorf("guard on %q: got %v, want ErrForbiddenAddress", address, err)
		}
	}
	if err := webhook.CheckAddr(netip.Addr{}); !errors.Is(err, webhook.ErrForbiddenAddress) {
		t.Errorf("CheckAddr(zero Addr) = %v, want ErrForbiddenAddress", err)
	}
}
