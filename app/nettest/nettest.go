// Package nettest gives tests network addresses with a known behaviour.
package nettest

import "testing"

// RefusedAddr returns a loopback host:port that refuses TCP connections for as long as the test
// runs. Listening on a port and closing it again does not guarantee that: while the test runs,
// another test's server may be given the freed port, and the "refused" dial then connects.
func RefusedAddr(t testing.TB) string {
	t.Helper()
	return refusedAddr(t)
}
