// Package messages sends customers their emails — booking confirmation (with the .ics),
// reschedule and cancel notices, reminders, payment requests and receipts — with the webhook
// engine's guarantees (docs/messages.md): rows written in the transaction of the change
// (enqueue.go), a durable queue shared with webhooks (app/queue, dispatch.go), SMTP through
// go-mail (transport.go, compose.go), the owner's templates in a safe language over a fixed set
// of fields (template.go, fields.go), and the owner's settings and log (settings.go, log.go).
package messages

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/prometheus"

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
	Schedule queue.Schedule // nil: DefaultSchedule
	Timeout  time.Duration  // one attempt; <= 0: DefaultTimeout
	// Workers is how many messages are sent at once (connections to the mail server); < 1: 2.
	Workers    int
	Retention  time.Duration // how long the log is kept; <= 0: 30 days
	Registerer prometheus.Registerer
}

// Service is customer messaging for one database: the dispatcher and pruner (workers for
// serve), and the owner's operations for the admin UI and the CLI.
type Service struct {
	db        *db.DB
	now       func() time.Time
	log       *slog.Logger
	box       *secrets.Box
	override  Override
	links     Links
	schedule  queue.Schedule
	timeout   time.Duration
	retention time.Duration
	metrics   *metrics
	disp      *dispatcher
}

// New returns the messaging service over d.
func New(d *db.DB, o Options) *Service {
	s := &Service{db: d, now: o.Now, log: o.Log, box: o.Secrets, override: o.Override, links: o.Links,
		schedule: o.Schedule, timeout: o.Timeout, retention: o.Retention}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if len(s.schedule) == 0 {
		s.schedule = DefaultSchedule()
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	if s.retention <= 0 {
		s.retention = 30 * 24 * time.Hour
	}
	workers := o.Workers
	if workers < 1 {
		workers = 2
	}
	s.metrics = newMetrics(d, o.Registerer)
	s.disp = newDispatcher(s, workers)
	return s
}

// Dispatcher is the background worker that sends due messages; Wake makes it look now (hook it
// to db.AfterCommit).
func (s *Service) Dispatcher() interface{ Run(context.Context) error } { return s.disp }

// Wake makes the dispatcher look at the outbox now.
func (s *Service) Wake() { s.disp.q.Wake() }

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

// transport is the effective mail server and sender: the stored settings under serve's flags.
// cache keeps opened passwords by their sealed value.
func (s *Service) transport(ctx context.Context, q *db.Queries, cache map[string]string) (Transport, error) {
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

// prepared is a message ready to go, or the reason it should not.
type prepared struct {
	env        envelope
	skip       string
	badAddress string
	about      about // what the message is, for the log; zero when it could not be read
}

// about is what the log says a message is: its kind, who it is for, and what it is about.
type about struct {
	kind           Kind
	recipient      string // ToClient or ToOwner
	booking        int64  // 0: none
	paymentRequest int64  // 0: none
}

func aboutOf(m db.Message) about {
	return about{kind: Kind(m.Kind), recipient: m.Recipient, booking: m.BookingID.Int64, paymentRequest: m.PaymentRequestID.Int64}
}

// prepare reads message id and what it is about as they are now, and renders it for its
// recipient in the business's language — or says why it must not be sent.
func (s *Service) prepare(ctx context.Context, id int64, t Transport, now time.Time) (prepared, error) {
	var r reading
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		r, err = s.read(ctx, q, id, t, now)
		return err
	})
	if err != nil {
		return prepared{}, err
	}
	ab := aboutOf(r.msg)
	if r.done != nil {
		p := *r.done
		p.about = ab
		return p, nil
	}
	// Writes and the other reads come after the snapshot is let go: the read pool is small, and
	// a sender holding a connection while it waits for the writer would starve the requests.
	a := r.facts
	if r.kind == Reminder && r.msg.Recipient == ToClient && s.links != nil {
		a.unsubscribe = s.UnsubscribeURL(ctx, a.clientID)
	}
	// Booking site (issue 11): the client's emails about a booking carry a personal manage link,
	// made for this email (app/managelink).
	if a.HasAppointment && r.msg.Recipient == ToClient && r.kind != Cancelled && s.links != nil {
		if a.ManageLink, err = s.manageLink(ctx, a.ID, now); err != nil {
			return prepared{about: ab}, err
		}
	}
	content, err := render(r.tpl, fields(r.printer, r.biz.Name, a.appointment), r.biz.Name)
	if err != nil {
		return prepared{about: ab}, err
	}
	if a.unsubscribe != "" {
		if content, err = withUnsubscribe(r.printer, content, a.unsubscribe, r.biz.Name); err != nil {
			return prepared{about: ab}, err
		}
	}
	domain := messageIDDomain(t.From)
	env := envelope{From: t.From, ReplyTo: t.ReplyTo, To: r.to, MessageID: r.msg.MessageKey + "@" + domain, Date: now,
		Content: content, Unsubscribe: a.unsubscribe}
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
	return prepared{env: env, about: ab}, nil
}

// reading is what prepare reads in one snapshot: the message, what it is about, who it goes
// to, and the business's wording — or, in done, the outcome already (a skip, a bad address).
type reading struct {
	done       *prepared
	msg        db.Message
	kind       Kind
	facts      facts
	biz        db.MessageBusinessRow
	to         mail.Address
	printer    *i18n.Printer
	tpl        Template
	calendar   bool // the email carries the appointment as an .ics
	calendarID string
}

func (s *Service) read(ctx context.Context, q *db.Queries, id int64, t Transport, now time.Time) (reading, error) {
	var r reading
	finished := func(p prepared) (reading, error) { r.done = &p; return r, nil }
	m, err := q.GetMessageRow(ctx, id)
	if err != nil {
		return r, fmt.Errorf("message %d: %w", id, err)
	}
	r.msg, r.kind = m, Kind(m.Kind)
	a, to, skip, err := s.facts(ctx, q, m, r.kind, now)
	if err != nil {
		return r, err
	}
	if skip != "" {
		return finished(prepared{skip: skip})
	}
	r.facts = a
	if r.biz, err = q.MessageBusiness(ctx); err != nil {
		return r, err
	}
	if m.Recipient == ToOwner {
		to = ownerAddress(t, r.biz.OwnerEmail)
	}
	if to.Address == "" {
		return finished(prepared{skip: "no email address"})
	}
	addr, err := ParseAddress(to.Address)
	if err != nil {
		return finished(prepared{badAddress: err.Error(), env: envelope{To: to}})
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

// send delivers one envelope through t: on one of conns' kept connections, or with conns nil
// on a connection of its own (a test email, which checks the settings from the handshake on).
func (s *Service) send(ctx context.Context, t Transport, e envelope, conns *smtpConns) (string, error) {
	m, err := compose(e)
	if err != nil {
		return "", err
	}
	if conns != nil {
		return conns.deliver(ctx, t, m, s.timeout)
	}
	return t.deliver(ctx, m, s.timeout)
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
