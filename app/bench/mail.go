package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"

	"frontdesk/db"
)

// mailSink is day_in_the_life's mail server: a real SMTP server on loopback
// (github.com/emersion/go-smtp) that takes every message the appliance sends its customers and
// counts it, so the mix pays for its confirmations, notices and their delivery log as a
// business with customer email does.
type mailSink struct {
	srv      *smtp.Server
	ln       net.Listener
	received atomic.Int64
}

func startMailSink() (*mailSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mail sink: %w", err)
	}
	m := &mailSink{ln: ln}
	m.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return sinkSession{m}, nil }))
	m.srv.Domain = "localhost"
	m.srv.ReadTimeout, m.srv.WriteTimeout = 10*time.Second, 10*time.Second
	go m.srv.Serve(ln)
	return m, nil
}

func (m *mailSink) port() int { return m.ln.Addr().(*net.TCPAddr).Port }

func (m *mailSink) stop() { m.srv.Close() }

type sinkSession struct{ m *mailSink }

func (sinkSession) Reset()                               {}
func (sinkSession) Logout() error                        { return nil }
func (sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s sinkSession) Data(r io.Reader) error {
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	s.m.received.Add(1)
	return nil
}

// customerMail points the appliance's customer messages at a mail sink for one scenario: the
// bench's clients get addresses, the mail server is the sink, and what earlier scenarios
// planned is skipped, so the scenario measures its own messages and not a backlog.
type customerMail struct {
	sink    *mailSink
	d       *db.DB
	afterID int64 // messages with a larger id are the scenario's
	saved   db.BenchMailServerRow
}

const benchMailNote = "frontdesk bench: outside day_in_the_life"

func sendCustomerMail(ctx context.Context, d *db.DB) (*customerMail, error) {
	sink, err := startMailSink()
	if err != nil {
		return nil, err
	}
	c := &customerMail{sink: sink, d: d}
	now := db.Millis(time.Now())
	err = d.InTx(ctx, func(q *db.Queries) error {
		var err error
		if c.afterID, err = q.BenchLastMessageID(ctx); err != nil {
			return err
		}
		if c.saved, err = q.BenchMailServer(ctx); err != nil {
			return err
		}
		if _, err := q.BenchSkipPendingMessages(ctx, db.BenchSkipPendingMessagesParams{Note: benchMailNote, Now: now}); err != nil {
			return err
		}
		if _, err := q.BenchGiveClientsAddresses(ctx); err != nil {
			return err
		}
		return q.BenchSetMailServer(ctx, db.BenchSetMailServerParams{SmtpHost: "127.0.0.1", SmtpPort: int64(sink.port()),
			SmtpSecurity: "off", FromAddress: "studio@example.com", Now: now})
	})
	if err != nil {
		sink.stop()
		return nil, fmt.Errorf("point customer messages at the mail sink: %w", err)
	}
	return c, nil
}

// stop puts the mail settings back and skips what is still planned, so later scenarios send
// nothing.
func (c *customerMail) stop(ctx context.Context) error {
	defer c.sink.stop()
	now := db.Millis(time.Now())
	return c.d.InTx(ctx, func(q *db.Queries) error {
		err := q.BenchSetMailServer(ctx, db.BenchSetMailServerParams{SmtpHost: c.saved.SmtpHost, SmtpPort: c.saved.SmtpPort,
			SmtpSecurity: c.saved.SmtpSecurity, FromAddress: c.saved.FromAddress, Now: now})
		if err != nil {
			return err
		}
		_, err = q.BenchSkipPendingMessages(ctx, db.BenchSkipPendingMessagesParams{Note: benchMailNote, Now: now})
		return err
	})
}

// mailFigures is what became of the messages a scenario planned that were due by its end.
type mailFigures struct {
	sent, skipped, failed, pending int64
	received                       int64 // by the sink
	lagP50, lagP99                 float64
	// firstP50, firstP99: from being planned to the start of the first attempt (the time the
	// message waited for the dispatcher); sendP50: how long a first attempt took.
	firstP50, firstP99, sendP50 float64
}

// await waits, up to wait, until nothing the scenario planned and due by until is still
// pending, and reads the outcome. A sent message's lag is from being planned (its booking's
// commit) to being recorded as accepted by the sink.
func (c *customerMail) await(ctx context.Context, until time.Time, wait time.Duration) (mailFigures, error) {
	var f mailFigures
	due := db.Millis(until)
	for deadline := time.Now().Add(wait); ; {
		var err error
		if f.pending, err = c.d.R.BenchPendingMessages(ctx, db.BenchPendingMessagesParams{AfterID: c.afterID, Until: due}); err != nil {
			return f, err
		}
		if f.pending == 0 || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return f, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	rows, err := c.d.R.BenchMessageOutcomes(ctx, db.BenchMessageOutcomesParams{AfterID: c.afterID, Until: due})
	if err != nil {
		return f, err
	}
	var lags []time.Duration
	for _, r := range rows {
		switch r.State {
		case "sent":
			f.sent++
			lags = append(lags, time.Duration(r.LagMs)*time.Millisecond)
		case "skipped":
			f.skipped++
		default:
			f.failed++
		}
	}
	f.received = c.sink.received.Load()
	f.lagP50, f.lagP99 = lagPercentiles(lags)
	firsts, err := c.d.R.BenchMessageFirstAttempts(ctx, db.BenchMessageFirstAttemptsParams{AfterID: c.afterID, Until: due})
	if err != nil {
		return f, err
	}
	var waited, took []time.Duration
	for _, r := range firsts {
		waited = append(waited, time.Duration(r.LagMs)*time.Millisecond)
		took = append(took, time.Duration(r.DurationMs)*time.Millisecond)
	}
	f.firstP50, f.firstP99 = lagPercentiles(waited)
	f.sendP50, _ = lagPercentiles(took)
	return f, nil
}

// problem says what is wrong with f, "" if nothing: every due message sent or rightly skipped
// (a booking cancelled before its confirmation went), and the sink holding each one sent.
func (f mailFigures) problem() string {
	switch {
	case f.pending > 0:
		return fmt.Sprintf("%d customer messages still unsent after the run", f.pending)
	case f.failed > 0:
		return fmt.Sprintf("%d customer messages failed", f.failed)
	case f.received != f.sent:
		return fmt.Sprintf("the mail sink received %d messages, the delivery log says %d were sent", f.received, f.sent)
	}
	return ""
}
