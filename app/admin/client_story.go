package admin

import (
	"net/http"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// A client's whole story on their page: figures (visits, spend, no-shows, late cancels),
// upcoming and past bookings with their notes, waitlists and the messages sent to them. Their
// session packs are listed by clientPacks (class_sessions.go).

// storyVisits is how many upcoming and past bookings the page lists (the bookings list,
// filtered to the client, has them all).
const storyVisits = 20

// lateCancel is how close to its start a cancellation counts as late.
const lateCancel = 24 * time.Hour

func (a *Admin) clientStory(r *http.Request, clientID int64) (ui.ClientStory, error) {
	ctx := r.Context()
	p := i18n.From(ctx)
	now := a.now()
	var s ui.ClientStory
	f, err := a.db.R.AdminClientFigures(ctx, db.AdminClientFiguresParams{ClientID: clientID, NowMs: db.Millis(now), LateMs: lateCancel.Milliseconds()})
	if err != nil {
		return s, err
	}
	s.Visits, s.Upcoming, s.NoShows, s.LateCancels = f.Visits, f.Upcoming, f.NoShows, f.LateCancels
	s.Spent = p.Money(f.SpentCents)
	s.ClientID = clientID
	if err := a.clientNotes(r, &s); err != nil {
		return s, err
	}
	visit := func(id, start, status int64, notes, service, provider, timezone string) ui.StoryVisit {
		zone, err := booking.LoadZone(timezone)
		if err != nil {
			zone = time.UTC
		}
		return ui.StoryVisit{ID: id, When: p.DateTimeOnce(localTime(start, zone)), Service: service, Provider: provider,
			Status: bookingStatusName(ctx, status), Notes: strings.TrimSpace(notes)}
	}
	next, err := a.db.R.AdminClientUpcoming(ctx, db.AdminClientUpcomingParams{ClientID: clientID, NowMs: db.Millis(now), Limit: storyVisits})
	if err != nil {
		return s, err
	}
	for _, b := range next {
		s.Next = append(s.Next, visit(b.ID, b.StartAt, b.StatusID, b.Notes, b.ServiceName, b.ProviderName, b.LocationTimezone))
	}
	past, err := a.db.R.AdminClientPast(ctx, db.AdminClientPastParams{ClientID: clientID, NowMs: db.Millis(now), Limit: storyVisits})
	if err != nil {
		return s, err
	}
	for _, b := range past {
		s.Past = append(s.Past, visit(b.ID, b.StartAt, b.StatusID, b.Notes, b.ServiceName, b.ProviderName, b.LocationTimezone))
	}
	waits, err := a.db.R.AdminClientWaitlist(ctx, clientID)
	if err != nil {
		return s, err
	}
	for _, w := range waits {
		zone, err := booking.LoadZone(w.LocationTimezone)
		if err != nil {
			zone = time.UTC
		}
		s.Waitlists = append(s.Waitlists, ui.StoryWait{SessionID: w.SessionID, Class: w.ServiceName,
			When: p.DateTimeOnce(localTime(w.StartAt, zone)), Status: translate(r, "classes.waitlist."+w.Status)})
	}
	msgs, err := a.db.R.AdminClientMessages(ctx, clientID)
	if err != nil {
		return s, err
	}
	for _, m := range msgs {
		zone, err := booking.LoadZone(m.LocationTimezone)
		if err != nil {
			zone = time.UTC
		}
		s.Messages = append(s.Messages, ui.StoryMessage{ID: m.ID, Kind: translate(r, "messages.kind."+m.Kind),
			State: translate(r, "messages.state."+m.State), When: p.DateTimeOnce(localTime(m.SendAt, zone)), To: m.ToAddress, URL: messageHref(m.ID)})
	}
	return s, nil
}
