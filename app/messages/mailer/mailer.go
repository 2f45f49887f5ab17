// Package mailer sends the customer messages app/messages writes (docs/messages.md): the
// dispatcher on the durable queue webhooks share (app/queue, dispatch.go), SMTP through go-mail
// on connections kept open between messages (smtp.go, conns.go, compose.go), and the
// Prometheus metrics (metrics.go). What a message says, and whether it still should be sent, is
// asked of app/messages when it is sent (messages.Service.Prepare).
package mailer

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/app/messages"
	"frontdesk/app/queue"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Options configure a Mailer; the zero value of each field is the production default.
type Options struct {
	// Messages configures the messages.Service the Mailer sends for (its TransportSaved is
	// the Mailer's own).
	Messages messages.Options
	Schedule queue.Schedule // the retry schedule; nil: DefaultSchedule
	Timeout  time.Duration  // one attempt; <= 0: DefaultTimeout
	// Workers is how many messages are sent at once (connections to the mail server); < 1:
	// DefaultWorkers.
	Workers    int
	Registerer prometheus.Registerer // nil: the metrics are kept but not registered
	// Handoff, if set, is the database's (messages.NewHandoff): while the dispatcher runs,
	// messages due now are handed to it in memory instead of being claimed.
	Handoff *messages.Handoff
}

// DefaultWorkers is how many messages go out at once by default. Each attempt is a few round
// trips to the mail server on a kept connection; with two, a busy day's confirmations and
// notices (bench day_in_the_life: about 150 a second on two shared cores) waited half a second
// and more for a free connection, while relays take several sessions of one sender at once.
const DefaultWorkers = 4

// DefaultTimeout bounds one attempt, from connecting to the server's answer to the message.
const DefaultTimeout = 30 * time.Second

// Mailer is customer messaging with a mail server behind it: the messages.Service (the owner's
// settings, templates, log and opt-outs, whose methods it has) and what sends — the
// dispatcher, a worker for serve, and the test email.
type Mailer struct {
	*messages.Service
	db       *db.DB
	now      func() time.Time
	log      *slog.Logger
	schedule queue.Schedule
	timeout  time.Duration
	metrics  *metrics
	disp     *dispatcher
	handoff  *messages.Handoff
}

// New returns the mailer over d.
func New(d *db.DB, o Options) *Mailer {
	m := &Mailer{db: d, now: o.Messages.Now, log: o.Messages.Log, schedule: o.Schedule, timeout: o.Timeout, handoff: o.Handoff}
	if m.now == nil {
		m.now = time.Now
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if len(m.schedule) == 0 {
		m.schedule = DefaultSchedule()
	}
	if m.timeout <= 0 {
		m.timeout = DefaultTimeout
	}
	workers := o.Workers
	if workers < 1 {
		workers = DefaultWorkers
	}
	o.Messages.TransportSaved = func() { m.disp.q.Kick() }
	m.Service = messages.New(d, o.Messages)
	m.metrics = newMetrics(d, o.Registerer)
	m.disp = newDispatcher(m, workers)
	return m
}

// Dispatcher is the background worker that sends due messages; Wake makes it look now (hook it
// to db.AfterCommit).
func (m *Mailer) Dispatcher() interface{ Run(context.Context) error } { return m.disp }

// Wake makes the dispatcher look at the outbox now.
func (m *Mailer) Wake() { m.disp.q.Wake() }

// SendTest sends a test email to address now, with the effective settings, and returns the
// server's answer. It does not go through the queue: the owner waits for the answer.
func (m *Mailer) SendTest(ctx context.Context, address string) (string, error) {
	t, e, err := m.TestEmail(ctx, address)
	if err != nil {
		return "", err
	}
	return m.send(ctx, t, e, nil)
}

// SendNotice sends an email to one person of the staff now (messages.Service.NoticeEmail),
// and returns the server's answer.
func (m *Mailer) SendNotice(ctx context.Context, address string, content func(p *i18n.Printer, business string) (subject, text string)) (string, error) {
	t, e, err := m.NoticeEmail(ctx, address, content)
	if err != nil {
		return "", err
	}
	return m.send(ctx, t, e, nil)
}

// send delivers one envelope through t: on one of conns' kept connections, or with conns nil
// on a connection of its own (a test email, which checks the settings from the handshake on).
func (m *Mailer) send(ctx context.Context, t messages.Transport, e messages.Envelope, conns *smtpConns) (string, error) {
	msg, err := compose(e)
	if err != nil {
		return "", err
	}
	if conns != nil {
		return conns.deliver(ctx, t, msg, m.timeout)
	}
	return deliver(ctx, t, msg, m.timeout)
}
