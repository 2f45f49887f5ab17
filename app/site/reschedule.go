package site

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// slotsFor is what a booking may move to: the same service at the same location, with the same
// provider — or with anyone available when it was booked that way — leaving the booking's own
// time free. A booking of a visit moves with the whole visit, each booking with its own
// provider: only the times where all of it fits.
func (s *Site) slotsFor(r *http.Request, m managed) (slotQuery, error) {
	sq := slotQuery{loc: m.loc, service: m.view.Booking.ServiceID, provider: m.view.Booking.ProviderID, ignore: m.view.Booking.ID}
	if m.visit != nil {
		sq.visit = m.visit.ID
		return sq, nil
	}
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
	sq, err := s.slotsFor(r, m)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	providers, a, err := s.offered(r.Context(), sq, start, s.now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(providers) == 0 {
		s.renderRescheduleGone(w, r, m, start, http.StatusOK)
		return
	}
	// The page says with whom the booking will be, and the form carries that person: the POST
	// moves it with them or not at all, never with someone the customer was not told about.
	provider := keepProvider(providers, m.view.Booking.ProviderID)
	p := i18n.From(r.Context())
	v := ui.SiteConfirmView{
		Summary: s.bookingSummary(p, m), Action: m.path() + "/reschedule",
		From: when(p, m.start()), To: when(p, start.In(m.loc.zone)), Start: start.Format(time.RFC3339), Back: m.path() + "/reschedule",
		Provider: strconv.FormatInt(provider, 10),
	}
	v.Summary.Provider = a.providerName(provider)
	if provider != m.view.Booking.ProviderID {
		v.ProviderNote = p.T("site.reschedule.other_provider", "current", m.view.ProviderName, "provider", v.Summary.Provider)
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
	provider := keepProvider(providers, m.view.Booking.ProviderID)
	if raw := r.PostFormValue("provider"); raw != "" {
		// The provider the confirmation named: if they are not free any more, the time is gone
		// for this customer, even when someone else is.
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id < 1 {
			s.renderError(w, r, errUnreadable)
			return
		}
		provider = id
	}
	if !slices.Contains(providers, provider) {
		s.renderRescheduleTaken(w, r, m, start)
		return
	}
	if m.visit != nil {
		// A visit moves whole, each booking by the same amount with its own provider, in one
		// transaction (booking.MoveVisit), or not at all.
		if provider != m.view.Booking.ProviderID {
			s.renderRescheduleTaken(w, r, m, start)
			return
		}
		_, err = booking.MoveVisit(m.as(r.Context()), s.db, s.now(), m.visit.ID, start.Add(m.visit.Start.Sub(m.start())), booking.SourceOnline)
	} else {
		_, err = booking.Update(m.as(r.Context()), s.db, s.now(), m.view.Booking.ID,
			booking.Change{Start: &start, ProviderID: &provider}, booking.SourceOnline)
	}
	switch code := fail.CodeOf(err); {
	case fail.Is(err, fail.CodeConflict, booking.ConflictSlotUnavailable), fail.Is(err, fail.CodeConflict, booking.ConflictClassFull),
		code == fail.CodeInvalid && fail.FieldOf(err) != "booking": // taken, or not offered any more
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
	s.renderRescheduleGone(w, r, m, start, http.StatusConflict)
}

// renderRescheduleGone is the picker on start's day saying that start is not free any more.
func (s *Site) renderRescheduleGone(w http.ResponseWriter, r *http.Request, m managed, start time.Time, status int) {
	r = r.Clone(r.Context())
	r.URL.RawQuery = url.Values{"date": {booking.DateOf(start.In(m.loc.zone)).String()}}.Encode()
	s.renderReschedule(w, r, m, status, i18n.From(r.Context()).T("site.times.gone"))
}

// keepProvider is whom a reschedule books among the providers free at the new time: the
// booking's own provider when free — with anyone available, staying with the same person is
// kinder than a change of face — else the first.
func keepProvider(free []int64, current int64) int64 {
	if len(free) == 0 || slices.Contains(free, current) {
		return current
	}
	return free[0]
}
