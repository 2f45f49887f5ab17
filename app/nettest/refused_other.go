//go:build !unix

package nettest

import (
	"net"
	"testing"
)

// refusedAddr falls back to a port that was free a moment ago; another listener may take it.
func refusedAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
