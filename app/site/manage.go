package site

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/app/ical"
	"frontdesk/app/managelink"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// managed is the booking behind a manage link, as it is now. visit is the visit it belongs
// to when that has other live bookings: the link then shows, moves and cancels the whole
// visit, through the visit functions.
type managed struct {
	token string
	view  booking.View
	loc   *location
	visit *booking.Visit
}

func (m managed) start() time.Time { return db.Time(m.view.Booking.StartAt).In(m.loc.zone) }
func (m managed) end() time.Time   { return db.Time(m.view.Booking.EndAt).In(m.loc.zone) }
func (m managed) path() string     { return managelink.Path(m.token) }

// as is ctx with the booking's client as the actor of what the link's holder changes.
func (m managed) as(ctx context.Context) context.Context {
	return activity.WithActor(ctx, activity.Actor{Kind: activity.KindClient, ID: strconv.FormatInt(m.view.Booking.ClientID, 10)})
}

// loadManaged reads the booking of the request's manage token. A malformed, unknown or expired
// token is the plain 404 page: nothing tells them apart.
func (s *Site) loadManaged(r *http.Request) (managed, error) {
	token := chi.URLParam(r, "token")
	id, err := managelink.Find(r.Context(), s.db.R, token, s.now())
	if errors.Is(err, managelink.ErrNotFound) {
		return managed{}, errNotFound
	}
	if err != nil {
		return managed{}, err
	}
	v, err := booking.Get(r.Context(), s.db.R, id)
	if err != nil {
		return managed{}, err
	}
	zone, err := booking.LoadZone(v.LocationTimezone)
	if err != nil {
		return managed{}, err
	}
	loc := &location{id: v.Booking.LocationID, name: v.LocationName, zone: zone}
	if l, err := s.db.R.GetLocation(r.Context(), v.Booking.LocationID); err == nil {
		loc.address = Address(l.Location.AddressJSON)
	} else if !db.IsNotFound(err) {
		return managed{}, err
	}
	m := managed{token: token, view: v, loc: loc}
	if vid, ok, err := booking.VisitOf(r.Context(), s.db.R, id); err != nil {
		return managed{}, err
	} else if ok {
		visit, err := booking.GetVisit(r.Context(), s.db.R, vid)
		if err != nil {
			return managed{}, err
		}
		live := 0
		for _, x := range visit.Bookings {
			if x.Booking.StatusID != booking.StatusCancelled {
				live++
			}
		}
		if live > 1 {
			m.visit = &visit
		}
	}
	return m, nil
}

// manageHeaders: a manage page carries a personal token in its URL, so it is never cached and
// never sent on as a referrer.
func manageHeaders(w http.ResponseWriter) {
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Robots-Tag", "noindex")
}

// showBooking is the page behind a manage link: the booking as it is now (a reschedule made
// through any link shows on every link), and what may be done with it.
func (s *Site) showBooking(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	m, err := s.loadManaged(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	b := m.view.Booking
	v := ui.SiteManageView{
		Summary:     s.bookingSummary(p, m),
		Status:      statusName(b.StatusID),
		CalendarURL: m.path() + "/booking.ics",
	}
	if b.PackID.Valid { // paid with a session pack (docs/classes.md): say so, not a price of 0
		u, err := s.db.R.PackUsage(r.Context(), b.PackID.Int64)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		v.Summary.Pack = p.T("site.pack.used", "count", u.SessionsTotal-u.Used, "total", u.SessionsTotal)
	}
	switch r.URL.Query().Get("done") {
	case "booked": // with anyone available, the customer learns here whom they got
		v.Message = p.T("site.manage.booked", "provider", m.view.ProviderName)
		v.ManageURL = s.links.URL(m.path(), nil)
	case "rescheduled":
		v.Message = p.T("site.manage.rescheduled", "when", when(p, m.start()), "provider", m.view.ProviderName)
	case "cancelled":
		v.Message = p.T("site.manage.cancelled_now")
	}
	if b.StatusID == booking.StatusReserved && b.PaymentRequestID.Valid {
		if co, err := s.db.R.BookingCheckoutUUID(r.Context(), b.ID); err == nil && co.Status == payments.StatusPending {
			v.PayURL = "/pay/" + co.UUID
		}
	}
	if b.StatusID == booking.StatusCancelled {
		v.AgainURL = s.againURL(r, m)
	} else {
		pol, err := payments.LoadPolicy(r.Context(), s.db.R)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		v.FeePolicy = pol.Statement(p, b.PriceCents)
		rights, err := s.rights(r, m)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		if rights.Reschedule == nil {
			v.RescheduleURL = m.path() + "/reschedule"
		} else {
			v.NoReschedule = s.refusal(r, rights.Reschedule)
		}
		if rights.Cancel == nil {
			v.CancelURL = m.path() + "/cancel"
		} else {
			v.NoCancel = s.refusal(r, rights.Cancel)
		}
	}
	if err := s.wholeBooking(r, p, m, &v); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, ui.SiteManage(s.page(r, p.T("site.manage.title")), v))
}

// wholeBooking describes on the manage page what else the booking is part of: the dates of its
// series from it on. A visit is described whole by bookingSummary.
func (s *Site) wholeBooking(r *http.Request, p *i18n.Printer, m managed, v *ui.SiteManageView) error {
	b := m.view.Booking
	if m.visit != nil { // bookingSummary has described the whole visit
		return nil
	}
	if b.SeriesID.Valid && b.StatusID != booking.StatusCancelled {
		dates, err := s.db.R.MessageSeriesDates(r.Context(), b.ID)
		if err != nil {
			return err
		}
		for _, at := range dates {
			v.Summary.Dates = append(v.Summary.Dates, ui.SiteOccurrence{When: when(p, db.Time(at).In(m.loc.zone)), Free: true})
		}
	}
	return nil
}

// errStarted refuses changes to a booking that has begun: the site's own rule on top of the
// business's policy (a customer does not cancel an appointment they did not come to).
var errStarted = errors.New("the booking has started")

// errHeld refuses to move a booking held for a payment: its payment request is for that time.
// It can be paid, or cancelled and booked again.
var errHeld = errors.New("the booking is held for a payment")

// rights is what the customer may do now: the business's policy (booking.CustomerRights), no
// moving a booking held for a payment, and nothing once the booking has started.
func (s *Site) rights(r *http.Request, m managed) (booking.Rights, error) {
	now := s.now()
	b := m.view.Booking
	if !now.Before(m.start()) && b.StatusID != booking.StatusCancelled {
		return booking.Rights{Reschedule: errStarted, Cancel: errStarted}, nil
	}
	rights, err := booking.CustomerRights(r.Context(), s.db.R, now, b)
	if err == nil && rights.Reschedule == nil && b.StatusID == booking.StatusReserved && b.PaymentRequestID.Valid {
		rights.Reschedule = errHeld
	}
	return rights, err
}

// refusal says in plain words why a change is not possible.
func (s *Site) refusal(r *http.Request, err error) string {
	p := i18n.From(r.Context())
	var restricted *booking.RestrictedError
	switch {
	case errors.Is(err, errStarted):
		return p.T("site.refused.started")
	case errors.Is(err, errHeld):
		return p.T("site.refused.held")
	case errors.As(err, &restricted):
		pol, perr := s.db.R.SchedulePolicy(r.Context())
		if perr != nil {
			return p.T("site.refused.other")
		}
		switch restricted.Rule {
		case booking.RuleCanEdit:
			return p.T("site.refused.can_edit")
		case booking.RuleCanCancel:
			return p.T("site.refused.can_cancel")
		case booking.RuleBeforeEditBooking:
			return p.T("site.refused.locked", "duration", duration(p, pol.EditLockMin))
		case booking.RuleMaxChanges:
			return p.T("site.refused.max_changes", "count", pol.MaxChanges)
		}
	}
	var inv *booking.InvalidError
	if errors.As(err, &inv) && inv.Field == "booking" {
		return p.T("site.refused.cancelled")
	}
	return p.T("site.refused.other")
}

// visitSegments lists a visit's services with their providers and local times; the cancelled
// ones only when the booking the link is for is cancelled too (what the visit was).
func visitSegments(p *i18n.Printer, zone *time.Location, v *booking.Visit, cancelled bool) []ui.SiteSegment {
	var out []ui.SiteSegment
	for _, x := range v.Bookings {
		if x.Booking.StatusID == booking.StatusCancelled && !cancelled {
			continue
		}
		out = append(out, ui.SiteSegment{Service: x.ServiceName, Provider: x.ProviderName,
			Time: p.TimeOnce(db.Time(x.Booking.StartAt).In(zone)) + "–" + p.TimeOnce(db.Time(x.Booking.EndAt).In(zone))})
	}
	return out
}

// bookingSummary is a booking as the manage pages show it. Nothing about the client is shown:
// the link is the only credential, and what it shows is the appointment.
func (s *Site) bookingSummary(p *i18n.Printer, m managed) ui.SiteSummary {
	b := m.view.Booking
	sum := ui.SiteSummary{
		Service: m.view.ServiceName, Provider: m.view.ProviderName, Location: m.loc.name, Address: m.loc.address,
		When: when(p, m.start()), Duration: duration(p, (b.EndAt-b.StartAt)/60000), Price: price(p, b.PriceCents),
	}
	if v := m.visit; v != nil {
		sum.When, sum.Duration, sum.Price = when(p, v.Start.In(m.loc.zone)), duration(p, int64(v.End.Sub(v.Start)/time.Minute)), price(p, v.PriceCents)
		sum.Segments = visitSegments(p, m.loc.zone, v, b.StatusID == booking.StatusCancelled)
	}
	return sum
}

func statusName(id int64) string {
	switch id {
	case booking.StatusReserved:
		return "reserved"
	case booking.StatusAttended:
		return "attended"
	case booking.StatusNoShow:
		return "no_show"
	case booking.StatusCancelled:
		return "cancelled"
	}
	return "confirmed"
}

// downloadCalendar is the booking as an iCalendar file (app/ical): one event with the UID and
// SEQUENCE its emails use, so importing it again — or the next email's — updates one entry.
func (s *Site) downloadCalendar(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	m, err := s.loadManaged(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	c := configFrom(r.Context())
	b := m.view.Booking
	data := ical.Calendar(ical.Event{
		UID: ical.UID(b.ID, c.settings.CalendarID), Sequence: ical.Sequence(b.ChangeCount, b.StatusID == booking.StatusCancelled),
		Start: m.start(), End: m.end(), Stamp: s.now(),
		Summary:     m.view.ServiceName + " · " + c.name(),
		Location:    strings.Join(nonEmpty(m.loc.name, m.loc.address), ", "),
		Description: strings.Join(nonEmpty(m.view.ServiceName, m.view.ProviderName, c.name()), "\n"),
		URL:         s.links.URL(m.path(), nil), Cancelled: b.StatusID == booking.StatusCancelled,
	})
	h := w.Header()
	h.Set("Content-Type", "text/calendar; charset=utf-8; method=PUBLISH")
	h.Set("Content-Disposition", `attachment; filename="booking-`+strconv.FormatInt(b.ID, 10)+`.ics"`)
	w.Write(data)
}

// confirmCancel asks before cancelling.
func (s *Site) confirmCancel(w http.ResponseWriter, r *http.Request) {
	m, ok := s.managedChange(w, r, false)
	if !ok {
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteConfirmView{
		Summary: s.bookingSummary(p, m), Action: m.path() + "/cancel", From: when(p, m.start()), Cancel: true, Back: m.path(),
	}
	page := s.page(r, p.T("site.cancel.title"))
	page.Back = m.path()
	s.render(w, r, http.StatusOK, ui.SiteConfirm(page, v))
}

// cancel cancels the booking through the booking rules (source online: the business's cancel
// policy applies, and booking.updated is sent). A booking held for a payment is released by
// cancelling its payment request, so the request cannot be paid afterwards.
func (s *Site) cancel(w http.ResponseWriter, r *http.Request) {
	m, ok := s.managedChange(w, r, false)
	if !ok {
		return
	}
	now := s.now()
	b := m.view.Booking
	if b.StatusID == booking.StatusReserved && b.PaymentRequestID.Valid {
		if _, err := payments.Cancel(m.as(r.Context()), s.db, now, b.PaymentRequestID.Int64); err != nil {
			var refused *payments.RefusedError
			if !errors.As(err, &refused) { // not pending any more: cancel the booking itself
				s.renderError(w, r, err)
				return
			}
		}
	}
	cancel := func(ctx context.Context) error { return booking.Cancel(ctx, s.db, now, b.ID, booking.SourceOnline) }
	if m.visit != nil { // every booking of the visit, in one transaction, under the policy
		cancel = func(ctx context.Context) error {
			return booking.CancelVisit(ctx, s.db, now, m.visit.ID, booking.SourceOnline)
		}
	}
	if err := cancel(m.as(r.Context())); err != nil {
		s.renderRefusal(w, r, m, err)
		return
	}
	seeOther(w, r, m.path()+"?done=cancelled")
}

// managedChange loads the request's booking for a reschedule (or a cancel) and reports whether
// the customer may make that change; when not, it has answered: a 404 for a link that is not
// valid, the reason for a change that is not allowed.
func (s *Site) managedChange(w http.ResponseWriter, r *http.Request, reschedule bool) (managed, bool) {
	manageHeaders(w)
	m, err := s.loadManaged(r)
	if err != nil {
		s.renderError(w, r, err)
		return managed{}, false
	}
	if s.refuseChange(w, r, m, reschedule) {
		return managed{}, false
	}
	return m, true
}

// refuseChange answers a reschedule or cancel the customer may not make with the reason, and
// reports whether it did.
func (s *Site) refuseChange(w http.ResponseWriter, r *http.Request, m managed, reschedule bool) bool {
	rights, err := s.rights(r, m)
	if err != nil {
		s.renderError(w, r, err)
		return true
	}
	why := rights.Cancel
	if reschedule {
		why = rights.Reschedule
	}
	if why == nil {
		return false
	}
	s.renderRefusal(w, r, m, why)
	return true
}

// renderRefusal explains a refused change (422) with the way back to the booking; anything
// that is not a refusal is an error page.
func (s *Site) renderRefusal(w http.ResponseWriter, r *http.Request, m managed, err error) {
	var restricted *booking.RestrictedError
	var inv *booking.InvalidError
	if !errors.Is(err, errStarted) && !errors.Is(err, errHeld) && !errors.As(err, &restricted) && !errors.As(err, &inv) {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	page := s.page(r, p.T("site.refused.title"))
	v := ui.SiteMessageView{Message: s.refusal(r, err), Link: m.path(), LinkText: p.T("site.refused.back")}
	if m.view.Booking.StatusID == booking.StatusCancelled { // "Please book again": say where
		v.AgainURL = s.againURL(r, m)
	}
	s.render(w, r, http.StatusUnprocessableEntity, ui.SiteMessage(page, v))
}

// againURL is where a cancelled booking's customer books again: the booking flow of the same
// service at the same location (its provider step), or "" while the site would not offer it
// (switched off, the location or the service no longer online).
func (s *Site) againURL(r *http.Request, m managed) string {
	c := configFrom(r.Context())
	if c == nil || !c.settings.Enabled || c.byID[m.loc.id] == nil {
		return ""
	}
	services, err := s.services(r.Context(), m.loc.id)
	if err != nil {
		s.log.ErrorContext(r.Context(), "booking site: services to book again", slog.Any("err", err))
		return ""
	}
	if !slices.ContainsFunc(services, func(svc service) bool { return svc.id == m.view.Booking.ServiceID }) {
		return ""
	}
	return servicePath(m.loc.id, m.view.Booking.ServiceID)
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
