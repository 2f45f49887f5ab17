package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	owncal "frontdesk/app/calendar"
	"frontdesk/app/errpage"
	"frontdesk/app/fail"
	"frontdesk/app/staff"
	"frontdesk/ui"
)

// A provider's own calendar (app/calendar, docs/calendars.md): a section of the provider's edit
// page, which the provider's own account may use as it edits its hours. Saving stores the
// settings (the CalDAV app password sealed, never shown again), makes the connection due and
// wakes the background worker, so it is read at once. A CalDAV account's calendars are chosen
// here too: which count as busy, and which one (or none) the provider's bookings are written to.

// calendarView is the own-calendar section of provider id's edit page.
func (a *Admin) calendarView(ctx context.Context, id int64) (ui.CalendarSyncView, error) {
	page := ui.ProviderURL(id)
	v := ui.CalendarSyncView{Base: page, Form: ui.NewForm(nil), CanAllowPrivate: can(ctx, staff.Integrations)}
	c, err := owncal.Get(ctx, a.db.R, id)
	if errors.Is(err, owncal.ErrNotConnected) {
		v.Form.Set("kind", owncal.KindICS)
		v.Form.Set("all_day", "1")
		v.Form.Set("stale_blocks", "1")
		return v, nil
	}
	if err != nil {
		return v, err
	}
	v.Connected, v.HasPassword, v.Stale = true, c.HasPassword, c.Stale
	v.LastSuccess, v.LastError, v.Blocks = c.LastSuccess, c.LastError, c.Blocks
	f := v.Form
	f.Set("kind", c.Kind)
	f.Set("url", c.URL)
	f.Set("username", c.Username)
	for name, on := range map[string]bool{"all_day": c.AllDay, "reveal_summary": c.RevealSummary, "stale_blocks": c.StaleBlocks, "allow_private": c.AllowPrivate} {
		if on {
			f.Set(name, "1")
		}
	}
	sources, err := owncal.Sources(ctx, a.db.R, c.ID)
	if err != nil {
		return v, err
	}
	f.Set("push", "")
	for _, s := range sources {
		v.Sources = append(v.Sources, ui.CalendarSourceView{ID: s.ID, Name: s.Name, Busy: s.Busy})
		if s.Push {
			v.PushTo = s.Name
			f.Set("push", strconv.FormatInt(s.ID, 10))
		}
	}
	push, err := owncal.Pushes(ctx, a.db.R, id)
	if err != nil {
		return v, err
	}
	v.Pending, v.PushError = push.Pending, push.LastError
	return v, nil
}

// saveCalendar connects the provider's calendar or saves new settings for it.
func (a *Admin) saveCalendar(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	s := owncal.Settings{
		Kind: f.Get("kind"), URL: f.Get("url"), Username: f.Get("username"), Password: f.Get("password"),
		// A private address is the owner's opt-in alone, as for webhooks: another account's save
		// never carries it, so it cannot point a calendar into the network.
		AllowPrivate: f.Checked("allow_private", "1") && can(r.Context(), staff.Integrations), AllDay: f.Checked("all_day", "1"),
		RevealSummary: f.Checked("reveal_summary", "1"), StaleBlocks: f.Checked("stale_blocks", "1"),
	}
	page := ui.ProviderURL(id)
	if _, err := owncal.Connect(r.Context(), a.db, a.twofa.Box, id, s, a.now()); err != nil {
		if fe, ok := fail.As(err); ok && fe.Code == fail.CodeInvalid {
			a.flash(r.Context(), ui.FlashError, translate(r, "calendars.refused", "field", translate(r, "calendars."+fe.Field), "reason", fe.Message))
			seeOther(w, r, page+"#own-calendar")
			return
		}
		a.renderError(w, r, calendarError(err))
		return
	}
	a.calendarSaved()
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "calendars.saved"))
	seeOther(w, r, page+"#own-calendar")
}

// chooseCalendars saves which CalDAV calendars count as busy and which one bookings are
// written to.
func (a *Admin) chooseCalendars(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	c, err := owncal.Get(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, calendarError(err))
		return
	}
	sources, err := owncal.Sources(r.Context(), a.db.R, c.ID)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	busy := map[int64]bool{}
	var push int64
	for _, s := range sources {
		busy[s.ID] = f.Checked("busy_"+strconv.FormatInt(s.ID, 10), "1")
		if f.Get("push") == strconv.FormatInt(s.ID, 10) {
			push = s.ID
		}
	}
	if f.Get("push") != "" && push == 0 {
		// A calendar the server no longer lists (or a forged value): nothing is changed.
		a.flash(r.Context(), ui.FlashError, translate(r, "calendars.refused", "field", translate(r, "calendars.push"), "reason", translate(r, "calendars.push.unknown")))
		seeOther(w, r, ui.ProviderURL(id)+"#own-calendar")
		return
	}
	if err := owncal.ChooseSources(r.Context(), a.db, c.ID, busy, push, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.calendarSaved()
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "calendars.sources.saved"))
	seeOther(w, r, ui.ProviderURL(id)+"#own-calendar")
}

// disconnectCalendar removes the provider's calendar and the busy time it gave.
func (a *Admin) disconnectCalendar(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := owncal.Disconnect(r.Context(), a.db, id, a.now()); err != nil {
		a.renderError(w, r, calendarError(err))
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "calendars.disconnected"))
	seeOther(w, r, ui.ProviderURL(id)+"#own-calendar")
}

// calendarError is a 404 page for a provider (or connection) that does not exist.
func calendarError(err error) error {
	if fail.CodeOf(err) == fail.CodeNotFound {
		return errpage.NotFound
	}
	return err
}
