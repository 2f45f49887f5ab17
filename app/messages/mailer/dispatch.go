package mailer

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"frontdesk/app/messages"
	"frontdesk/app/queue"
	"frontdesk/db"
)

// DefaultSchedule is the retry schedule of a message that the mail server did not take: at
// once, then 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h — about two days, so a mail server
// that is down over a night still delivers everything. A message about an appointment stops
// being retried when the appointment starts (it is skipped then).
func DefaultSchedule() queue.Schedule {
	return queue.Schedule{0, time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
		6 * time.Hour, 12 * time.Hour, 24 * time.Hour}
}

// Messages have one target, the outbox, named by which channels are ready: emailReady,
// textReady or both. Only messages that can leave are claimed: every one while email is set up
// (a text that cannot go as a text falls back to email when it is sent), texts alone while only
// texts are; the others wait (Settings → Messages says so). Its lane's cap is how many messages
// are sent at once.
const (
	emailReady = 1
	textReady  = 2
)

func readyArgs(target int64) (email, text bool) { return target&emailReady != 0, target&textReady != 0 }

// ref is what a claimed message carries; everything else is read when it is sent, so it says
// what is true then.
type ref struct{ key string }

// result is one finished attempt (or a skip), for the queue's writer to record.
type result struct {
	id        int64
	attempt   int
	series    int
	skip      string // non-empty: not sent, and why
	startedAt time.Time
	duration  time.Duration
	code      int
	category  string
	reply     string
	to        string
	header    string // the Message-ID sent
	subject   string
	permanent bool
	sent      bool
	about     messages.About
	channel   string // what the attempt went by
	// wait: no attempt; the message is due again then (quiet hours, the daily cap), waitNote why.
	wait     time.Time
	waitNote string
	policy   string // the rule that sent a text by email (messages.Policy*)
	segments int    // a text's parts
	cost     int64  // its estimated cost (messages.TextCost)
	month    string // the business's month it counts in when sent
}

// LogAttrs names the attempt in the queue's log lines.
func (r result) LogAttrs() []any { return []any{"message", r.id} }

// dispatcher sends the messages outbox through app/queue.
type dispatcher struct {
	m     *Mailer
	q     *queue.Dispatcher[ref, messages.Transport, result]
	rnd   func() float64
	cache map[string]string // opened passwords by sealed value
	// reminders moves the reminder horizon ahead of the claim rounds.
	reminders messages.ReminderPlanner
	conns     *smtpConns // connections kept open between messages (conns.go)
	// rounds counts claim rounds and claimed the first attempts they claimed (tests read them).
	rounds, claimed atomic.Int64
}

func newDispatcher(m *Mailer, workers int) *dispatcher {
	d := &dispatcher{m: m, rnd: rand.Float64, cache: map[string]string{}, conns: newSMTPConns()}
	d.q = queue.New(m.db, queue.Config{Name: "message", Workers: workers, PerTarget: workers}, store{d}, d, m.log, m.now)
	return d
}

// Run sends due messages until ctx ends, then closes the connections it kept open. While it
// runs it serves the database's hand-off, if the mailer was given one: messages due now come
// to it in memory once their change commits (messages.Handoff).
func (d *dispatcher) Run(ctx context.Context) error {
	d.conns.open()
	defer d.conns.close()
	if d.m.handoff != nil {
		defer d.m.handoff.Serve(d)()
	}
	return d.q.Run(ctx)
}

// Reserve is messages.Reserver: a message going by channel is handed off to the outbox's one
// target when that target could claim it (any message while email is set up, texts alone while
// only texts are) and its lane has room (queue.Dispatcher.Reserve).
func (d *dispatcher) Reserve(q *db.Queries, channel string) (func(id int64, due time.Time), bool) {
	for _, target := range []int64{emailReady | textReady, emailReady, textReady} {
		if email, _ := readyArgs(target); !email && channel == messages.ChannelEmail {
			continue
		}
		handOff, ok := d.q.Reserve(q, target)
		if !ok {
			continue
		}
		return func(id int64, due time.Time) {
			handOff(queue.Job[ref]{ID: id, Target: target, Attempt: 1, Series: 1, SeriesAt: due, Due: due})
		}, true
	}
	return nil, false
}

// store is the messages table as app/queue claims from it.
type store struct{ d *dispatcher }

// Targets is the mail server while one is set up; without one nothing is claimed, and the
// messages wait (Settings → Messages says so). Each round first writes the reminders coming
// due within a day (messages.ReminderPlanner), so this round and the next see them.
func (s store) Targets(ctx context.Context, q *db.Queries, now time.Time) (map[int64]messages.Transport, error) {
	s.d.rounds.Add(1)
	if err := s.d.reminders.Plan(ctx, q, now); err != nil {
		return nil, err
	}
	t, err := s.d.m.Transport(ctx, q, s.d.cache)
	if err != nil {
		s.d.m.log.Error("message settings unusable; messages wait", "err", err)
		return map[int64]messages.Transport{}, nil
	}
	if t.Text, err = s.d.m.TextTransport(ctx, q, s.d.cache); err != nil {
		s.d.m.log.Error("text settings unusable; texts wait", "err", err)
		t.Text = messages.TextTransport{}
	}
	if t.WhatsApp, err = s.d.m.WhatsAppTransport(ctx, q, s.d.cache); err != nil {
		s.d.m.log.Error("WhatsApp settings unusable; WhatsApp messages wait", "err", err)
		t.WhatsApp = messages.WhatsAppTransport{}
	}
	var target int64
	if t.Ready() {
		target |= emailReady
	}
	if t.Text.Ready() || t.WhatsApp.Ready() {
		target |= textReady
	}
	if target == 0 {
		return map[int64]messages.Transport{}, nil
	}
	return map[int64]messages.Transport{target: t}, nil
}

func (s store) ClaimFirst(ctx context.Context, q *db.Queries, target int64, now time.Time, lim int) ([]queue.Job[ref], error) {
	email, text := readyArgs(target)
	rows, err := q.ClaimDueFirstMessages(ctx, db.ClaimDueFirstMessagesParams{Now: nullMs(now), Lim: int64(lim), EmailReady: email, TextReady: text})
	if err != nil {
		return nil, err
	}
	s.d.claimed.Add(int64(len(rows)))
	jobs := make([]queue.Job[ref], len(rows))
	for i, r := range rows {
		at := db.Time(r.SendAt)
		if r.RestartedAt.Valid {
			at = db.Time(r.RestartedAt.Int64)
		}
		jobs[i] = queue.Job[ref]{ID: r.ID, Target: target, Attempt: int(r.Attempts) + 1, Series: 1, SeriesAt: at, Due: at}
	}
	return jobs, nil
}

func (s store) ClaimRetries(ctx context.Context, q *db.Queries, target int64, now time.Time, lim int) ([]queue.Job[ref], error) {
	email, text := readyArgs(target)
	rows, err := q.ListDueMessageRetries(ctx, db.ListDueMessageRetriesParams{Now: nullMs(now), Lim: int64(lim), EmailReady: email, TextReady: text})
	if err != nil {
		return nil, err
	}
	var jobs []queue.Job[ref]
	for _, r := range rows {
		n, err := q.ClaimMessage(ctx, r.ID)
		if err != nil {
			return jobs, err
		}
		if n == 1 {
			jobs = append(jobs, queue.Job[ref]{
				ID: r.ID, Target: target, Attempt: int(r.Attempts) + 1, Series: int(r.Attempts-r.SeriesBase) + 1,
				SeriesAt: db.Time(r.SeriesAt), Due: db.Time(r.NextAttemptAt.Int64),
			})
		}
	}
	return jobs, nil
}

func (s store) NextRetry(ctx context.Context, q *db.Queries, _ int64, now time.Time) (time.Time, error) {
	next, err := q.NextMessageRetryAfter(ctx, nullMs(now))
	if err != nil || next == 0 {
		return time.Time{}, err
	}
	return db.Time(next), nil
}

func (s store) Release(ctx context.Context, q *db.Queries, id int64, due time.Time) error {
	return q.ReleaseMessage(ctx, db.ReleaseMessageParams{ID: id, NextAttemptAt: nullMs(due)})
}

func (s store) ReleaseAll(ctx context.Context, q *db.Queries, now time.Time) (int64, error) {
	return q.ReleaseAllMessageClaims(ctx, nullMs(now))
}

// Record writes each attempt and what follows it: sent, a retry on the schedule, or failed
// (a permanent refusal, or the schedule exhausted).
func (s store) Record(ctx context.Context, q *db.Queries, batch []result) (queue.Committed, error) {
	var t tally
	lines := make([]emailLine, 0, len(batch))
	for _, r := range batch {
		if !r.wait.IsZero() {
			if err := q.DeferMessage(ctx, db.DeferMessageParams{ID: r.id, Due: nullMs(r.wait), Note: r.waitNote, Now: db.Millis(r.startedAt)}); err != nil {
				return queue.Committed{}, fmt.Errorf("message %d: %w", r.id, err)
			}
			t.waited++
			lines = append(lines, emailLine{r: r, outcome: "waits", next: r.wait})
			continue
		}
		if r.skip != "" {
			if err := q.SkipClaimedMessage(ctx, db.SkipClaimedMessageParams{ID: r.id, Note: r.skip, Now: db.Millis(r.startedAt)}); err != nil {
				return queue.Committed{}, fmt.Errorf("message %d: %w", r.id, err)
			}
			t.skipped++
			lines = append(lines, emailLine{r: r, outcome: "skipped"})
			continue
		}
		end := r.startedAt.Add(r.duration)
		if err := q.InsertMessageAttempt(ctx, db.InsertMessageAttemptParams{
			MessageID: r.id, Attempt: int64(r.attempt), StartedAt: db.Millis(r.startedAt), DurationMs: r.duration.Milliseconds(),
			Code: sql.NullInt64{Int64: int64(r.code), Valid: r.code != 0}, Category: sql.NullString{String: r.category, Valid: r.category != ""},
			Reply: clip(r.reply, 2000), ToAddress: r.to, MessageIDHeader: r.header, Channel: r.channel,
		}); err != nil {
			return queue.Committed{}, fmt.Errorf("message %d: log attempt: %w", r.id, err)
		}
		if r.segments > 0 || r.policy != "" {
			if err := q.SetAttemptTextFacts(ctx, db.SetAttemptTextFactsParams{MessageID: r.id, Attempt: int64(r.attempt),
				Segments: sql.NullInt64{Int64: int64(r.segments), Valid: r.sent && r.segments > 0}, Policy: r.policy}); err != nil {
				return queue.Committed{}, fmt.Errorf("message %d: text facts: %w", r.id, err)
			}
		}
		p := db.RecordMessageAttemptParams{
			ID: r.id, Attempts: int64(r.attempt), At: nullMs(end), Code: sql.NullInt64{Int64: int64(r.code), Valid: r.code != 0},
			Note: clip(r.reply, 500), ToAddress: r.to, Subject: clip(r.subject, 500), Channel: r.channel,
		}
		line := emailLine{r: r}
		switch {
		case r.sent:
			p.NewState = messages.StateSent
			t.sent++
			line.outcome = "sent"
			if err := s.counted(ctx, q, r); err != nil {
				return queue.Committed{}, err
			}
		case !r.permanent && !s.d.m.schedule.Exhausted(r.series):
			p.NewState = messages.StatePending
			p.NextAttemptAt = nullMs(end.Add(s.d.m.schedule.Delay(r.series, s.d.rnd)))
			t.retried++
			line.outcome, line.next = "retry", db.Time(p.NextAttemptAt.Int64)
		default:
			p.NewState = messages.StateFailed
			t.failed++
			line.outcome = "failed"
		}
		if err := q.RecordMessageAttempt(ctx, p); err != nil {
			return queue.Committed{}, fmt.Errorf("message %d: record attempt: %w", r.id, err)
		}
		lines = append(lines, line)
	}
	return queue.Committed{Reschedule: t.retried > 0 || t.waited > 0, After: func() {
		s.d.m.metrics.count(t)
		for _, l := range lines {
			s.d.m.logEmail(l)
		}
	}}, nil
}

// counted adds a sent message to the owner's monthly counts, and a text's parts and cost to
// its row.
func (s store) counted(ctx context.Context, q *db.Queries, r result) error {
	if r.month == "" {
		return nil
	}
	if r.channel == messages.ChannelSMS {
		if err := q.SetMessageTextCost(ctx, db.SetMessageTextCostParams{ID: r.id, Segments: sql.NullInt64{Int64: int64(r.segments), Valid: true},
			CostMilli: sql.NullInt64{Int64: r.cost, Valid: true}}); err != nil {
			return fmt.Errorf("message %d: cost: %w", r.id, err)
		}
	}
	if err := q.AddMonthCount(ctx, db.AddMonthCountParams{Month: r.month, Channel: r.channel, Segments: int64(r.segments), CostMilli: r.cost}); err != nil {
		return fmt.Errorf("message %d: monthly count: %w", r.id, err)
	}
	return nil
}

// emailLine is one attempt (or skip) as recorded, for the log once it has committed.
type emailLine struct {
	r       result
	outcome string    // sent, retry, failed (permanently, or out of retries), skipped
	next    time.Time // the next attempt, for a retry
}

// logEmail writes the one log line each customer email gets per attempt (docs/messages.md,
// "The log"): what it is (kind, message, booking or payment request, client or owner), what
// became of it, and for a failure the mail server's code and words. The recipient's address is
// never logged — it is personal data, kept in the database's message log for the owner —
// only its domain (a provider refusing every address of its own shows there), and the server's
// reply has the address replaced by that domain.
func (m *Mailer) logEmail(l emailLine) {
	r := l.r
	attrs := []slog.Attr{slog.String("outcome", l.outcome), slog.Int64("message", r.id),
		slog.String("kind", string(r.about.Kind)), slog.String("recipient", r.about.Recipient)}
	if r.about.Booking != 0 {
		attrs = append(attrs, slog.Int64("booking", r.about.Booking))
	}
	if r.about.PaymentRequest != 0 {
		attrs = append(attrs, slog.Int64("payment_request", r.about.PaymentRequest))
	}
	domain := ""
	if r.channel == messages.ChannelSMS || r.channel == messages.ChannelWhatsApp {
		// A number is personal data too: only its country code is logged.
		attrs = append(attrs, slog.String("channel", r.channel), slog.String("to_country", callingCode(r.to)))
	} else if at := strings.LastIndexByte(r.to, '@'); at >= 0 {
		domain = r.to[at+1:]
		attrs = append(attrs, slog.String("to_domain", domain))
	}
	if r.policy != "" {
		attrs = append(attrs, slog.String("policy", r.policy))
	}
	if r.segments > 0 {
		attrs = append(attrs, slog.Int("segments", r.segments))
	}
	level := slog.LevelInfo
	switch l.outcome {
	case "skipped":
		attrs = append(attrs, slog.String("reason", r.skip))
	case "waits":
		attrs = append(attrs, slog.String("reason", r.waitNote), slog.Time("next_attempt", l.next))
	default:
		attrs = append(attrs, slog.Int("attempt", r.attempt), slog.Duration("took", r.duration))
	}
	if l.outcome == "retry" || l.outcome == "failed" {
		level = slog.LevelWarn
		if l.outcome == "failed" {
			level = slog.LevelError
		}
		if r.code != 0 {
			attrs = append(attrs, slog.Int("code", r.code))
		}
		reply := r.reply
		if r.to != "" && (r.channel == messages.ChannelSMS || r.channel == messages.ChannelWhatsApp) {
			reply = strings.ReplaceAll(reply, r.to, "…")
		} else if r.to != "" {
			reply = regexp.MustCompile(`(?i)`+regexp.QuoteMeta(r.to)).ReplaceAllLiteralString(reply, "…@"+domain)
		}
		attrs = append(attrs, slog.String("category", r.category), slog.String("reply", clip(reply, 300)))
	}
	if l.outcome == "retry" {
		attrs = append(attrs, slog.Time("next_attempt", l.next))
	}
	m.log.LogAttrs(context.Background(), level, "customer email", attrs...)
}

// tally counts what one recorded batch did, for the metrics.
type tally struct{ sent, retried, failed, skipped, waited int }

// Send makes one attempt at message j: it reads the message and what it is about, skips it if
// there is nothing to say any more, and otherwise renders and sends it.
func (d *dispatcher) Send(j queue.Job[ref], t messages.Transport) result {
	start := d.m.now()
	r := result{id: j.ID, attempt: j.Attempt, series: j.Series, startedAt: start, channel: messages.ChannelEmail}
	// Not the dispatcher's context: an attempt under way finishes within the timeout.
	ctx := context.Background()
	out, err := d.m.Prepare(ctx, j.ID, t, start)
	r.about, r.policy, r.month = out.About, out.Policy, out.Month
	switch {
	case err != nil:
		r.category, r.reply, r.permanent = messages.CategoryOther, err.Error(), false
		if te, ok := err.(*messages.TemplateError); ok {
			r.category, r.reply, r.permanent = messages.CategoryTemplate, te.Error(), true
		}
	case !out.Wait.IsZero():
		r.wait, r.waitNote = out.Wait, out.WaitNote
		return r
	case out.Skip != "":
		r.skip = out.Skip
		return r
	case out.BadAddress != "":
		r.category, r.reply, r.permanent, r.to = messages.CategoryAddress, out.BadAddress, true, out.Envelope.To.Address
	case out.Envelope.Channel == messages.ChannelSMS || out.Envelope.Channel == messages.ChannelWhatsApp:
		e := out.Envelope
		r.channel, r.to, r.subject = e.Channel, e.Phone, clip(e.Text, 160)
		var sr textResult
		if e.Channel == messages.ChannelWhatsApp {
			sr, err = d.m.sendWhatsApp(ctx, t.WhatsApp, e)
		} else {
			sr, err = d.m.sendText(ctx, t.Text, e)
		}
		r.header, r.code, r.reply = sr.id, sr.status, sr.reply
		r.segments, r.cost = out.Segments, out.CostMilli
		if err != nil {
			d.m.ReleaseText(out.CapDay) // not taken: its place under the daily cap is free again
			e := classifyText(err)
			r.category, r.permanent = e.category, e.permanent
			if r.reply == "" {
				r.reply = e.text
			}
		} else {
			r.sent = true
		}
	default:
		e := out.Envelope
		r.to, r.header, r.subject = e.To.Address, "<"+e.MessageID+">", e.Content.Subject
		r.reply, err = d.m.send(ctx, t, e, d.conns)
		if err != nil {
			e := classify(err)
			r.code, r.category, r.reply, r.permanent = e.code, e.category, e.text, e.permanent
		} else {
			r.sent = true
		}
	}
	r.duration = d.m.now().Sub(start)
	d.m.metrics.latency.Observe(r.duration.Seconds())
	return r
}

func nullMs(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: db.Millis(t), Valid: true} }

// clip cuts s to at most n bytes without splitting a UTF-8 sequence.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
