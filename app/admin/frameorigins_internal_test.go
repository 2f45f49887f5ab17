package admin

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"frontdesk/ui/i18n"
)

// "https://*.com" in the origins allowed to frame the booking site was accepted: every .com
// site could have framed it. A wildcard over a public suffix — a top-level domain, a registry's
// second level, a shared hosting domain — is refused with a sentence that says why, in English
// and Spanish; a wildcard under a registrable domain is still allowed.
func TestFrameOriginsRefusePublicSuffixWildcards(t *testing.T) {
	for _, text := range []string{"http://*.com", "https://*.co.uk", "https://*.CO.UK/", "https://*.github.io", "https://*.example",
		"https://www.salon.example\nhttps://*.com:8443", "https://*.com."} {
		if origins, problem := parseFrameOrigins(text); problem == nil || problem.Key != "sitesettings.frame_origins.public_suffix" {
			t.Errorf("%q: got %v, %v; want it refused as a wildcard over a public suffix", text, origins, problem)
		}
	}
	for text, want := range map[string]string{
		"https://*.salon.example":    "https://*.salon.example",
		"https://*.example.co.uk/":   "https://*.example.co.uk",
		"https://*.me.github.io":     "https://*.me.github.io",
		"https://com.example":        "https://com.example",
		"https://co.uk:8443":         "https://co.uk:8443", // one host, not a wildcard: the owner's to judge
		"http://*.shop.example:8080": "http://*.shop.example:8080",
	} {
		if origins, problem := parseFrameOrigins(text); problem != nil || strings.Join(origins, "\n") != want {
			t.Errorf("%q: got %v, %v; want %q", text, origins, problem, want)
		}
	}
	_, problem := parseFrameOrigins("http://*.com")
	if problem == nil {
		t.Fatal("http://*.com accepted")
	}
	for lang, want := range map[string]string{
		"en": "http://*.com would let every website under com embed the booking site.",
		"es": "http://*.com permitiría que cualquier sitio web bajo com inserte el sitio de reservas.",
	} {
		if got := i18n.NewPrinter(lang, i18n.Prefs{}).Msg(*problem); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to start %q", lang, got, want)
		}
	}

	// Through the settings form: refused, nothing saved.
	fs := newFormBodyServer(t)
	st, _, body := fs.post(t, "/settings/booking-site", url.Values{"accent": {"#112233"}, "frame_origins": {"http://*.com"}})
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, "http://*.com would let every website under com embed the booking site.") {
		t.Errorf("settings form with http://*.com: %d, want 422 with the reason:\n%.3000s", st, body)
	}
	var stored string
	if err := fs.d.Read.QueryRow(`SELECT frame_origins FROM site_settings`).Scan(&stored); err != nil || stored != "" {
		t.Errorf("stored frame_origins %q (%v), want nothing", stored, err)
	}
	fs.noErrors(t)
}
