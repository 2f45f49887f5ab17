package admin

import (
	"net/http"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Classes and packs (docs/classes.md): how long packs last, and until when a freed
// seat goes to the waitlist.

func (a *Admin) showClassSettings(w http.ResponseWriter, r *http.Request) {
	s, err := booking.GetClassSettings(r.Context(), a.db.R)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f := ui.NewForm(nil)
	f.Set("pack_expiry_days", strconv.Itoa(s.PackExpiryDays))
	f.Set("waitlist_cutoff_min", strconv.FormatInt(int64(s.WaitlistCutoff/time.Minute), 10))
	a.render(w, r, http.StatusOK, ui.ClassSettingsPage(a.page(r, translate(r, "classes.settings.title")), ui.ClassSettingsView{Form: f}))
}

func (a *Admin) updateClassSettings(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var s booking.ClassSettings
	expiry, err1 := strconv.Atoi(f.Get("pack_expiry_days"))
	cutoff, err2 := strconv.Atoi(f.Get("waitlist_cutoff_min"))
	if err1 != nil {
		f.SetError("pack_expiry_days", translate(r, "form.whole_number", "min", 0, "max", booking.MaxPackExpiryDays))
	}
	if err2 != nil {
		f.SetError("waitlist_cutoff_min", translate(r, "form.whole_number", "min", 0, "max", int(booking.MaxWaitlistCutoff/time.Minute)))
	}
	if f.OK() {
		s = booking.ClassSettings{PackExpiryDays: expiry, WaitlistCutoff: time.Duration(cutoff) * time.Minute}
		err = booking.UpdateClassSettings(r.Context(), a.db, a.now(), s)
		if !classRefused(r, f, err) && err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	if !f.OK() {
		a.render(w, r, http.StatusUnprocessableEntity, ui.ClassSettingsPage(a.page(r, translate(r, "classes.settings.title")), ui.ClassSettingsView{Form: f}))
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "classes.settings.saved"))
	seeOther(w, r, "/settings/classes")
}

// classRefused puts a class, pack or timetable refusal of app/booking on f, in the owner's
// language (a field error beside the field when the form has it, else the form's message),
// and reports whether err was one.
func classRefused(r *http.Request, f *ui.Form, err error) bool {
	msg, field, ok := classMessage(r, err)
	if !ok {
		return false
	}
	if field != "" && f.Values.Has(field) {
		f.SetError(field, msg)
	} else {
		f.Message = msg
	}
	return true
}

// classFormFields maps app/booking's field names to the admin forms'.
var classFormFields = map[string]string{
	"service_id": "service", "provider_id": "provider", "location_id": "location", "client_id": "client",
	"day": "day", "start": "start", "valid_from": "valid_from", "valid_to": "valid_to", "capacity": "capacity",
	"room": "room", "date": "date", "pack_expiry_days": "pack_expiry_days", "waitlist_cutoff_min": "waitlist_cutoff_min",
}

// classMessage is err in the owner's words, with the form field it is about ("" for the form
// as a whole); ok is false for errors that are not refusals.
func classMessage(r *http.Request, err error) (msg, field string, ok bool) {
	p := i18n.From(r.Context())
	fe, ok := fail.As(err)
	switch {
	case !ok:
		return "", "", false
	case fe.Code == fail.CodeConflict && fe.Reason == booking.ConflictClassFull:
		return p.T("classes.error.full"), "", true
	case fe.Code == fail.CodeConflict && fe.Reason == booking.ConflictSeatsAvailable:
		return p.T("classes.error.seats_available"), "", true
	case fe.Code == fail.CodeConflict && fe.Reason == booking.ConflictSlotUnavailable:
		return p.T("classes.error.provider_taken"), "", true
	case fe.Code == fail.CodeNotFound:
		return p.T("error.not_found"), "", true
	case fe.Code == fail.CodeInvalid && fe.Msg.Key != "":
		return p.Msg(fe.Msg), classFormFields[fe.Field], true
	case fe.Code == fail.CodeInvalid:
		return asSentence(fe.Message), classFormFields[fe.Field], true
	}
	return "", "", false
}
