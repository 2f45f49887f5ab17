package site_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/static"
)

// Every step is light: its HTML and the stylesheets it loads stay under 60 KB, and no page
// loads an image of ours (the owner's logo is the only image a page may show).
func TestPagesAreLight(t *testing.T) {
	f := newFixture(t)
	f.exec(`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (2, 'l2', 'Norte', 'America/Santiago', 1, 0, 0)`)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.bookAt(at.Add(time.Hour))
	f.exec(`UPDATE site_settings SET repeat_online = 1, updated_at = updated_at + 1`)
	css := 0
	for _, name := range []string{"app.css", "site.css"} {
		rec := httptest.NewRecorder()
		static.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, static.URL(name), nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", name, rec.Code)
		}
		css += rec.Body.Len()
	}
	theme := f.get("/book/theme.css")
	wantStatus(t, theme, http.StatusOK)
	css += len(theme.body)
	for _, path := range []string{
		"/book", "/book/1", "/book/1/1", "/book/1/1/times?provider=0&date=2026-03-31",
		detailsPath(haircut, 0, at), manage, manage + "/reschedule", manage + "/cancel",
		// Visits, series and the waitlist for appointments (visit.go, repeat.go, notify.go).
		"/book/1/visit?s1=1&s2=3&provider=0&date=2026-03-31",
		"/book/1/visit/details?" + url.Values{"s1": {"1"}, "s2": {"3"}, "provider": {"0"}, "start": {at.Format(time.RFC3339)}}.Encode(),
		"/book/1/1/repeat?" + url.Values{"provider": {"0"}, "start": {at.Format(time.RFC3339)}, "repeat": {"weekly"}, "count": {"52"}}.Encode(),
		"/book/1/1/notify?provider=0&date=2026-03-31",
	} {
		res := f.get(path)
		wantStatus(t, res, http.StatusOK)
		if total := len(res.body) + css; total > 60<<10 {
			t.Errorf("%s: HTML %d + CSS %d = %d bytes, over 60 KB", path, len(res.body), css, total)
		}
		if strings.Contains(res.body, "<img") {
			t.Errorf("%s shows an image without a logo set", path)
		}
	}
}

// The pages speak the business's language, with its money and dates.
func TestSpanish(t *testing.T) {
	f := newFixture(t)
	f.exec(`UPDATE company SET language = 'es'`)
	res := f.get("/book/1")
	wantBody(t, res, `lang="es"`, "Elige un servicio", "$15.000", "Otros servicios")
	res = f.get("/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10) + "&date=2026-04-04")
	wantBody(t, res, "sábado, 4 de abril de 2026", "Todos los horarios están en hora de Santiago (UTC−3).")
}
