package dispatch

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"strings"
	"testing"
)

// newFakeResolver starts a tiny DNS server on loopback UDP and returns a
// resolver that asks only it. Names in hosts answer A queries with their
// address (AAAA gets an empty answer); every other name is NXDOMAIN. Tests
// use it to make a public-looking name resolve to 127.0.0.1 — exactly what
// a rebinding attacker does — and to get a real DNS failure, without ever
// sending a packet to the machine's configured resolver.
func newFakeResolver(t *testing.T, hosts map[string]netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen for fake DNS: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return // closed by cleanup
			}
			if resp := answerDNS(buf[:n], hosts); resp != nil {
				pc.WriteTo(resp, from)
			}
		}
	}()
	t.Cleanup(func() {
		pc.Close()
		<-done
	})
	server := pc.LocalAddr().String()
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", server)
		},
	}
}

// answerDNS builds the response to one query (RFC 1035 §4.1), or nil if the
// packet is not a query it understands.
func answerDNS(q []byte, hosts map[string]netip.Addr) []byte {
	if len(q) < 12 || binary.BigEndian.Uint16(q[4:6]) != 1 {
		return nil
	}
	var labels []string
	i := 12
	for {
		if i >= len(q) {
			return nil
		}
		l := int(q[i])
		i++
		if l == 0 {
			break
		}
		if l&0xC0 != 0 || i+l > len(q) {
			return nil
		}
		labels = append(labels, string(q[i:i+l]))
		i += l
	}
	if i+4 > len(q) {
		return nil
	}
	qtype, qEnd := binary.BigEndian.Uint16(q[i:]), i+4
	addr, known := hosts[strings.ToLower(strings.Join(labels, "."))]

	flags := uint16(0x8180) // response, recursion desired and available
	if !known {
		flags |= 3 // NXDOMAIN
	}
	answers := uint16(0)
	if known && qtype == 1 && addr.Is4() {
		answers = 1
	}
	resp := append([]byte{}, q[0], q[1]) // same ID
	resp = binary.BigEndian.AppendUint16(resp, flags)
	resp = binary.BigEndian.AppendUint16(resp, 1) // one question
	resp = binary.BigEndian.AppendUint16(resp, answers)
	resp = append(resp, 0, 0, 0, 0) // no authority, no additional
	resp = append(resp, q[12:qEnd]...)
	if answers == 1 {
		a := addr.As4()
		// name pointer to the question, type A, class IN, TTL 60, 4 bytes
		resp = append(resp, 0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
		resp = append(resp, a[:]...)
	}
	return resp
}
