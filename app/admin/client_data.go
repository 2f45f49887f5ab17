package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"frontdesk/app/clients"
	"frontdesk/ui"
)

// exportClient downloads everything stored about the client as client-<id>.json.
func (a *Admin) exportClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	x, err := clients.ExportClient(r.Context(), a.db, a.now(), id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	body, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="client-%d.json"`, id))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(body, '\n'))
}

// confirmEraseClient asks before erasing the client's personal data.
func (a *Admin) confirmEraseClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	c, err := clients.Load(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.EraseClientPage(a.page(r, translate(r, "clients.erase.title")), id, clientName(c.FirstName, nullText(c.LastName))))
}

// eraseClient erases the client's personal data (clients.Erase) and goes back to the client.
func (a *Admin) eraseClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	e, err := clients.Erase(r.Context(), a.db, a.now(), id)
	switch {
	case errors.Is(err, clients.ErrOpenBookings):
		a.flash(r.Context(), ui.FlashError, translate(r, "clients.erase.open_bookings"))
	case err != nil:
		a.renderError(w, r, err)
		return
	case e.Already:
		a.flash(r.Context(), ui.FlashInfo, translate(r, "clients.already_erased"))
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "clients.erased"))
	}
	seeOther(w, r, ui.ClientURL(id))
}
