package admin

import (
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/app/export"
	"frontdesk/ui"
)

// Settings → Data (docs/data.md, "Everything"): the owner downloads the whole business as one
// zip, written by app/export as it is read.

func (a *Admin) showData(w http.ResponseWriter, r *http.Request) {
	a.render(w, r, http.StatusOK, ui.DataPage(a.page(r, translate(r, "data.title"))))
}

// exportEverything streams the zip. Once its first bytes are sent an error can only cut it
// short: it is logged, and the zip's missing directory shows the file is incomplete.
func (a *Admin) exportEverything(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	zone, err := export.BusinessZone(ctx, a.db)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	now := a.now()
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+export.ArchiveName(booking.DateOf(now.In(zone)).String())+`"`)
	w.Header().Set("Cache-Control", "no-store")
	if err := export.WriteArchive(ctx, a.db, w, now); err != nil {
		a.log.ErrorContext(ctx, "export of everything cut short", "err", err)
	}
}
