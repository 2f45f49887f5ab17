package feeds

import (
	"context"
	"hash/fnv"
	"io"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/ical"
	"frontdesk/app/locale"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// What a feed holds: the bookings and class sessions starting from Past before today (UTC) to
// Ahead after it, and of those the cancelled ones last changed (cancelled, as a rule) less than
// CancelledFor ago, as STATUS:CANCELLED so a subscribed calendar removes them; older cancelled
// ones drop out, and calendars forget events that leave a feed.
const (
	Past         = 30 * 24 * time.Hour
	Ahead        = 366 * 24 * time.Hour
	CancelledFor = 30 * 24 * time.Hour
	// Refresh is how often the feed asks readers to fetch it again (REFRESH-INTERVAL);
	// Google Calendar keeps its own pace, of hours.
	Refresh = time.Hour
)

// Feed is a feed found by its token: whose it is and how it is shown.
type Feed struct {
	id        int64
	subject   Subject
	details   bool
	updatedAt int64
	name      string
	zone      *time.Location
}

// Find returns the feed a token opens. A malformed or unknown token is ErrNotFound.
func Find(ctx context.Context, q *db.Queries, token string) (Feed, error) {
	if !wellFormed(token) {
		return Feed{}, ErrNotFound
	}
	row, err := q.CalendarFeedByHash(ctx, hash(token))
	if db.IsNotFound(err) {
		return Feed{}, ErrNotFound
	}
	if err != nil {
		return Feed{}, err
	}
	zone, err := booking.LoadZone(row.Timezone)
	if err != nil {
		return Feed{}, err
	}
	return Feed{id: row.ID, subject: Subject{ProviderID: row.ProviderID.Int64, LocationID: row.LocationID.Int64},
		details: row.Details, updatedAt: row.UpdatedAt, name: row.Name, zone: zone}, nil
}

// ID names the feed (a rotation keeps it).
func (f Feed) ID() int64 { return f.id }

// Subject is whose feed f is.
func (f Feed) Subject() Subject { return f.subject }

// Tag is the entity tag of f's content at now, made of change counters only (the feed row, the
// catalog version, the bookings and sessions counters of its provider or location, the clients
// counter, the business's language) and the day, which moves the window: reading it costs no
// booking row, and the same tag always comes with the same body. Read it before the body, so a
// tag is never newer than the body sent with it.
func (f Feed) Tag(ctx context.Context, d *db.DB, now time.Time) (string, error) {
	catalog, err := d.CatalogVersion(ctx)
	if err != nil {
		return "", err
	}
	c, err := d.R.CalendarFeedCounters(ctx, f.counters())
	if err != nil {
		return "", err
	}
	biz, err := locale.Load(ctx, d.R)
	if err != nil {
		return "", err
	}
	h := fnv.New64a()
	h.Write([]byte(biz.Language))
	b := []byte(`W/"`)
	for _, n := range []int64{f.id, f.updatedAt, boolInt(f.details), catalog, c.Bookings, c.Sessions, c.Clients,
		today(now).Unix() / 86400} {
		b = strconv.AppendInt(b, n, 36)
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, h.Sum64(), 36)
	return string(append(b, '"')), nil
}

func (f Feed) counters() db.CalendarFeedCountersParams {
	if f.subject.ProviderID != 0 {
		return db.CalendarFeedCountersParams{BookingsKind: "provider", SessionsKind: "sessions_provider", RefID: f.subject.ProviderID}
	}
	return db.CalendarFeedCountersParams{BookingsKind: "location", SessionsKind: "sessions_location", RefID: f.subject.LocationID}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// today is the start of now's UTC day: the window moves once a day, so a tag lasts a day.
func today(now time.Time) time.Time { return now.UTC().Truncate(24 * time.Hour) }

// Calendar is a feed's content read at one moment, ready to be written.
type Calendar struct {
	feed    Feed
	day     time.Time
	content content
}

// Load reads f's content at now from one snapshot of the database.
func (f Feed) Load(ctx context.Context, d *db.DB, now time.Time) (*Calendar, error) {
	c := &Calendar{feed: f, day: today(now)}
	from, to, since := db.Millis(c.day.Add(-Past)), db.Millis(c.day.Add(Ahead)), db.Millis(c.day.Add(-CancelledFor))
	err := d.ReadTx(ctx, func(q *db.Queries) error { return c.content.load(ctx, q, f.subject, from, to, since) })
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Write writes the calendar (RFC 5545) to out; its only errors are out's.
func (c *Calendar) Write(out io.Writer) error {
	f := c.feed
	cal := ical.NewFeed(out, ical.FeedHeader{Name: f.name, Zone: f.zone, From: c.day.Add(-Past), To: c.day.Add(Ahead), Refresh: Refresh})
	p := c.content.business.Printer()
	// DTSTAMP is each event's last change, not the time of the request: the same tag comes with
	// the same bytes.
	for _, b := range c.content.bookings {
		cal.Event(f.bookingEvent(p, c.content.calendarID, b))
	}
	for _, s := range c.content.sessions {
		cal.Event(f.sessionEvent(p, c.content.calendarID, s))
	}
	return cal.Close()
}

// bookingEvent is a booking as f shows it: the client's first name and the service (and, in a
// location's feed, the provider); with details, the full name, the phone and the notes.
func (f Feed) bookingEvent(p *i18n.Printer, calendarID string, b db.CalendarFeedProviderBookingsRow) ical.Event {
	cancelled := b.StatusID == booking.StatusCancelled
	client := strings.TrimSpace(b.FirstName)
	var description []string
	if f.details {
		client = strings.TrimSpace(client + " " + b.LastName.String)
		if b.Phone.String != "" {
			description = append(description, p.T("feeds.phone", "phone", b.Phone.String))
		}
		if b.Notes.String != "" {
			description = append(description, p.T("feeds.notes", "notes", b.Notes.String))
		}
	}
	summary := nonEmpty(client, b.ServiceName)
	if f.subject.LocationID != 0 {
		summary = append(summary, b.ProviderName)
	}
	return ical.Event{
		UID: ical.UID(b.ID, calendarID), Sequence: ical.FeedSequence(b.ChangeCount, cancelled, b.Version),
		Start: db.Time(b.StartAt), End: db.Time(b.EndAt), Stamp: db.Time(b.UpdatedAt),
		Summary: strings.Join(summary, " · "), Location: b.LocationName,
		Description: strings.Join(description, "\n"),
		Cancelled:   cancelled, Tentative: b.StatusID == booking.StatusReserved,
	}
}

// sessionEvent is a class session: one event however many seats it has.
func (f Feed) sessionEvent(p *i18n.Printer, calendarID string, s db.CalendarFeedProviderSessionsRow) ical.Event {
	summary := []string{p.T("feeds.class", "service", s.ServiceName, "count", s.Seats)}
	if f.subject.LocationID != 0 {
		summary = append(summary, s.ProviderName)
	}
	return ical.Event{
		UID: "session-" + strconv.FormatInt(s.ID, 10) + "@" + calendarID + ".frontdesk", Sequence: int(s.Version),
		Start: db.Time(s.StartAt), End: db.Time(s.EndAt), Stamp: db.Time(s.UpdatedAt),
		Summary: strings.Join(summary, " · "), Location: strings.Join(nonEmpty(s.LocationName, s.Room), ", "),
		Cancelled: s.Status == booking.SessionCancelled,
	}
}

func nonEmpty(s ...string) []string {
	out := s[:0]
	for _, v := range s {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// content is what a feed shows, read in one snapshot.
type content struct {
	business   locale.Business
	calendarID string
	bookings   []db.CalendarFeedProviderBookingsRow
	sessions   []db.CalendarFeedProviderSessionsRow
}

func (c *content) load(ctx context.Context, q *db.Queries, s Subject, from, to, since int64) error {
	var err error
	if c.business, err = locale.Load(ctx, q); err != nil {
		return err
	}
	site, err := q.SiteSettings(ctx)
	if err != nil {
		return err
	}
	c.calendarID = site.CalendarID
	if s.ProviderID != 0 {
		c.bookings, err = q.CalendarFeedProviderBookings(ctx, db.CalendarFeedProviderBookingsParams{
			ID: s.ProviderID, FromAt: from, ToAt: to, CancelledSince: since})
		if err != nil {
			return err
		}
		c.sessions, err = q.CalendarFeedProviderSessions(ctx, db.CalendarFeedProviderSessionsParams{
			ID: s.ProviderID, FromAt: from, ToAt: to, CancelledSince: since})
		return err
	}
	bookings, err := q.CalendarFeedLocationBookings(ctx, db.CalendarFeedLocationBookingsParams{
		ID: s.LocationID, FromAt: from, ToAt: to, CancelledSince: since})
	if err != nil {
		return err
	}
	sessions, err := q.CalendarFeedLocationSessions(ctx, db.CalendarFeedLocationSessionsParams{
		ID: s.LocationID, FromAt: from, ToAt: to, CancelledSince: since})
	if err != nil {
		return err
	}
	// The two queries differ only in their filter; their rows are the same columns.
	c.bookings = make([]db.CalendarFeedProviderBookingsRow, len(bookings))
	for i, b := range bookings {
		c.bookings[i] = db.CalendarFeedProviderBookingsRow(b)
	}
	c.sessions = make([]db.CalendarFeedProviderSessionsRow, len(sessions))
	for i, s := range sessions {
		c.sessions[i] = db.CalendarFeedProviderSessionsRow(s)
	}
	return nil
}
