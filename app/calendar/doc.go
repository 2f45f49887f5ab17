// Package calendar is a provider's own calendar as busy time (docs/calendars.md): the
// connection the owner makes (an ICS address or a CalDAV account, connections.go), the reading
// of iCalendar text into busy blocks — recurrences expanded in each event's own zone through the
// zone data the binary embeds, within a horizon and bounded counts (expand.go) — and the
// storing of what a sync found (store.go), which the slot engine's busy time reads
// (app/booking/busy.go). Nothing here talks to a server: the worker that polls, and the CalDAV
// client, are app/calendar/sync.
package calendar
