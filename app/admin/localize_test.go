package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The business's language is every owner's, until an owner chooses their own; public pages
// (sign-in) follow the business.
func TestLanguages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	form := businessForm()
	form.Set("language", "es")
	form.Set("clock", "12h")
	res := c.post(t, "/settings/business", form)
	wantRedirect(t, res, "/settings/business")

	page := c.get(t, "/settings/business")
	wantBody(t, page, `<html lang="es">`, "Configuración del negocio guardada.", ">Reservas</a>", ">Negocio</h1>")
	if strings.Contains(page.Body, ">Bookings</a>") {
		t.Error("a Spanish business still sees the English navigation")
	}
	wantBody(t, ts.newClient(t).get(t, "/login"), `<html lang="es">`)

	// An owner's own choice wins over the business's, for that owner only.
	wantRedirect(t, c.post(t, "/account/language", url.Values{"language": {"en"}}), "/account")
	wantBody(t, c.get(t, "/account"), `<html lang="en">`, "Language saved.", ">Bookings</a>")
	wantBody(t, c.get(t, "/settings/business"), `<html lang="en">`)

	// Back to the business's language.
	wantRedirect(t, c.post(t, "/account/language", url.Values{"language": {""}}), "/account")
	wantBody(t, c.get(t, "/account"), `<html lang="es">`, "Idioma guardado.")

	res = c.post(t, "/account/language", url.Values{"language": {"klingon"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-language"`)
}
