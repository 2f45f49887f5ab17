package links

import (
	"net/url"
	"testing"
)

func TestParse(t *testing.T) {
	good := []struct{ in, want string }{
		{"https://book.example.com", "https://book.example.com"},
		{"https://book.example.com/", "https://book.example.com"},
		{"HTTPS://Book.Example.COM:443", "https://book.example.com"},
		{"http://example.com:80", "http://example.com"},
		{"http://example.com:8080", "http://example.com:8080"},
		{"https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"},
		{"https://[2001:db8::1]:443", "https://[2001:db8::1]"},
		{" https://example.com ", "https://example.com"},
	}
	for _, c := range good {
		b, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if b.String() != c.want || !b.Configured() {
			t.Errorf("Parse(%q) = %q (configured %v), want %q configured", c.in, b.String(), b.Configured(), c.want)
		}
	}
	bad := []string{"", "example.com", "ftp://example.com", "https://", "https://user:pw@example.com",
		"https://example.com/frontdesk", "https://example.com/?a=1", "https://example.com/#x", "https://example.com:0",
		"https://example.com:99999", "https://example.com:abc", "https://example.com?"}
	for _, in := range bad {
		if b, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %q, want an error", in, b.String())
		}
	}
}

func TestFromListen(t *testing.T) {
	cases := []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"0.0.0.0:8080", "http://localhost:8080"},
		{"[::]:80", "http://localhost:80"},
		{":9000", "http://localhost:9000"},
		{"[::1]:8080", "http://[::1]:8080"},
	}
	for _, c := range cases {
		b := FromListen(c.addr)
		if b.String() != c.want || b.Configured() {
			t.Errorf("FromListen(%q) = %q (configured %v), want %q not configured", c.addr, b.String(), b.Configured(), c.want)
		}
	}
}

func TestURL(t *testing.T) {
	b, err := Parse("https://book.example.com:8443")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.URL("/pay/abc-123", nil), "https://book.example.com:8443/pay/abc-123"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := b.URL("/setup", url.Values{"token": {"a b&c"}}), "https://book.example.com:8443/setup?token=a+b%26c"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := b.URL("/x y", nil), "https://book.example.com:8443/x%20y"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := b.Hostname(), "book.example.com"; got != want {
		t.Errorf("Hostname() = %q, want %q", got, want)
	}
}
