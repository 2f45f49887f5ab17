// Package messages is customer email's outbox and the owner's side of it (docs/messages.md):
// rows written in the transaction of the change (enqueue.go: the booking, waitlist and payment
// plans, called by booking and payments), the owner's templates in a safe language over a
// fixed set of fields (template.go, eval.go, fields.go), settings, the log and the opt-out
// (settings.go, log.go, unsubscribe.go), and what a message says when it is sent (Prepare, read
// from the booking as it is then). It sends nothing and needs no mail library: the dispatcher,
// SMTP through go-mail and the metrics are app/messages/mailer, which imports this package,
// never the other way round (docs/ARCHITECTURE.md, "Layers").
package messages

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"frontdesk/app/feepolicy"
	"frontdesk/app/ical"
	"frontdesk/app/locale"
	"frontdesk/app/managelink"
	"frontdesk/app/queue"
	"frontdesk/app/secrets"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Links builds absolute links from the configured public URL (package links); nil leaves links
// out of messages (the unsubscribe link, and with it List-Unsubscribe).
type Links interface {
	URL(path string, query url.Values) string
}

// Options configure a Service; the zero value of each field is the production default.
type Options struct {
	Now      func() time.Time
	Log      *slog.Logger
	Secrets  *secrets.Box // seals the SMTP password; nil: passwords cannot be stored
	Override Override     // serve --smtp-url / --mail-from
	Links    Links
	// Retention is how long the log is kept; <= 0: 30 days.
	Retention time.Duration
	// TransportSaved, if set, is called after the mail server or sender was saved: the mailer's
	// dispatcher looks again at once, as messages that waited for a mail server may go now.
	TransportSaved func()
	// TwilioAPI is the base URL of Twilio's REST API; "": TwilioAPI (serve --twilio-api-url,
	// for a proxy or a test receiver).
	TwilioAPI string
	// WhatsAppAPI is the base URL of the Graph API; "": WhatsAppAPI (serve --whatsapp-api-url).
	WhatsAppAPI string
}

// Service is customer messaging for one database without the sending: the owner's operations
// for the admin UI and the CLI, the pruner (a worker for serve), and Prepare, which the
// mailer's dispatcher asks what to send.
type Service struct {
	db        *db.DB
	now       func() time.Time
	log       *slog.Logger
	box       *secrets.Box
	override  Override
	links     Links
	retention time.Duration
	// transportSaved is Options.TransportSaved.
	transportSaved func()
	twilioBase     string
	whatsAppBase   string
	textCap        textCap // the daily cap's count (policy.go)
}

// New returns the messaging service over d.
func New(d *db.DB, o Options) *Service {
	s := &Service{db: d, now: o.Now, log: o.Log, box: o.Secrets, override: o.Override, links: o.Links,
		retention: o.Retention, transportSaved: o.TransportSaved, twilioBase: o.TwilioAPI,
		whatsAppBase: o.WhatsAppAPI}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.retention <= 0 {
		s.retention = 30 * 24 * time.Hour
	}
	return s
}

// Pruner is the background worker that deletes the message log past its retention.
func (s *Service) Pruner() *queue.Pruner {
	return queue.NewPruner(s.db, "message", s.retention, []queue.PruneStep{
		{Name: "messages", Run: func(ctx context.Context, q *db.Queries, before, lim int64) (int64, error) {
			return q.PruneMessages(ctx, db.PruneMessagesParams{Before: before, Lim: lim})
		}},
		{Name: "attempts", Run: func(ctx context.Context, q *db.Queries, before, lim int64) (int64, error) {
			return q.PruneMessageAttempts(ctx, db.PruneMessageAttemptsParams{Before: before, Lim: lim})
		}},
	}, s.log, s.now)
}

// Overridden reports what serve's flags set, for the settings page.
func (s *Service) Overridden() Override { return s.override }

// purpose of the sealed SMTP password (app/secrets).
const passwordPurpose = "smtp_password"

// Transport is the effective mail server and sender: the stored settings under serve's flags.
// cache keeps opened passwords by their sealed value (nil: none kept).
func (s *Service) Transport(ctx context.Context, q *db.Queries, cache map[string]string) (Transport, error) {
	row, err := q.MessageTransportSettings(ctx)
	if err != nil {
		return Transport{}, err
	}
	t := Transport{Host: row.SmtpHost, Port: int(row.SmtpPort), Security: row.SmtpSecurity, Username: row.SmtpUsername,
		From: fromAddress(row.FromName, row.FromAddress), ReplyTo: row.ReplyTo, ownerCopy: row.OwnerAddress}
	if row.SmtpPasswordSealed != "" && s.override.Server == nil {
		pw, ok := cache[row.SmtpPasswordSealed]
		if !ok {
			if s.box == nil {
				return Transport{}, fmt.Errorf("the SMTP password is stored sealed but no key was given")
			}
			if pw, err = s.box.Open(passwordPurpose, row.SmtpPasswordSealed); err != nil {
				return Transport{}, fmt.Errorf("SMTP password: %w", err)
			}
			if cache != nil {
				cache[row.SmtpPasswordSealed] = pw
			}
		}
		t.Password = pw
	}
	return s.override.apply(t), nil
}

// Prepared is a message ready to go, or the reason it should not.
type Prepared struct {
	Envelope   Envelope
	Skip       string // not empty: not to be sent, and why
	BadAddress string // not empty: the recipient's address is unusable, and why
	About      About  // what the message is, for the log; zero when it could not be read
	// Wait, when set, is when the message is to be looked at again, with no attempt made (a
	// text in quiet hours, or over the daily cap with no email to carry it); WaitNote says why.
	Wait     time.Time
	WaitNote string
	// Policy names the rule that sent a client's text by email instead (Policy* constants).
	Policy string
	// A text's parts and estimated cost (thousandths of a hundredth, TextCost), the day it was
	// counted against the daily cap on (ReleaseText gives the place back when the provider does
	// not take it), and the month of the business's zone it counts in.
	Segments  int
	CostMilli int64
	CapDay    string
	Month     string
}

// About is what the log says a message is: its kind, who it is for, and what it is about.
type About struct {
	Kind           Kind
	Recipient      string // ToClient or ToOwner
	Booking        int64  // 0: none
	PaymentRequest int64  // 0: none
}

func aboutOf(m db.Message) About {
	return About{Kind: Kind(m.Kind), Recipient: m.Recipient, Booking: m.BookingID.Int64, PaymentRequest: m.PaymentRequestID.Int64}
}

// Prepare reads message id and what it is about as they are now, and renders it for its
// recipient in the business's language, to leave through t — or says why it must not be sent.
func (s *Service) Prepare(ctx context.Context, id int64, t Transport, now time.Time) (Prepared, error) {
	readAs := func(force string) (reading, error) {
		var r reading
		err := s.db.ReadTx(ctx, func(q *db.Queries) error {
			var err error
			r, err = s.read(ctx, q, id, t, now, force)
			return err
		})
		return r, err
	}
	r, err := readAs("")
	if err != nil {
		return Prepared{}, err
	}
	var capDay string
	if r.done == nil && TextChannel(r.channel) && r.kind != Reply {
		// The daily cap: a place is taken now, before the provider is asked.
		day, ok, err := s.textCap.reserve(now, r.bizZone, r.policy.DailyCap, func(from, to time.Time) (int, error) {
			n, err := s.db.R.CountTextsSent(ctx, db.CountTextsSentParams{FromAt: db.Millis(from), ToAt: db.Millis(to)})
			return int(n), err
		})
		if err != nil {
			return Prepared{}, err
		}
		if ok {
			capDay = day
		} else if r, err = readAs(PolicyCapEmail); err != nil {
			return Prepared{}, err
		}
	}
	ab := aboutOf(r.msg)
	if r.done != nil {
		p := *r.done
		p.About, p.Policy = ab, r.policy.reason
		return p, nil
	}
	month := now.In(r.bizZone).Format("2006-01")
	// Writes and the other reads come after the snapshot is let go: the read pool is small, and
	// a sender holding a connection while it waits for the writer would starve the requests.
	a := r.facts
	if TextChannel(r.channel) {
		p, err := s.prepareText(ctx, r, ab, now)
		if err != nil {
			s.textCap.release(capDay)
			return p, err
		}
		p.CapDay, p.Month = capDay, month
		return p, nil
	}
	if r.kind == Reminder && r.msg.Recipient == ToClient && s.links != nil {
		a.unsubscribe = s.UnsubscribeURL(ctx, a.clientID)
	}
	// The client's emails about a booking carry a personal manage link to the booking site,
	// made for this email (app/managelink).
	if a.HasAppointment && r.msg.Recipient == ToClient && r.kind != Cancelled && r.kind != WaitlistOffer && s.links != nil {
		if a.ManageLink, err = s.manageLink(ctx, a.ID, now); err != nil {
			return Prepared{About: ab}, err
		}
	}
	content, err := render(r.tpl, fields(r.printer, r.biz.Name, a.appointment), r.biz.Name)
	if err != nil {
		return Prepared{About: ab}, err
	}
	if len(a.visit) > 0 {
		if content, err = withVisit(r.printer, content, a.visit, zoneOr(a.Zone), r.biz.Name); err != nil {
			return Prepared{About: ab}, err
		}
	}
	if len(a.series) > 0 {
		if content, err = withSeries(r.printer, content, a.series, zoneOr(a.Zone), r.biz.Name); err != nil {
			return Prepared{About: ab}, err
		}
	}
	if a.unsubscribe != "" {
		if content, err = withUnsubscribe(r.printer, content, a.unsubscribe, r.biz.Name); err != nil {
			return Prepared{About: ab}, err
		}
	}
	domain := messageIDDomain(t.From)
	env := Envelope{From: t.From, ReplyTo: t.ReplyTo, To: r.to, MessageID: r.msg.MessageKey + "@" + domain, Date: now,
		Content: content, Unsubscribe: a.unsubscribe, Channel: ChannelEmail}
	if r.calendar {
		d := detailOf(r.msg.DetailJson)
		env.ICS = ical.Calendar(ical.Event{
			// The UID the booking site's download uses too: one calendar entry per booking.
			UID: ical.UID(a.ID, r.calendarID), Sequence: int(d.Sequence),
			Start: a.Start, End: a.End, Stamp: now, Summary: a.Service + " · " + r.biz.Name,
			Location: joinNonEmpty(a.Location, a.Address), Description: content.Subject,
			URL: a.ManageLink, Cancelled: r.kind == Cancelled,
		})
	}
	return Prepared{Envelope: env, About: ab, Policy: r.policy.reason, Month: month}, nil
}

// ReleaseText gives back the daily cap's place taken for a text the provider did not take.
func (s *Service) ReleaseText(day string) { s.textCap.release(day) }

// reading is what prepare reads in one snapshot: the message, what it is about, who it goes
// to, and the business's wording — or, in done, the outcome already (a skip, a bad address).
type reading struct {
	done       *Prepared
	msg        db.Message
	kind       Kind
	facts      facts
	biz        db.MessageBusinessRow
	to         mail.Address
	printer    *i18n.Printer
	tpl        Template
	calendar   bool // the email carries the appointment as an .ics
	calendarID string
	channel    string // ChannelEmail, or ChannelSMS: the short text in text
	text       string
	policy     readPolicy
	bizZone    *time.Location    // the business's zone: the cap's day, the counts' month
	whatsApp   *WhatsAppTemplate // ChannelWhatsApp: the template it goes as (text: the log's words)
}

// statePolicy writes the cancellation policy into a client's message about an appointment they
// keep (confirmation, reschedule, a seat from the waitlist, reminder) in r's language: what the
// booking site stated before they booked (feepolicy.Statement; nothing when no fee is charged).
func (r *reading) statePolicy(ctx context.Context, q *db.Queries) error {
	k := r.kind
	if !r.facts.HasAppointment || r.msg.Recipient != ToClient ||
		k != Confirmation && k != Rescheduled && k != WaitlistSeat && k != Reminder {
		return nil
	}
	pol, err := feepolicy.Load(ctx, q)
	if err != nil {
		return err
	}
	r.facts.Cancellation = pol.Statement(r.printer, r.facts.PriceCents)
	return nil
}

// readPolicy is what the owner's rules for texts said about a client's message.
type readPolicy struct {
	TextPolicy
	reason string    // the rule that sent it by email instead of a text (Policy*)
	wait   time.Time // when a text kept back waits until, should email not carry it either
	note   string    // why it waits
}

func (s *Service) read(ctx context.Context, q *db.Queries, id int64, t Transport, now time.Time, force string) (reading, error) {
	var r reading
	finished := func(p Prepared) (reading, error) { r.done = &p; return r, nil }
	m, err := q.GetMessageRow(ctx, id)
	if err != nil {
		return r, fmt.Errorf("message %d: %w", id, err)
	}
	r.msg, r.kind = m, Kind(m.Kind)
	if r.kind == Reply {
		return s.readReply(ctx, q, r, t)
	}
	a, to, skip, err := s.facts(ctx, q, m, r.kind, now)
	if err != nil {
		return r, err
	}
	if skip != "" {
		return finished(Prepared{Skip: skip})
	}
	r.facts = a
	if r.biz, err = q.MessageBusiness(ctx); err != nil {
		return r, err
	}
	r.channel = ChannelEmail
	if m.Recipient == ToClient {
		r.channel = channelFor(a.preferred, t.Text.Ready(), t.WhatsApp.Ready(), a.phone)
		if r.channel != ChannelEmail {
			// A number that answered STOP gets no texts (app/replies): its messages go by email.
			if out, err := q.TextOptedOut(ctx, a.phone); err != nil {
				return r, err
			} else if out {
				r.channel = ChannelEmail
			}
		}
	}
	r.bizZone = time.UTC
	if tz, err := q.BusinessTimezone(ctx); err == nil {
		if z, err := time.LoadLocation(tz); err == nil {
			r.bizZone = z
		}
	}
	if r.channel == ChannelWhatsApp {
		loc, err := locale.Load(ctx, q)
		if err != nil {
			return r, err
		}
		row, err := q.GetWhatsAppTemplate(ctx, db.GetWhatsAppTemplateParams{Kind: string(r.kind), Language: loc.Printer().Lang()})
		switch {
		case err == nil:
			tpl := templateOf(row)
			r.whatsApp = &tpl
		case db.IsNotFound(err):
			r.channel = ChannelEmail // no template for this kind in this language
		default:
			return r, err
		}
	}
	// The owner's rules for texts hold for SMS and WhatsApp alike: one cap, one quiet span,
	// one list of numbers texts may go to.
	if TextChannel(r.channel) {
		if r.policy, err = s.textRules(ctx, q, r.kind, a, now, r.bizZone, force); err != nil {
			return r, err
		}
		if r.policy.reason != "" {
			r.channel = ChannelEmail
		} else if !r.policy.wait.IsZero() {
			return finished(Prepared{Wait: r.policy.wait, WaitNote: r.policy.note})
		}
	}
	// A text the rules sent by email waits, rather than fails, when email cannot carry it.
	kept := func(p Prepared) (reading, error) {
		if !r.policy.wait.IsZero() {
			return finished(Prepared{Wait: r.policy.wait, WaitNote: r.policy.note})
		}
		return finished(p)
	}
	if TextChannel(r.channel) {
		loc, err := locale.Load(ctx, q)
		if err != nil {
			return r, err
		}
		r.printer = loc.Printer()
		if err := r.statePolicy(ctx, q); err != nil {
			return r, err
		}
		r.text, err = s.textTemplate(ctx, q, r.kind, r.printer)
		return r, err
	}
	if !t.Ready() {
		if !r.policy.wait.IsZero() {
			return kept(Prepared{})
		}
		// A text that falls back to email while email is not set up waits for it.
		return r, ErrNotSetUp
	}
	if m.Recipient == ToOwner {
		to = ownerAddress(t, r.biz.OwnerEmail)
	}
	if to.Address == "" {
		return kept(Prepared{Skip: "no email address"})
	}
	addr, err := ParseAddress(to.Address)
	if err != nil {
		return finished(Prepared{BadAddress: err.Error(), Envelope: Envelope{To: to}})
	}
	addr.Name = to.Name
	r.to = addr
	loc, err := locale.Load(ctx, q)
	if err != nil {
		return r, err
	}
	r.printer = loc.Printer()
	if r.tpl, err = s.template(ctx, q, r.kind, r.printer); err != nil {
		return r, err
	}
	k := r.kind
	if err := r.statePolicy(ctx, q); err != nil {
		return r, err
	}
	r.calendar = a.HasAppointment && (k == Confirmation || k == Rescheduled || k == Cancelled || k == WaitlistSeat)
	if r.calendar {
		site, err := q.SiteSettings(ctx)
		if err != nil {
			return r, err
		}
		r.calendarID = site.CalendarID
	}
	return r, nil
}

// template is the owner's wording of kind in p's language, or the catalog's.
func (s *Service) template(ctx context.Context, q *db.Queries, kind Kind, p *i18n.Printer) (Template, error) {
	row, err := q.GetMessageTemplate(ctx, db.GetMessageTemplateParams{Kind: string(kind), Language: p.Lang()})
	if db.IsNotFound(err) {
		return defaultTemplate(p, kind), nil
	}
	if err != nil {
		return Template{}, err
	}
	return Template{Subject: row.Subject, Body: row.Body}, nil
}

// ownerAddress is where owner copies go: the address set in Settings, else the first owner's.
func ownerAddress(t Transport, ownerEmail string) mail.Address {
	if t.ownerCopy != "" {
		return mail.Address{Address: t.ownerCopy}
	}
	return mail.Address{Address: ownerEmail}
}

func fromAddress(name, addr string) mail.Address { return mail.Address{Name: name, Address: addr} }

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ", " + b
}

// manageLink makes a personal manage link to booking id (app/managelink): a new token per email,
// so the link in one email can be told from another's, and it works as long as the booking site
// lets any link of the booking work.
func (s *Service) manageLink(ctx context.Context, bookingID int64, now time.Time) (string, error) {
	var token string
	err := s.db.InTx(ctx, func(q *db.Queries) error {
		var err error
		token, err = managelink.New(ctx, q, bookingID, now)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("manage link: %w", err)
	}
	return s.links.URL(managelink.Path(token), nil), nil
}

// prepareText renders a short text for message r: the same fields as the email, the manage
// link included (no calendar file, no unsubscribe link: a client who opted out of reminders
// gets no reminder texts either).
func (s *Service) prepareText(ctx context.Context, r reading, ab About, now time.Time) (Prepared, error) {
	a := r.facts
	if r.kind == Reply {
		return Prepared{Envelope: replyEnvelope(r, now), About: ab}, nil
	}
	var err error
	if a.HasAppointment && r.kind != Cancelled && r.kind != WaitlistOffer && s.links != nil {
		if a.ManageLink, err = s.manageLink(ctx, a.ID, now); err != nil {
			return Prepared{About: ab}, err
		}
	}
	f := fields(r.printer, r.biz.Name, a.appointment)
	text, err := renderText(r.text, f)
	if err != nil {
		return Prepared{About: ab}, err
	}
	env := Envelope{Channel: ChannelSMS, Phone: a.phone, Text: text, Date: now, MessageID: r.msg.MessageKey,
		To: mail.Address{Name: OneLine(strings.TrimSpace(a.ClientFirst + " " + a.ClientLast))}}
	if t := r.whatsApp; t != nil {
		// WhatsApp bills by conversation, not by segment: no segments or cost are estimated.
		wa := &WhatsAppMessage{Template: t.Name, Lang: t.Lang, Buttons: t.Buttons}
		for _, p := range t.Params {
			wa.Params = append(wa.Params, fieldValue(f, p))
		}
		env.Channel, env.WhatsApp = ChannelWhatsApp, wa
		return Prepared{Envelope: env, About: ab}, nil
	}
	seg := Segment(text).Segments
	return Prepared{Envelope: env, About: ab, Segments: seg, CostMilli: TextCost(seg, r.policy.PricePer1000)}, nil
}
