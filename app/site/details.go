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
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/catalog"
	"frontdesk/app/clients"
	"frontdesk/app/fail"
	"frontdesk/app/managelink"
	"frontdesk/app/messages"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// showDetails is step 5: who is booking, and the button that books. A time that is no longer
// offered sends the visitor back to the day's times with a word about it.
func (s *Site) showDetails(w http.ResponseWriter, r *http.Request) {
	st, err := s.detailsStep(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	start, err := time.Parse(time.RFC3339, r.URL.Query().Get("start"))
	if err != nil {
		http.Redirect(w, r, timesPath(st.loc.id, st.svc.id, st.provider, nil), http.StatusFound)
		return
	}
	providers, a, err := s.offered(r.Context(), st.slots(), start, s.now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if x := a.session(st.provider, start); len(providers) == 0 && x != nil && x.SeatsLeft == 0 {
		// Filled up since the list was shown: its waitlist, with the same details form.
		http.Redirect(w, r, waitlistPath(st.loc.id, st.svc.id, st.provider, start), http.StatusFound)
		return
	}
	if len(providers) == 0 {
		day := booking.DateOf(start.In(st.loc.zone)).String()
		http.Redirect(w, r, timesPath(st.loc.id, st.svc.id, st.provider, url.Values{"date": {day}, "gone": {"1"}}), http.StatusFound)
		return
	}
	form := ui.NewForm(nil)
	q := r.URL.Query()
	for _, name := range repeatFields {
		if x := q.Get(name); x != "" {
			form.Set(name, x)
		}
	}
	v := s.detailsView(r, st, form)
	v.Start = start.Format(time.RFC3339)
	v.Summary.When = when(i18n.From(r.Context()), start.In(st.loc.zone))
	if repeatOffered(r, st) {
		if form.Get("repeat") != "" {
			s.seriesDetails(r, st, form, &v, start)
		} else {
			v.RepeatURL = repeatPath(st, start, nil)
		}
	}
	if x := a.session(st.provider, start); x != nil {
		v.Summary.Seats = i18n.From(r.Context()).T("site.classes.seats_left", "count", x.SeatsLeft)
	}
	s.render(w, r, http.StatusOK, ui.SiteDetails(s.detailsPage(r, st), v))
}

// book is the POST of step 5: it checks the form, then books in one transaction (reserve.go)
// and sends the visitor to their booking's manage page — or, for a service paid online, to the
// checkout page. A repeated submit of the same form books once. A time taken meanwhile brings
// the form back with the times still free that day, never an error page.
func (s *Site) book(w http.ResponseWriter, r *http.Request) {
	st, form, ok := s.postedDetails(w, r, "nothing booked")
	if !ok {
		return
	}
	nonce := form.Get("nonce")
	if !validNonce(nonce) {
		s.renderError(w, r, errUnreadable)
		return
	}
	p := i18n.From(r.Context())
	now := s.now()
	in := s.readDetails(r, st, form)
	start, startErr := time.Parse(time.RFC3339, form.Get("start"))
	if startErr != nil {
		form.SetError("start", p.T("site.details.start.error"))
	}
	if form.Get("repeat") != "" && startErr == nil {
		s.bookSeries(w, r, st, form, in, start, nonce)
		return
	}
	if !form.OK() {
		s.renderDetailsAgain(w, r, st, form, http.StatusUnprocessableEntity, start, startErr == nil)
		return
	}
	// The read-side check: most losers of a race learn it here, without queueing for the
	// writer. The transaction checks again, and the database's trigger a third time. A form
	// submitted again skips it: its booking holds the time, and reserve finds that booking.
	if _, err := s.db.R.SiteBookingByNonce(r.Context(), managelink.Hash(nonce)); db.IsNotFound(err) {
		providers, a, err := s.offered(r.Context(), st.slots(), start, now)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		// A time gone may have gone to this very form, submitted twice at once and committed
		// between the two reads: then reserve finds its booking.
		if len(providers) == 0 && !s.nonceUsed(r, nonce) {
			if x := a.session(st.provider, start); x != nil && x.SeatsLeft == 0 {
				s.renderClassFull(w, r, st, form, start)
			} else {
				s.renderTaken(w, r, st, form, start)
			}
			return
		}
	} else if err != nil {
		s.renderError(w, r, err)
		return
	}
	res, err := s.reserve(r.Context(), reservation{
		loc: st.loc, svc: st.svc, provider: st.provider, start: start, client: in, nonce: nonce, channel: channelOf(form),
	}, now)
	var fields clients.Errors
	switch code := fail.CodeOf(err); {
	case errors.As(err, &fields):
		s.clientErrors(p, form, fields)
		s.renderDetailsAgain(w, r, st, form, http.StatusUnprocessableEntity, start, true)
		return
	case fail.Is(err, fail.CodeConflict, booking.ConflictClassFull): // the last seat went while the visitor typed
		s.renderClassFull(w, r, st, form, start)
		return
	case code == fail.CodeConflict || code == fail.CodeInvalid: // taken, or no longer offered
		s.renderTaken(w, r, st, form, start)
		return
	case err != nil:
		s.renderError(w, r, err)
		return
	}
	if res.Checkout != "" {
		seeOther(w, r, "/pay/"+res.Checkout+"?"+url.Values{"manage": {res.Token}}.Encode())
		return
	}
	seeOther(w, r, managelink.Path(res.Token)+"?done=booked")
}

// nonceUsed reports whether a booking was made with the form's nonce (read errors say no: the
// transaction checks again).
func (s *Site) nonceUsed(r *http.Request, nonce string) bool {
	_, err := s.db.R.SiteBookingByNonce(r.Context(), managelink.Hash(nonce))
	return err == nil
}

// step is what the URL of step 5 names: the location, service and provider (0: anyone).
type step struct {
	loc      *location
	svc      service
	provider int64
	name     string // the provider's name, "" for anyone
}

func (st step) slots() slotQuery {
	return slotQuery{loc: st.loc, service: st.svc.id, provider: st.provider, class: st.svc.class(), full: true}
}

// postedDetails reads the step and the posted details form of a booking or a waitlist join; a
// request it cannot take (a bad step, a filled honeypot) is answered here,
// logging what did not happen, and ok is false.
func (s *Site) postedDetails(w http.ResponseWriter, r *http.Request, notDone string) (st step, form *ui.Form, ok bool) {
	st, err := s.detailsStep(r)
	if err != nil {
		s.renderError(w, r, err)
		return st, nil, false
	}
	form = ui.NewForm(r.PostForm)  // read whole by readForm
	if form.Raw("website") != "" { // the honeypot: people never see it, form-filling robots do
		s.log.WarnContext(r.Context(), "booking site: honeypot filled, "+notDone, slog.String("client", s.clientIP(r)))
		s.renderError(w, r, errRefused)
		return st, nil, false
	}
	return st, form, true
}

func (s *Site) detailsStep(r *http.Request) (step, error) {
	loc, svc, err := s.serviceParam(r)
	if err != nil {
		return step{}, err
	}
	provider, name, err := s.providerParam(r, loc, svc)
	if err != nil {
		return step{}, err
	}
	return step{loc: loc, svc: svc, provider: provider, name: name}, nil
}

// formProvider is the provider a request names: in the form of a POST, in the query otherwise.
func formProvider(r *http.Request) string {
	if r.Method == http.MethodPost {
		return r.PostFormValue("provider")
	}
	return r.URL.Query().Get("provider")
}

func (s *Site) detailsPage(r *http.Request, st step) ui.SitePage {
	page := s.page(r, i18n.T(r.Context(), "site.details.title"))
	page.Back = timesPath(st.loc.id, st.svc.id, st.provider, nil)
	return page
}

// detailsView is the form of step 5 with the business's questions and policy.
func (s *Site) detailsView(r *http.Request, st step, form *ui.Form) ui.SiteDetailsView {
	c := configFrom(r.Context())
	p := i18n.From(r.Context())
	nonce := form.Get("nonce")
	if !validNonce(nonce) {
		nonce = newNonce()
	}
	v := ui.SiteDetailsView{
		Summary:  s.summary(p, st.loc, st.svc, st.name),
		Action:   servicePath(st.loc.id, st.svc.id) + "/details",
		Form:     form,
		Policy:   c.settings.PolicyText,
		Nonce:    nonce,
		Provider: strconv.FormatInt(st.provider, 10),
		TimesURL: timesPath(st.loc.id, st.svc.id, st.provider, nil),
		PayNote:  payNote(p, st.svc),
	}
	v.TopTarget = v.PayNote != ""
	if pol, err := payments.LoadPolicy(r.Context(), s.db.R); err == nil {
		v.FeePolicy = pol.Statement(p, st.svc.priceCents)
	}
	if sms, wa := s.textsOn(r.Context()); sms || wa {
		v.Channels = []ui.Option{{Value: messages.ChannelEmail, Label: p.T("site.details.channel.email")}}
		if sms {
			v.Channels = append(v.Channels, ui.Option{Value: messages.ChannelSMS, Label: p.T("site.details.channel.sms")})
		}
		if wa {
			v.Channels = append(v.Channels, ui.Option{Value: messages.ChannelWhatsApp, Label: p.T("site.details.channel.whatsapp")})
		}
		if form.Get("message_channel") == "" {
			form.Set("message_channel", messages.ChannelEmail)
		}
	}
	if code := clients.CallingCode(st.loc.country); code != "" {
		country := catalog.CountryName(st.loc.country, p.Lang())
		if country == "" {
			country = st.loc.country
		}
		v.PhoneHint = p.T("site.details.phone_hint_local", "country", country, "code", code)
	} else {
		v.PhoneHint = p.T("site.details.phone_hint")
	}
	if st.svc.sessionCount > 1 {
		v.PackNote = p.T("site.pack.note", "count", st.svc.sessionCount)
	}
	for _, a := range c.attributes {
		sa := ui.SiteAttribute{Name: attrField(a.id), Label: a.name, Type: a.datatype, Hint: a.hint, Required: a.mandatory && a.datatype != clients.TypeBoolean}
		if a.datatype == clients.TypeCategoric {
			sa.Options = []ui.Option{{Value: "", Label: p.T("site.details.choose")}}
			for _, o := range a.options {
				sa.Options = append(sa.Options, ui.Option{Value: o, Label: o})
			}
		}
		v.Attributes = append(v.Attributes, sa)
	}
	return v
}

// renderDetailsAgain shows the form with its problems; the chosen time stays chosen.
func (s *Site) renderDetailsAgain(w http.ResponseWriter, r *http.Request, st step, form *ui.Form, status int, start time.Time, hasStart bool) {
	v := s.detailsView(r, st, form)
	if hasStart {
		v.Start = start.Format(time.RFC3339)
		v.Summary.When = when(i18n.From(r.Context()), start.In(st.loc.zone))
	} else {
		v.Taken = true // no time chosen: offer the day's times in the form
		v.Alternatives, v.Zone = s.alternatives(r, st, time.Time{})
	}
	s.render(w, r, status, ui.SiteDetails(s.detailsPage(r, st), v))
}

// renderTaken answers a booking whose time was taken meanwhile: 409, the form with everything
// the visitor typed, and the times still free that day to choose from.
func (s *Site) renderTaken(w http.ResponseWriter, r *http.Request, st step, form *ui.Form, start time.Time) {
	v := s.detailsView(r, st, form)
	v.Taken = true
	v.Alternatives, v.Zone = s.alternatives(r, st, start)
	day := booking.DateOf(start.In(st.loc.zone))
	v.TimesURL = timesPath(st.loc.id, st.svc.id, st.provider, url.Values{"date": {day.String()}})
	s.render(w, r, http.StatusConflict, ui.SiteDetails(s.detailsPage(r, st), v))
}

// alternatives are the times free on the day of start (today when start is zero), and the
// location's time on that day in words.
func (s *Site) alternatives(r *http.Request, st step, start time.Time) ([]ui.SiteTime, string) {
	now := s.now()
	if start.IsZero() {
		start = now
	}
	p := i18n.From(r.Context())
	day := booking.DateOf(start.In(st.loc.zone))
	zone := zoneLabel(p, st.loc.zone, day)
	a, err := s.availableOn(r.Context(), st.slots(), day, day, now)
	if err != nil {
		s.log.ErrorContext(r.Context(), "booking site: alternatives", slog.Any("err", err))
		return nil, zone
	}
	return timeViews(p, a.instants(day), func(instant) string { return "" }), zone
}

// readDetails reads the visitor's details into a client input and marks what is missing or
// malformed on the form. clients.Validate then checks it exactly as a new client would be
// checked, whether or not the visitor turns out to be a client already: the answer is the
// same either way, so it tells nobody who is one.
func (s *Site) readDetails(r *http.Request, st step, form *ui.Form) clients.Input {
	c := configFrom(r.Context())
	p := i18n.From(r.Context())
	in := clients.Input{}
	required := func(name string) string {
		v := form.Get(name)
		if v == "" {
			form.SetError(name, p.T("site.details.required"))
		}
		return v
	}
	in.FirstName = clients.Value(required("first_name"))
	in.LastName = clients.Value(required("last_name"))
	in.Email = clients.Value(strings.ToLower(required("email")))
	phone := required("phone")
	// "+56 9 8765-4321" → +56987654321; without "+", as dialled in the location's country:
	// "9 8765 4321" at a location in Chile → +56987654321. A number no phone can have is
	// refused with an example of the location's country (libphonenumber's rules).
	if phone != "" {
		e164, err := clients.ParsePhone(phone, st.loc.country)
		var pe *clients.PhoneError
		switch {
		case err == nil:
			phone = e164
		case errors.As(err, &pe) && pe.Example != "":
			form.SetError("phone", p.T("site.details.phone.example", "example", pe.Example))
		default:
			form.SetError("phone", p.T("site.details.phone.error"))
		}
	}
	in.Phone = clients.Value(phone)
	if channelOf(form) != messages.ChannelEmail && form.Error("phone") == "" && clients.TextableReason(phone) != "" {
		form.SetError("message_channel", p.T("site.details.channel.needs_mobile"))
	}
	for _, a := range c.attributes {
		name := attrField(a.id)
		raw := form.Get(name)
		switch {
		case a.datatype == clients.TypeBoolean:
			raw = strconv.FormatBool(form.Checked(name, "1"))
		case raw == "" && a.mandatory:
			form.SetError(name, p.T("site.details.required"))
			continue
		case raw == "":
			continue
		case a.datatype == clients.TypeDatetime:
			if t, err := time.ParseInLocation("2006-01-02T15:04", raw, st.loc.zone); err == nil {
				raw = t.Format(time.RFC3339)
			}
		case a.datatype == clients.TypeFloat:
			raw = p.DecimalInput(raw) // "1,5" as a Spanish visitor writes it
		}
		value := raw
		in.CustomAttributes = append(in.CustomAttributes, clients.AttributeValue{ID: a.id, Value: &value})
	}
	if err := clients.Validate(r.Context(), s.db.R, s.now(), in, clients.Options{}); err != nil {
		var fields clients.Errors
		if !errors.As(err, &fields) {
			s.log.ErrorContext(r.Context(), "booking site: validate client", slog.Any("err", err))
			form.Message = p.T("error.internal")
			return in
		}
		s.clientErrors(p, form, fields)
	}
	return in
}

// clientErrors puts the client rules' refusals on the form, in the visitor's language.
func (s *Site) clientErrors(p *i18n.Printer, form *ui.Form, fields clients.Errors) {
	for _, f := range fields {
		switch {
		case f.Field == "first_name" || f.Field == "last_name":
			form.SetError(f.Field, p.T("site.details.name.error"))
		case f.Field == "email":
			form.SetError(f.Field, p.T("site.details.email.error"))
		case f.Field == "phone":
			form.SetError(f.Field, p.T("site.details.phone.error"))
		case strings.HasPrefix(f.Field, "custom_attributes."):
			id, _ := strconv.ParseInt(strings.TrimPrefix(f.Field, "custom_attributes."), 10, 64)
			form.SetError(attrField(id), p.Msg(f.Msg))
		default:
			form.SetError("first_name", p.T("site.details.name.error"))
		}
	}
}

func attrField(id int64) string { return "attr_" + strconv.FormatInt(id, 10) }

// A form's nonce: 16 random bytes, 22 characters of base64url. The booking made with the form
// keeps its hash, so submitting the form again finds that booking instead of booking twice.
func newNonce() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func validNonce(s string) bool {
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(b) == 16
}

// textsOn reports whether an SMS provider is chosen, so the form asks how the visitor wants to
// hear about their booking (docs/messages.md, "Channels").
func (s *Site) textsOn(ctx context.Context) (sms, whatsApp bool) {
	t, err := s.db.R.MessageTextSettings(ctx)
	w, werr := s.db.R.MessageWhatsAppSettings(ctx)
	return err == nil && t.SmsProvider != messages.SMSNone, werr == nil && w.Enabled
}

// channelOf is the channel the visitor chose (email when the form did not ask or they chose
// nothing it offers).
func channelOf(form *ui.Form) string {
	if c := form.Get("message_channel"); messages.ValidClientChannel(c) {
		return c
	}
	return messages.ChannelEmail
}
