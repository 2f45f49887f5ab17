package ical

import "strconv"

// UID is a booking's calendar identifier, the same in every file frontdesk writes for it — the
// attachment of its emails (app/messages) and the booking site's download (app/site) — so a
// calendar keeps one entry whichever file it last imported. It is the booking id at a random name
// of the installation (site_settings.calendar_id): it survives a change of the public URL or of
// the sender's address, and never collides with another installation's booking of the same id.
func UID(bookingID int64, calendarID string) string {
	return "booking-" + strconv.FormatInt(bookingID, 10) + UIDSuffix(calendarID)
}

// UIDSuffix ends every UID the installation of calendarID writes (bookings and class sessions):
// a provider's calendar read back as busy time skips them (app/calendar), since they are the
// installation's own bookings, not time taken elsewhere.
func UIDSuffix(calendarID string) string { return "@" + calendarID + ".frontdesk" }

// Sequence is the SEQUENCE of a booking's file made from its state: its reschedules (the
// booking's change_count) plus one once it is cancelled. It rises with every move and with the
// cancel, the same steps a customer's emails count (one per move notice, one for the cancel
// notice), so a newer file from either source replaces an older one.
func Sequence(changeCount int64, cancelled bool) int {
	n := int(changeCount)
	if cancelled {
		n++
	}
	return n
}

// FeedSequence is the SEQUENCE of a booking in a calendar feed (feed.go): Sequence plus the
// booking's change counter (raised by every write to its row: db/migrations/00330), so it rises
// with every change a feed shows — a note, a status, a client — and never falls below the
// SEQUENCE of the customer's own file of the same booking.
func FeedSequence(changeCount int64, cancelled bool, version int64) int {
	return Sequence(changeCount, cancelled) + int(version)
}
