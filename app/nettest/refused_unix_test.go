//go:build unix

package nettest

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"
)

func TestRefusedAddrRefuses(t *testing.T) {
	addr := RefusedAddr(t)
	for range 3 {
		conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err == nil {
			conn.Close()
			t.Fatalf("dial %s connected, want it refused", addr)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("dial %s: %v, want connection refused", addr, err)
		}
	}
	// While the address is held, a listener asking for that port does not get it.
	if ln, err := net.Listen("tcp", addr); err == nil {
		ln.Close()
		t.Fatalf("listened on %s while it was held", addr)
	}
}
