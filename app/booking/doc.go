// Package booking is the slot engine: it computes the bookable slots for one
// service at one location and explains why a provider is not offered at a
// given time. It is pure Go on purpose (no HTTP, no database, no clock of its
// own, never time.Local) so that every rule below can be tested exhaustively
// and the API and the admin UI can never disagree about availability.
//
// Callers load a [Schedule] (location zone and hours, closures, the service,
// providers with shifts, breaks, time off and existing bookings, and the
// business [Policy]) and call [Slots] or [Explain] with the current time.
//
// The engine files (schedule, engine, explain, clock, span, date) stay pure.
// The database edge lives beside them: [LoadSchedule] reads a Schedule
// (store.go; [LoadScheduleCached] keeps its catalog part in the database's
// catalog cache, db.CatalogCache); [Create] ([Prepare] then [Book]), [Update] and [Cancel] write
// bookings under the same rules inside one transaction with their webhook events, owning it or
// joining the caller's (book.go, change.go, place.go; docs/ARCHITECTURE.md "Use cases"); [List]
// and [Get] read them (list.go); [ExplainAt] answers the admin UI's "why is this slot not
// offered?" (explain_at.go); [Working] is a provider's working time on a date by the rule below,
// which the admin's day view shades (working.go).
//
// Classes are the exception to the slot grid (docs/classes.md): a service with capacity above 1
// is offered in its sessions (sessions.go, SessionSlots), which a weekly timetable makes a year
// ahead as rows the database enforces (timetable.go, generate.go, the Timetabler worker). A
// booking of a class takes a seat (seats.go); session packs pay for bookings (packs.go); a freed
// seat goes to the waitlist in the freeing transaction (waitlist.go).
//
// # Time
//
// Wall-clock values (opening hours, shifts, breaks) are minutes after local
// midnight, 0 ≤ Open < Close ≤ 1440, tied to a weekday. Absolute values (time
// off, existing bookings, now) are instants. Durations are real elapsed time,
// so a 60-minute service that starts just before a spring-forward ends two
// wall-clock hours later. Intervals are half-open: touching is not overlapping.
//
// # Working time
//
// A wall range [Open, Close) on local date D is the real interval from the
// first instant at which the zone's clock reads D Open or later to the first
// instant at which it reads D Close or later (Close 1440 means 00:00 on D+1).
// The clock is read as the highest value it has shown so far, which gives:
//
//   - A range that opens inside a spring-forward gap opens when the gap ends
//     (02:30 on 2026-03-29 in Berlin opens at 03:00 CEST; a Santiago day whose
//     midnight is skipped starts at 01:00).
//   - A range that covers a whole fall-back overlap gets the repeated hour too
//     (00:00–11:00 lasts 12 hours that day); a range that ends inside the
//     overlap ends at the first occurrence of its Close.
//   - D's 24:00 and D+1's 00:00 are the same instant, so a provider working
//     22:00–24:00 and 00:00–02:00 works continuously, and adjacent or
//     overlapping ranges merge.
//
// A provider's working time is the location's open time (its hours, except on
// closure dates) intersected with the union over the provider's shifts of the
// shift minus that shift's breaks.
//
// # Candidates
//
// Starts lie on a wall-clock grid: for each shift on date D, the wall times
// Open + k·Step with Open ≤ Open + k·Step < Close. The grid is never
// re-anchored by a transition:
//
//   - a grid point in a spring-forward gap does not exist and is skipped; it
//     is never moved to the end of the gap, and the points after the gap keep
//     their positions (step 45 from 00:00 in Berlin on 2026-03-29 gives 01:30,
//     then 03:00: 02:15 does not exist);
//   - a grid point in a fall-back overlap names two instants, and each is a
//     candidate of its own;
//   - the same instant produced by two overlapping shifts is offered once.
//
// A slot therefore always starts at an instant whose local wall time is a grid
// point on the slot's Date, and the slot's Date is the local date of Start.
//
// # Fit
//
// A candidate start t is offered for a provider who offers the service when
// the block [t − BufferBefore, t + Duration + BufferAfter) lies inside working
// time and overlaps neither time off nor any Busy interval (Busy intervals
// already include the buffers of the bookings they stand for), and
// now + MinNotice ≤ t, and t ≤ now + MaxAdvance unless MaxAdvance is zero.
// The customer sees [t, t + Duration).
//
// [Explain] checks the same rules in a fixed order (see [ReasonCode]) and
// reports the first one that fails, so Explain returns [ReasonOK] exactly for
// the instants [Slots] offers.
package booking
