package site_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// getAs requests path with extra headers (a browser's languages, a cookie).
func (f *fixture) getAs(path string, h http.Header) response {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header = h
	return f.do(req)
}

// A visitor reads the site in their language: the one they chose with the link every page
// carries (no JavaScript; remembered in a cookie), else their browser's first language the site
// has, else the business's.
func TestVisitorChoosesLanguage(t *testing.T) {
	f := newFixture(t)
	f.exec(`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (2, 'l2', 'Norte', 'America/Santiago', 1, 0, 0)`)
	es := http.Header{"Accept-Language": {"es-CL,es;q=0.9,en;q=0.8"}}

	res := f.get("/book/1")
	wantBody(t, res, `lang="en"`, "Choose a service", `<a href="/book/1?lang=es" lang="es" hreflang="es" data-testid="site-language">Español</a>`)
	res = f.getAs("/book/1", es)
	wantBody(t, res, `lang="es"`, "Elige un servicio", `<a href="/book/1?lang=en" lang="en" hreflang="en" data-testid="site-language">English</a>`)
	if !strings.Contains(res.header.Get("Vary"), "Accept-Language") {
		t.Errorf("Vary %q: a page chosen by Accept-Language must say so", res.header.Get("Vary"))
	}
	wantBody(t, f.getAs("/book/1", http.Header{"Accept-Language": {"fr-FR,fr;q=0.9"}}), `lang="en"`) // no French: the business's

	// The switch: a plain link that remembers the choice and comes back to the same page.
	times := "/book/1/1/times?date=2026-03-31&provider=" + strconv.FormatInt(f.ana, 10)
	res = f.get(times + "&lang=es")
	wantStatus(t, res, http.StatusSeeOther)
	if res.location() != times {
		t.Errorf("switching language went to %q, want back to %q", res.location(), times)
	}
	cookie := res.header.Get("Set-Cookie")
	for _, want := range []string{"frontdesk_lang=es", "Path=/book", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("Set-Cookie %q lacks %s", cookie, want)
		}
	}
	chosen := http.Header{"Cookie": {"frontdesk_lang=es"}, "Accept-Language": {"en-US,en"}}
	wantBody(t, f.getAs(times, chosen), `lang="es"`, "Elige día y hora", "martes, 31 de marzo de 2026") // the choice wins
	wantBody(t, f.getAs(times, http.Header{"Cookie": {"frontdesk_lang=en"}, "Accept-Language": {"es"}}), `lang="en"`)
	res = f.get("/book/1?lang=xx")
	wantStatus(t, res, http.StatusSeeOther)
	if res.header.Get("Set-Cookie") != "" || res.location() != "/book/1" {
		t.Errorf("an unknown language set %q and went to %q", res.header.Get("Set-Cookie"), res.location())
	}

	// Over HTTPS the cookie also works inside the owner's website (a third party there).
	rec := httptest.NewRecorder()
	f.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://desk.example.com/book/1?lang=es", nil))
	if c := rec.Header().Get("Set-Cookie"); !strings.Contains(c, "Secure") || !strings.Contains(c, "SameSite=None") || !strings.Contains(c, "Partitioned") {
		t.Errorf("over HTTPS, Set-Cookie %q", c)
	}

	// Every page carries the switch, in the chosen language.
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.bookAt(at)
	form := f.details(haircut, f.ana, at.Add(time.Hour))
	form.Set("email", "not an email")
	for _, path := range []string{"/book", "/book/1", "/book/1/1", times, detailsPath(haircut, f.ana, at.Add(time.Hour)), manage,
		manage + "/reschedule", manage + "/cancel", "/book/manage/" + strings.Repeat("A", 43), "/book/9"} {
		res := f.getAs(path, chosen)
		wantBody(t, res, `lang="es"`, `data-testid="site-languages"`, `data-testid="site-language">English</a>`)
	}
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/book/1/1/details", strings.NewReader(form.Encode()))
	req.Header = http.Header{"Origin": {f.srv.URL}, "Sec-Fetch-Site": {"same-origin"}, "Cookie": {"frontdesk_lang=es"},
		"Content-Type": {"application/x-www-form-urlencoded"}}
	res = f.do(req)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `lang="es"`, "escribe un correo válido")
}
