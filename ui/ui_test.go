package ui

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

func TestNavActive(t *testing.T) {
	settings := Nav[len(Nav)-1]
	home := NavItem{Href: "/"}
	tests := []struct {
		item NavItem
		path string
		want bool
	}{
		{home, "/", true},
		{home, "/settings/team", false},
		{Nav[0], "/schedule", true},
		{settings, "/settings/integrations/api-keys", true},
		{settings, "/settings/team", true}, // a child outside the section's prefix
		{settings, "/settingsx", false},
		{NavItem{Href: "/clients"}, "/clients/12", true},
	}
	for _, tc := range tests {
		if got := tc.item.Active(tc.path); got != tc.want {
			t.Errorf("%s.Active(%q) = %v, want %v", tc.item.Href, tc.path, got, tc.want)
		}
	}
}

func TestFormKeepsInputButNotPasswords(t *testing.T) {
	f := NewForm(url.Values{"email": {" a@b.c "}, "password": {"hunter2hunter2"}, "scopes": {"x", "y"}})
	f.SetError("email", "first")
	f.SetError("email", "second")
	if f.Get("email") != "a@b.c" || f.Raw("email") != " a@b.c " || f.Error("email") != "first" || f.OK() {
		t.Errorf("got Get %q Raw %q Error %q OK %v", f.Get("email"), f.Raw("email"), f.Error("email"), f.OK())
	}
	if !f.Checked("scopes", "y") || f.Checked("scopes", "z") {
		t.Error("Checked does not reflect the submitted values")
	}
	var b strings.Builder
	Input(Field{Form: f, Name: "password", Label: "Password", Type: "password"}).Render(context.Background(), &b)
	Input(Field{Form: f, Name: "email", Label: "Email <you>", Type: "email"}).Render(context.Background(), &b)
	html := b.String()
	if strings.Contains(html, "hunter2") {
		t.Error("a password input shows the submitted password")
	}
	for _, want := range []string{`value=" a@b.c "`, `aria-invalid="true"`, `aria-describedby="f-email-error"`, `Email &lt;you&gt;`, `<label for="f-email">`} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered input lacks %q:\n%s", want, html)
		}
	}
}
