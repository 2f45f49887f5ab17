package admin_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Settings → Booking site: every field is checked on the server and a refused form changes
// nothing; a valid one saves the switch, look, policy, locations, questions and embedding
// origins; the logo is fetched once and served from our own origin; SVG and non-images are
// refused; services the site cannot book are named.
func TestSiteSettings(t *testing.T) {
	logo := pngBytes(t)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/logo.png":
			w.Write(logo)
		case "/logo.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(files.Close)
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO custom_attributes (id, name, datatype, mandatory) VALUES (1, 'Allergies', 'text', 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE services SET online_payment_mode = 'MANDATORY_TOTAL' WHERE id = ?`, w.serviceID); err != nil {
		t.Fatal(err)
	}

	page := c.get(t, "/settings/booking-site")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, ts.URL+"/book", "data-frontdesk", "Allergies (mandatory)", "Haircut", "does not take online payments")
	// The embed code is offered, but no website may frame the site yet: the page says so and
	// what to add, beside the code.
	wantBody(t, page, `data-testid="embed-warning"`, "No website may show the booking site in a frame yet",
		"Add your website’s address (like https://www.example.com) under “Websites allowed to embed the booking site”")

	bad := url.Values{"accent": {"blue"}, "frame_origins": {"ftp://files.example\nhttps://ok.example"}, "logo_url": {"not a url"},
		"display_name": {strings.Repeat("x", 101)}, "policy_text": {strings.Repeat("p", 2001)}, "enabled": {"1"}}
	res := c.post(t, "/settings/booking-site", bad)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	for _, field := range []string{"accent", "frame_origins", "logo_url", "display_name", "policy_text"} {
		wantBody(t, res, `data-testid="error-`+field+`"`)
	}
	var enabled bool
	if err := d.Read.QueryRow(`SELECT enabled FROM site_settings`).Scan(&enabled); err != nil || enabled {
		t.Fatalf("a refused form switched the site on (%v)", err)
	}

	for path, msg := range map[string]string{"/logo.svg": "it is not a PNG, JPEG, GIF or WebP image", "/missing.png": "its server answered HTTP 404"} {
		res := c.post(t, "/settings/booking-site", url.Values{"accent": {"#112233"}, "logo_url": {files.URL + path}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, msg)
	}

	good := url.Values{
		"enabled": {"1"}, "locations": {w.Location}, "attributes": {"1"}, "accent": {"#2A7D4F"}, "display_name": {"Studio online"},
		"policy_text": {"Cancel 24 h ahead."}, "logo_url": {files.URL + "/logo.png"},
		"frame_origins": {"https://www.salon.example/\nhttps://*.salon.example\nhttps://www.salon.example"},
	}
	wantRedirect(t, c.post(t, "/settings/booking-site", good), "/settings/booking-site")
	var origins, accent, logoType string
	if err := d.Read.QueryRow(`SELECT frame_origins, accent, logo_type FROM site_settings`).Scan(&origins, &accent, &logoType); err != nil {
		t.Fatal(err)
	}
	if origins != "https://www.salon.example\nhttps://*.salon.example" || accent != "#2a7d4f" || logoType != "image/png" {
		t.Errorf("stored origins %q, accent %q, logo %q", origins, accent, logoType)
	}
	pub := ts.newClient(t)
	site := pub.get(t, "/book")
	wantStatus(t, site, http.StatusFound) // Nocturno is off: one location left
	services := pub.get(t, site.Header.Get("Location"))
	wantBody(t, services, "Studio online", `<img class="site-logo" src="/book/logo?v=`)
	if strings.Contains(services.Body, files.URL) {
		t.Error("a public page refers to the logo's original address")
	}
	if !strings.Contains(services.Header.Get("Content-Security-Policy"), "frame-ancestors 'self' https://www.salon.example https://*.salon.example;") {
		t.Errorf("CSP %q", services.Header.Get("Content-Security-Policy"))
	}
	served := pub.get(t, between(services.Body, `<img class="site-logo" src="`, `"`))
	if served.Header.Get("Content-Type") != "image/png" || !bytes.Equal([]byte(served.Body), logo) {
		t.Error("/book/logo does not serve the fetched logo")
	}
	if strings.Contains(services.Body, "Haircut") {
		t.Error("a service needing online payment is offered while the business takes none")
	}
	saved := c.get(t, "/settings/booking-site")
	wantBody(t, saved, "Booking site settings saved.", `value="Studio online"`)
	if strings.Contains(saved.Body, `data-testid="embed-warning"`) {
		t.Error("with websites allowed to embed, the page still warns that none may")
	}

	// Without --webhook-allow-private the logo cannot come from a private address.
	strict := startServer(t)
	sc := strict.setupOwner(t)
	res = sc.post(t, "/settings/booking-site", url.Values{"accent": {"#112233"}, "logo_url": {files.URL + "/logo.png"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "the address is private or local")
	// In the owner's language, like the rest of the page.
	if _, err := openBookingDB(t, strict).Write.Exec(`INSERT INTO company (id, name, language, created_at, updated_at) VALUES (1, 'Estudio', 'es', 0, 0)
		ON CONFLICT (id) DO UPDATE SET language = 'es'`); err != nil {
		t.Fatal(err)
	}
	res = sc.post(t, "/settings/booking-site", url.Values{"accent": {"#112233"}, "logo_url": {files.URL + "/logo.png"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "No se pudo obtener el logo: la dirección es privada o local.")
}

func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
