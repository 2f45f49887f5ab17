package admin

import (
	"testing"
	"time"
)

// Five wrong passwords used to lock the owner out for 15 minutes from anywhere, so anyone
// could do it. Now an untrusted client is counted per account and address, per address, and —
// with a far higher ceiling — per account; a device that signed in before is counted on its
// own and is not held by the others.
func TestThrottle(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now })
	ana := func(ip string) attempt { return attempt{email: "ana@example.com", ip: ip} }
	wantWait := func(what string, a attempt, want time.Duration, why string) {
		t.Helper()
		got, gotWhy := th.wait(a)
		if got != want || (want > 0 && gotWhy != why) {
			t.Errorf("%s: got wait %v (%s), want %v (%s)", what, got, gotWhy, want, why)
		}
	}

	// The pair: five failures of one account from one address.
	for range pairLimit {
		wantWait("before the pair limit", ana("192.0.2.1"), 0, "")
		th.fail(ana("192.0.2.1"))
		now = now.Add(time.Minute)
	}
	// Five failures at 10:00…10:04; now is 10:05: that address waits until 10:15.
	wantWait("the guesser's address", ana("192.0.2.1"), 10*time.Minute, blockedAddress)
	wantWait("the owner at another address", ana("198.51.100.7"), 0, "")
	wantWait("another account from the guesser's address", attempt{email: "bob@example.com", ip: "192.0.2.1"}, 0, "")
	wantWait("the owner's device at the guesser's address", attempt{email: "ana@example.com", ip: "192.0.2.1", device: "n1"}, 0, "")
	now = now.Add(10 * time.Minute) // 10:15: the first failure left the window
	wantWait("after the window", ana("192.0.2.1"), 0, "")
	th.fail(ana("192.0.2.1")) // back at five within 15 min
	wantWait("one more failure", ana("192.0.2.1"), time.Minute, blockedAddress)
	th.succeeded(ana("192.0.2.1"))
	wantWait("after a success there", ana("192.0.2.1"), 0, "")

	// The address: many accounts from one address.
	for i := range ipLimit {
		th.fail(attempt{email: string(rune('a'+i)) + "@example.com", ip: "203.0.113.9"})
	}
	wantWait("a new account from a guessing address", attempt{email: "new@example.com", ip: "203.0.113.9"}, throttleWindow, blockedAddress)
	wantWait("that account elsewhere", attempt{email: "new@example.com", ip: "203.0.113.10"}, 0, "")

	// The account: guessers at many addresses, none over the pair limit.
	now = now.Add(time.Hour)
	for i := range accountLimit {
		th.fail(attempt{email: "ana@example.com", ip: "10.0.0." + string(rune('0'+i%10)) + string(rune('0'+i/10))})
	}
	wantWait("the owner on a new device", ana("198.51.100.7"), throttleWindow, blockedAccount)
	wantWait("the owner on a device that signed in before", attempt{email: "ana@example.com", ip: "198.51.100.7", device: "n1"}, 0, "")
	th.succeeded(ana("198.51.100.7")) // the owner's own success does not reopen the door to the guessers
	wantWait("new devices after the owner's success", ana("198.51.100.8"), throttleWindow, blockedAccount)

	// A device: ten failures lock that device cookie, not the account's others.
	now = now.Add(time.Hour)
	dev := attempt{email: "ana@example.com", ip: "198.51.100.7", device: "n1"}
	for range deviceLimit {
		wantWait("before the device limit", dev, 0, "")
		th.fail(dev)
	}
	wantWait("the device", dev, throttleWindow, blockedDevice)
	wantWait("another device of the account", attempt{email: "ana@example.com", ip: "198.51.100.7", device: "n2"}, 0, "")
	wantWait("an untrusted client at the device's address", ana("198.51.100.7"), 0, "")
}

func TestThrottleBoundsMemory(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now })
	for i := range maxTracked + 10 {
		th.fail(attempt{email: string(rune(i)) + "@example.com", ip: "192.0.2.1"})
	}
	if n := len(th.failures); n > maxTracked {
		t.Errorf("tracking %d keys, want at most %d", n, maxTracked)
	}
}

func TestSafeNext(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/owners", "/owners"},
		{"/settings/business?tab=1#x", "/settings/business?tab=1#x"},
		{"", "/"},
		{"owners", "/"},
		{"//evil.example", "/"},
		{"/\\evil.example", "/"},
		{"https://evil.example/x", "/"},
		{"/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"}, // escaped: stays a path
		{"/\r\nLocation: x", "/"},
		{"/login?next=/x", "/"},
		{"/logout", "/"},
	}
	for _, tc := range tests {
		if got := safeNext(tc.in); got != tc.want {
			t.Errorf("safeNext(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
