package webhook

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateURL(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		wantErr string // empty: valid
	}{
		{name: "https", raw: "https://hooks.example.com/frontdesk"},
		{name: "http with port and query", raw: "http://example.com:8080/hook?tenant=3"},
		{name: "upper-case scheme", raw: "HTTPS://example.com/"},
		{name: "IP literal", raw: "http://127.0.0.1:9000/"}, // refused at dial time unless allowed
		{name: "IPv6 literal", raw: "https://[2001:db8::1]/hook"},
		{name: "empty", raw: "", wantErr: "empty"},
		{name: "relative", raw: "/hooks", wantErr: "must start with http"},
		{name: "no scheme", raw: "example.com/hook", wantErr: "must start with http"},
		{name: "ftp", raw: "ftp://example.com/", wantErr: "must start with http"},
		{name: "javascript", raw: "javascript:alert(1)", wantErr: "must start with http"},
		{name: "opaque", raw: "http:example.com", wantErr: "must be absolute"},
		{name: "no host", raw: "https:///path", wantErr: "must be absolute"},
		{name: "port only", raw: "http://:8080/", wantErr: "no host"},
		{name: "credentials", raw: "https://user:hunter2@example.com/", wantErr: "credentials"},
		{name: "user only", raw: "https://user@example.com/", wantErr: "credentials"},
		{name: "fragment", raw: "https://example.com/hook#frag", wantErr: "fragment"},
		{name: "empty fragment", raw: "https://example.com/hook#", wantErr: "fragment"},
		{name: "port zero", raw: "https://example.com:0/", wantErr: "port 0"},
		{name: "port too big", raw: "https://example.com:70000/", wantErr: "port 70000"},
		{name: "bad port", raw: "https://example.com:http/", wantErr: "not a URL"},
		{name: "spaces", raw: " https://example.com/", wantErr: "spaces"},
		{name: "trailing newline", raw: "https://example.com/\n", wantErr: "spaces"},
		{name: "control character", raw: "https://exa\x7fmple.com/", wantErr: "not a URL"},
		{name: "too long", raw: "https://example.com/" + strings.Repeat("a", 2048), wantErr: "longer than 2048"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateURL(tt.raw)
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("ValidateURL(%q) = %v, want nil", tt.raw, err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrInvalidURL) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ValidateURL(%q) = %v, want ErrInvalidURL containing %q", tt.raw, err, tt.wantErr)
			}
		})
	}
	if err := ValidateURL("https://user:hunter2@example.com/"); err != nil && strings.Contains(err.Error(), "hunter2") {
		t.Errorf("ValidateURL error %q repeats the password, want it redacted", err)
	}
}
