package site

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// slotsFor is what a booking may move to: the same service at the same location, with the same
// provider — or with anyone available when it was booked that way — leaving the booking's own
// time free.
func (s *Site) slotsFor(r *http.Request, m managed) (slotQuery, error) {
	sq := slotQuery{loc: m.loc, service: m.view.Booking.ServiceID, provider: m.view.Booking.ProviderID, ignore: m.view.Booking.ID}
	sb, err := s.db.R.SiteBooking(r.Context(), m.view.Booking.ID)
	switch {
	case err == nil && sb.AnyProvider:
		sq.provider = 0
	case err != nil && !db.IsNotFound(err):
		return sq, err
	}
	return sq, nil
}

// showReschedule is the date picker for moving a booking.
func (s *Site) showReschedule(w http.ResponseWriter, r *http.Request) {
	m, ok := s.managedChange(w, r, true)
	if !ok {
		return
	}
	s.renderReschedule(w, r, m, http.StatusOK, "")
}

func (s *Site) renderReschedule(w http.ResponseWriter, r *http.Request, m managed, status int, notice string) {
	sq, err := s.slotsFor(r, m)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	base := m.path() + "/reschedule"
	links := pickerLinks{
		day: func(from, date booking.Date) string {
			q := url.Values{"from": {from.String()}}
			if date.IsValid() {
				q.Set("date", date.String())
			}
			return base + "?" + q.Encode()
		},
		time: func(in instant) string {
			return base + "/confirm?" + url.Values{"start": {in.start.Format(time.RFC3339)}}.Encode()
		},
	}
	// It opens on the booking's own day: a customer moving a booking mostly moves it a little.
	v, err := s.picker(r.Context(), r, sq, links, booking.DateOf(m.start()))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	v.Summary = s.bookingSummary(p, m)
	v.Summary.When = ""
	if sq.provider == 0 {
		v.Summary.Provider = ""
	}
	v.Current = when(p, m.start())
	v.Notice = notice
	page := s.page(r, p.T("site.reschedule.title"))
	page.Back = m.path()
	s.render(w, r, status, ui.SiteTimes(page, v))
}

// confirmReschedule asks before moving the booking to the chosen time.
func (s *Site) confirmReschedule(w http.ResponseWriter, r *http.Request) {
	m, ok := s.managedChange(w, r, true)
	if !ok {
		return
	}
	start, err := time.Parse(time.RFC3339, r.URL.Query().Get("start"))
	if err != nil {
		http.Redirect(w, r, m.path()+"/reschedule", http.StatusFound)
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteConfirmView{
		Summary: s.bookingSummary(p, m), Action: m.path() + "/reschedule",
		From: when(p, m.start()), To: when(p, start.In(m.loc.zone)), Start: start.Format(time.RFC3339), Back: m.path() + "/reschedule",
	}
	page := s.page(r, p.T("site.reschedule.confirm_title"))
	page.Back = m.path() + "/reschedule"
	s.render(w, r, http.StatusOK, ui.SiteConfirm(page, v))
}

// reschedule moves the booking through the booking rules (source online: availability, the
// business's edit policy and its limit on changes; booking.updated is sent). A time taken
// meanwhile brings back the day's times with a word about it.
func (s *Site) reschedule(w http.ResponseWriter, r *http.Request) {
	m, ok := s.managedChange(w, r, true)
	if !ok {
		return
	}
	start, err := time.Parse(time.RFC3339, r.PostFormValue("start"))
	if err != nil {
		s.renderError(w, r, errUnreadable)
		return
	}
	sq, err := s.slotsFor(r, m)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	providers, _, err := s.offered(r.Context(), sq, start, s.now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(providers) == 0 {
		s.renderRescheduleTaken(w, r, m, start)
		return
	}
	// With anyone available, staying with the same person is kinder than a change of face.
	provider := providers[0]
	if slices.Contains(providers, m.view.Booking.ProviderID) {
		provider = m.view.Booking.ProviderID
	}
	_, err = booking.Update(r.Context(), s.db, s.now(), m.view.Booking.ID,
		booking.Change{Start: &start, ProviderID: &provider}, booking.SourceOnline)
	var inv *booking.InvalidError
	switch {
	case errors.Is(err, booking.ErrSlotUnavailable), errors.Is(err, booking.ErrClassFull), errors.As(err, &inv) && inv.Field != "booking":
		s.renderRescheduleTaken(w, r, m, start)
		return
	case err != nil:
		s.renderRefusal(w, r, m, err)
		return
	}
	seeOther(w, r, m.path()+"?done=rescheduled")
}

// renderRescheduleTaken answers a reschedule to a time that is no longer free with the picker on that
// time's day (the POST carries no date of its own, and today's times, perhaps weeks before the
// day the customer chose, would send them looking for it again).
func (s *Site) renderRescheduleTaken(w http.ResponseWriter, r *http.Request, m managed, start time.Time) {
	r = r.Clone(r.Context())
	r.URL.RawQuery = url.Values{"date": {booking.DateOf(start.In(m.loc.zone)).String()}}.Encode()
	s.renderReschedule(w, r, m, http.StatusConflict, i18n.From(r.Context()).T("site.times.gone"))
}
