package site

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/managelink"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The waitlist of a full class session (docs/classes.md, docs/booking-site.md). A full
// session's time leads to a form like the booking form; joining puts the visitor (matched or
// created as a client, as a booking does: clients.FindOrCreate) at the end of the session's
// waitlist (booking.JoinWaitlist, both joined to the transaction that writes the link:
// db.WithTx) and gives them a personal link, like a manage link: the page behind it shows their
// place in the queue, lets them leave, and later says whether a seat came to them (then the
// "you got a seat" email carries the booking's manage link).

// waitlistPathPrefix is where waitlist pages are served; a link's path is the prefix and the token.
const waitlistPathPrefix = "/book/waitlist/"

func waitlistPath(location, service, provider int64, start time.Time) string {
	return servicePath(location, service) + "/waitlist?" +
		url.Values{"provider": {strconv.FormatInt(provider, 10)}, "start": {start.Format(time.RFC3339)}}.Encode()
}

// showWaitlistForm is the form to join a full session's waitlist. A session with a seat again
// sends the visitor to the booking form; one that is not offered any more, to the day's times.
func (s *Site) showWaitlistForm(w http.ResponseWriter, r *http.Request) {
	st, err := s.detailsStep(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	start, err := time.Parse(time.RFC3339, r.URL.Query().Get("start"))
	if err != nil || !st.svc.class() || st.provider == 0 {
		http.Redirect(w, r, timesPath(st.loc.id, st.svc.id, 0, nil), http.StatusFound)
		return
	}
	providers, a, err := s.offered(r.Context(), st.slots(), start, s.now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(providers) > 0 {
		http.Redirect(w, r, servicePath(st.loc.id, st.svc.id)+"/details?"+r.URL.RawQuery, http.StatusFound)
		return
	}
	if a.session(st.provider, start) == nil {
		day := booking.DateOf(start.In(st.loc.zone)).String()
		http.Redirect(w, r, timesPath(st.loc.id, st.svc.id, 0, url.Values{"date": {day}, "gone": {"1"}}), http.StatusFound)
		return
	}
	v, open, err := s.waitlistView(r, st, ui.NewForm(nil), start)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !open {
		s.renderClosed(w, r, st, start, http.StatusOK)
		return
	}
	s.render(w, r, http.StatusOK, ui.SiteDetails(s.waitlistPage(r, st), v))
}

// renderClassFull answers a booking whose session filled up while the visitor typed: 409, the
// same details turned into the session's waitlist form, and the sessions of that day that still
// have a seat. Never an error page.
func (s *Site) renderClassFull(w http.ResponseWriter, r *http.Request, st step, form *ui.Form, start time.Time) {
	v, open, err := s.waitlistView(r, st, form, start)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !open {
		s.renderClosed(w, r, st, start, http.StatusConflict)
		return
	}
	v.Full = true
	v.Sessions = s.otherSessions(r, st, start)
	s.render(w, r, http.StatusConflict, ui.SiteDetails(s.waitlistPage(r, st), v))
}

// renderClosed says that a full session's waitlist is closed (inside the owner's cut-off) and
// leads to the other sessions.
func (s *Site) renderClosed(w http.ResponseWriter, r *http.Request, st step, start time.Time, status int) {
	p := i18n.From(r.Context())
	page := s.page(r, p.T("site.classes.full_title"))
	day := booking.DateOf(start.In(st.loc.zone)).String()
	v := ui.SiteMessageView{
		Message: p.T("site.waitlist.closed"), Link: timesPath(st.loc.id, st.svc.id, 0, url.Values{"date": {day}}),
		LinkText: p.T("site.classes.other_days"),
	}
	s.render(w, r, status, ui.SiteMessage(page, v))
}

// waitlistView is the details form in waitlist mode, and whether the waitlist is still open.
func (s *Site) waitlistView(r *http.Request, st step, form *ui.Form, start time.Time) (ui.SiteDetailsView, bool, error) {
	p := i18n.From(r.Context())
	settings, err := booking.GetClassSettings(r.Context(), s.db.R)
	if err != nil {
		return ui.SiteDetailsView{}, false, err
	}
	open := s.now().Before(start.Add(-settings.WaitlistCutoff))
	v := s.detailsView(r, st, form)
	v.Waitlist = true
	v.Action = servicePath(st.loc.id, st.svc.id) + "/waitlist"
	v.Start = start.Format(time.RFC3339)
	v.Summary.When = when(p, start.In(st.loc.zone))
	v.Summary.Seats = p.T("site.classes.no_seats")
	v.PayNote, v.TopTarget, v.PackNote = "", false, ""
	if settings.WaitlistCutoff > 0 {
		v.WaitNote = p.T("site.waitlist.how", "duration", duration(p, int64(settings.WaitlistCutoff/time.Minute)))
	} else {
		v.WaitNote = p.T("site.waitlist.how_start")
	}
	day := booking.DateOf(start.In(st.loc.zone))
	v.TimesURL = timesPath(st.loc.id, st.svc.id, 0, url.Values{"date": {day.String()}})
	return v, open, nil
}

func (s *Site) waitlistPage(r *http.Request, st step) ui.SitePage {
	page := s.page(r, i18n.T(r.Context(), "site.waitlist.title"))
	page.Back = timesPath(st.loc.id, st.svc.id, 0, nil)
	return page
}

// otherSessions are the sessions of start's day with a seat left, as links to book them.
func (s *Site) otherSessions(r *http.Request, st step, start time.Time) []ui.SiteTime {
	day := booking.DateOf(start.In(st.loc.zone))
	sq := st.slots()
	sq.provider, sq.full = 0, false
	a, err := s.availableOn(r.Context(), sq, day, day, s.now())
	if err != nil {
		s.log.ErrorContext(r.Context(), "booking site: other sessions", slog.Any("err", err))
		return nil
	}
	base := servicePath(st.loc.id, st.svc.id)
	return timeViews(i18n.From(r.Context()), a.instants(day), func(in instant) string { return sessionLink(base, 0, in) })
}

// joinWaitlist is the POST of the waitlist form: it checks the details as a booking does, then
// in one transaction matches or creates the client, joins the session's waitlist and makes the
// visitor's personal link — or writes nothing. A form submitted again finds its entry.
func (s *Site) joinWaitlist(w http.ResponseWriter, r *http.Request) {
	st, form, ok := s.postedDetails(w, r, "nobody joined")
	if !ok {
		return
	}
	nonce := form.Get("nonce")
	start, startErr := time.Parse(time.RFC3339, form.Get("start"))
	if !validNonce(nonce) || startErr != nil || !st.svc.class() || st.provider == 0 {
		s.renderError(w, r, errUnreadable)
		return
	}
	p := i18n.From(r.Context())
	in := s.readDetails(r, st, form)
	again := func(status int) {
		v, _, err := s.waitlistView(r, st, form, start)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		s.render(w, r, status, ui.SiteDetails(s.waitlistPage(r, st), v))
	}
	if !form.OK() {
		again(http.StatusUnprocessableEntity)
		return
	}
	token, err := s.join(r.Context(), st, start, in, nonce)
	var fields clients.Errors
	var inv *booking.InvalidError
	var nf *booking.NotFoundError
	switch {
	case err == nil:
		seeOther(w, r, waitlistPathPrefix+token+"?done=joined")
	case errors.As(err, &fields):
		s.clientErrors(p, form, fields)
		again(http.StatusUnprocessableEntity)
	case errors.Is(err, booking.ErrSeatsAvailable):
		// A seat freed with nobody waiting: the same details, as a booking of it.
		v := s.detailsView(r, st, form)
		v.Start = start.Format(time.RFC3339)
		v.Summary.When = when(p, start.In(st.loc.zone))
		v.Notice = p.T("site.waitlist.seat_free")
		s.render(w, r, http.StatusConflict, ui.SiteDetails(s.detailsPage(r, st), v))
	case errors.As(err, &inv) && inv.Field == "client_id":
		form.Message = p.T("site.waitlist.already")
		again(http.StatusUnprocessableEntity)
	case errors.As(err, &inv) && inv.Msg.Key == "classes.error.waitlist_closed":
		s.renderClosed(w, r, st, start, http.StatusUnprocessableEntity)
	case errors.As(err, &inv), errors.As(err, &nf):
		day := booking.DateOf(start.In(st.loc.zone)).String()
		seeOther(w, r, timesPath(st.loc.id, st.svc.id, 0, url.Values{"date": {day}, "gone": {"1"}}))
	default:
		s.renderError(w, r, err)
	}
}

// join writes the visitor's place on the waitlist and their link in one transaction.
func (s *Site) join(ctx context.Context, st step, start time.Time, in clients.Input, nonce string) (string, error) {
	now := s.now()
	nonceHash := managelink.Hash(nonce)
	var token string
	err := s.db.InTx(ctx, func(q *db.Queries) error {
		entry, err := q.SiteWaitlistByNonce(ctx, nonceHash)
		switch {
		case err == nil: // the same form again: a new link to the place it took
			token, err = newWaitlistLink(ctx, q, entry, nil, now)
			return err
		case !db.IsNotFound(err):
			return err
		}
		jctx := db.WithTx(ctx, q) // the client and the join commit with the link
		clientID, err := clients.FindOrCreate(jctx, s.db, now, in)
		if err != nil {
			return err
		}
		v, err := booking.JoinWaitlist(jctx, s.db, now, booking.JoinRequest{
			LocationID: st.loc.id, ServiceID: st.svc.id, ProviderID: st.provider, Start: start,
			ClientID: clientID, Source: booking.SourceOnline,
		})
		if err != nil {
			return err
		}
		token, err = newWaitlistLink(ctx, q, v.Entry.ID, nonceHash, now)
		return err
	})
	return token, err
}

// newWaitlistLink stores a personal link to entry (only its hash) and returns its token: 32
// random bytes in base64url, unguessable like a manage link's.
func newWaitlistLink(ctx context.Context, q *db.Queries, entry int64, nonceHash []byte, now time.Time) (string, error) {
	var raw [32]byte
	rand.Read(raw[:]) // never fails (crypto/rand)
	token := base64.RawURLEncoding.EncodeToString(raw[:])
	err := q.InsertSiteWaitlistLink(ctx, db.InsertSiteWaitlistLinkParams{
		EntryID: entry, TokenHash: managelink.Hash(token), NonceHash: nonceHash, CreatedAt: db.Millis(now),
	})
	return token, err
}

// loadEntry reads the waitlist entry of the request's token. A malformed, unknown or expired
// token (a day after the session ends, as for manage links) is the plain 404.
func (s *Site) loadEntry(r *http.Request) (string, booking.WaitlistView, error) {
	token := chi.URLParam(r, "token")
	if len(token) != 43 {
		return "", booking.WaitlistView{}, errNotFound
	}
	if _, err := base64.RawURLEncoding.DecodeString(token); err != nil {
		return "", booking.WaitlistView{}, errNotFound
	}
	row, err := s.db.R.SiteWaitlistLink(r.Context(), managelink.Hash(token))
	if db.IsNotFound(err) || err == nil && !s.now().Before(db.Time(row.EndAt).Add(managelink.Grace)) {
		return "", booking.WaitlistView{}, errNotFound
	}
	if err != nil {
		return "", booking.WaitlistView{}, err
	}
	v, err := booking.GetWaitlistEntry(r.Context(), s.db.R, row.EntryID)
	return token, v, err
}

// showWaitlistEntry is the page behind a waitlist link: the session, the place in the queue
// while waiting, and what became of it otherwise.
func (s *Site) showWaitlistEntry(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	token, e, err := s.loadEntry(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	summary, start, err := s.waitlistSummary(r, e)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	v := ui.SiteWaitlistView{Summary: summary, Status: e.Entry.Status}
	switch e.Entry.Status {
	case booking.WaitlistWaiting:
		v.StatusMsg = p.T("site.waitlist.status.waiting")
		v.Position = p.T("site.waitlist.position", "count", e.Position)
		if s.now().Before(start) {
			v.LeaveURL = waitlistPathPrefix + token + "/leave" // a page that asks first
		}
	case booking.WaitlistBooked:
		v.StatusMsg = p.T("site.waitlist.status.booked")
		v.BookingURL = waitlistPathPrefix + token + "/booking"
	case booking.WaitlistLeft:
		v.StatusMsg = p.T("site.waitlist.status.left")
	default:
		v.StatusMsg = p.T("site.waitlist.status.skipped")
	}
	switch r.URL.Query().Get("done") {
	case "joined":
		v.Message = p.T("site.waitlist.joined")
		v.LinkURL = s.links.URL(waitlistPathPrefix+token, nil)
	case "left":
		v.Message = p.T("site.waitlist.left_now")
	}
	s.render(w, r, http.StatusOK, ui.SiteWaitlist(s.page(r, p.T("site.waitlist.place_title")), v))
}

// waitlistSummary is the session of a waitlist entry as its pages show it, and its start.
func (s *Site) waitlistSummary(r *http.Request, e booking.WaitlistView) (ui.SiteSummary, time.Time, error) {
	sess, err := s.db.R.SiteWaitlistSession(r.Context(), e.Entry.SessionID)
	if err != nil {
		return ui.SiteSummary{}, time.Time{}, err
	}
	zone, err := booking.LoadZone(sess.Timezone)
	if err != nil {
		return ui.SiteSummary{}, time.Time{}, err
	}
	p := i18n.From(r.Context())
	start := db.Time(sess.StartAt).In(zone)
	return ui.SiteSummary{
		Service: sess.ServiceName, Provider: sess.ProviderName, Location: sess.LocationName, Address: Address(sess.AddressJSON),
		When: when(p, start), Duration: duration(p, (sess.EndAt-sess.StartAt)/60000),
	}, start, nil
}

// confirmLeave asks before a place on the waitlist is given up: a place left cannot be had back
// (joining again goes to the end of the queue). Nothing to leave any more: the waitlist page.
func (s *Site) confirmLeave(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	token, e, err := s.loadEntry(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	summary, start, err := s.waitlistSummary(r, e)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if e.Entry.Status != booking.WaitlistWaiting || !s.now().Before(start) {
		http.Redirect(w, r, waitlistPathPrefix+token, http.StatusFound)
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteLeaveView{
		Summary: summary, Position: p.T("site.waitlist.position", "count", e.Position),
		Question: p.T("site.waitlist.leave_question", "when", summary.When),
		Action:   waitlistPathPrefix + token + "/leave", Back: waitlistPathPrefix + token,
	}
	page := s.page(r, p.T("site.waitlist.leave_title"))
	page.Back = v.Back
	s.render(w, r, http.StatusOK, ui.SiteWaitlistLeave(page, v))
}

// leaveWaitlist takes the visitor off the list (booking.LeaveWaitlist: leaving twice, or after
// a seat came, changes nothing) — only from the confirmation's form: a POST without its answer
// is shown the question.
func (s *Site) leaveWaitlist(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	token, e, err := s.loadEntry(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if r.PostFormValue("confirm") != "1" {
		seeOther(w, r, waitlistPathPrefix+token+"/leave")
		return
	}
	if err := booking.LeaveWaitlist(r.Context(), s.db, s.now(), e.Entry.ID); err != nil {
		s.renderError(w, r, err)
		return
	}
	seeOther(w, r, waitlistPathPrefix+token+"?done=left")
}

// openBooking leads from a place that got a seat to the booking's manage page, through a new
// manage link made now (tokens are stored hashed, so an existing one cannot be shown again).
// It is a POST because it writes the link.
func (s *Site) openBooking(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	_, e, err := s.loadEntry(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if e.Entry.Status != booking.WaitlistBooked || !e.Entry.BookingID.Valid {
		s.renderError(w, r, errNotFound)
		return
	}
	var token string
	err = s.db.InTx(r.Context(), func(q *db.Queries) error {
		var err error
		token, err = managelink.New(r.Context(), q, e.Entry.BookingID.Int64, s.now())
		return err
	})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	seeOther(w, r, managelink.Path(token))
}
