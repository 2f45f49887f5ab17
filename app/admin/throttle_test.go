package admin

import (
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now })
	const ip = "192.0.2.1"

	for i := range accountLimit {
		if w := th.wait("ana@example.com", ip); w != 0 {
			t.Fatalf("failure %d: got wait %v, want none before the limit", i+1, w)
		}
		th.fail("ana@example.com", ip)
		now = now.Add(time.Minute)
	}
	// Five failures at 10:00…10:04; now is 10:05: blocked until 10:15.
	if got, want := th.wait("ana@example.com", ip), 10*time.Minute; got != want {
		t.Errorf("after %d failures: got wait %v, want %v", accountLimit, got, want)
	}
	if got := th.wait("bob@example.com", ip); got != 0 {
		t.Errorf("another account from the same address: got wait %v, want none", got)
	}
	now = now.Add(10 * time.Minute) // 10:15: the first failure left the window
	if got := th.wait("ana@example.com", ip); got != 0 {
		t.Errorf("after the window: got wait %v, want none", got)
	}
	th.fail("ana@example.com", ip) // 10:15, back at five within 15 min
	if got, want := th.wait("ana@example.com", ip), time.Minute; got != want {
		t.Errorf("one more failure: got wait %v, want %v (until the 10:01 failure expires)", got, want)
	}
	th.succeeded("ana@example.com")
	if got := th.wait("ana@example.com", "198.51.100.7"); got != 0 {
		t.Errorf("after a success: got wait %v, want none", got)
	}

	// The address limit: many accounts from one address.
	for i := range ipLimit {
		th.fail(string(rune('a'+i))+"@example.com", ip)
	}
	if got := th.wait("new@example.com", ip); got == 0 {
		t.Errorf("after %d failures from one address: got no wait, want one", ipLimit)
	}
	if got := th.wait("new@example.com", "198.51.100.7"); got != 0 {
		t.Errorf("same account from another address: got wait %v, want none", got)
	}
}

func TestThrottleBoundsMemory(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	th := newThrottle(func() time.Time { return now })
	for i := range maxTracked + 10 {
		th.fail(string(rune(i))+"@example.com", "192.0.2.1")
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
