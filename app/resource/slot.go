package resource

import (
	"slices"
	"time"

	"frontdesk/app/jsontext"
)

// AvailableSlots is the body of GET /v3/available_slots.
type AvailableSlots struct {
	Data AvailableSlotsData `json:"data"`
}

// AvailableSlotsData holds the slots and the summary of the query.
type AvailableSlotsData struct {
	Slots    []Slot        `json:"slots"`
	Metadata SlotsMetadata `json:"metadata"`
}

// Slot is one bookable start for one provider: the reference's local HH:MM start_time and
// end_time, plus the local date and full ISO 8601 instants with the location's offset at each,
// so no client has to guess an offset around a daylight-saving change (and the two 01:30 slots
// of a fall-back night stay distinguishable).
type Slot struct {
	StartTime    string `json:"start_time"`
	EndTime      string `json:"end_time"`
	ProviderID   int64  `json:"provider_id"`
	ProviderName string `json:"provider_name"`
	Date         string `json:"date"`
	StartsAt     string `json:"starts_at"`
	EndsAt       string `json:"ends_at"`
	// A class's slot is one of its sessions (additions; docs/api.md): the session's id, its
	// capacity and the seats left.
	SessionID *int64 `json:"session_id,omitempty"`
	Capacity  *int   `json:"capacity,omitempty"`
	SeatsLeft *int   `json:"seats_left,omitempty"`
}

// SlotsMetadata summarises the query. service_id is left out when the query named no service;
// duration is then the slot step.
type SlotsMetadata struct {
	LocationID int64  `json:"location_id"`
	Date       string `json:"date"`
	EndDate    string `json:"end_date"`
	ServiceID  *int64 `json:"service_id,omitempty"`
	Duration   int64  `json:"duration"`
	SlotsCount int    `json:"slots_count"`
}

// NewSlot builds a slot; start and end must already be in the location's zone.
func NewSlot(providerID int64, providerName, date string, start, end time.Time) Slot {
	startsAt, endsAt := start.Format(time.RFC3339), end.Format(time.RFC3339)
	return Slot{
		StartTime: string(hourMinute([]byte(startsAt))), EndTime: string(hourMinute([]byte(endsAt))),
		ProviderID: providerID, ProviderName: providerName, Date: date,
		StartsAt: startsAt, EndsAt: endsAt,
	}
}

// hourMinute is the "15:04" part of an RFC 3339 time "2006-01-02T15:04:05Z07:00"; the year
// may have more than four digits, so it is found from the 'T'.
func hourMinute(rfc3339 []byte) []byte {
	for i, c := range rfc3339 {
		if c == 'T' {
			return rfc3339[i+1 : i+6]
		}
	}
	return nil
}

// SlotsJSON writes the body of GET /v3/available_slots as the slots come, without building a
// Slot for each: a day of ten providers is some 240 slots and 47 KB, and building and encoding
// them by reflection cost a third of the request. Its output is byte for byte what
// encoding/json writes for the equivalent AvailableSlots with HTML escaping off (without an
// Encoder's trailing newline); the tests compare the two.
type SlotsJSON struct {
	b []byte
	n int
}

// NewSlotsJSON starts a body in buf's storage (which it may outgrow), sized for about n slots.
func NewSlotsJSON(buf []byte, n int) *SlotsJSON {
	w := &SlotsJSON{b: slices.Grow(buf[:0], 256+200*n)}
	w.b = append(w.b, `{"data":{"slots":[`...)
	return w
}

// Add appends the slot NewSlot(providerID, providerName, date, start, end) would build.
func (w *SlotsJSON) Add(providerID int64, providerName, date string, start, end time.Time) {
	w.add(providerID, providerName, date, start, end)
	w.b = append(w.b, '}')
}

// AddSession appends a class session's slot: Add's with session_id, capacity and seats_left.
func (w *SlotsJSON) AddSession(providerID int64, providerName, date string, start, end time.Time, sessionID int64, capacity, seatsLeft int) {
	w.add(providerID, providerName, date, start, end)
	b := append(w.b, `,"session_id":`...)
	b = appendJSONInt(b, sessionID)
	b = append(b, `,"capacity":`...)
	b = appendJSONInt(b, int64(capacity))
	b = append(b, `,"seats_left":`...)
	b = appendJSONInt(b, int64(seatsLeft))
	w.b = append(b, '}')
}

// add appends a slot's common fields, leaving its object open.
func (w *SlotsJSON) add(providerID int64, providerName, date string, start, end time.Time) {
	var startBuf, endBuf [48]byte
	startsAt := start.AppendFormat(startBuf[:0], time.RFC3339)
	endsAt := end.AppendFormat(endBuf[:0], time.RFC3339)
	b := w.b
	if w.n > 0 {
		b = append(b, ',')
	}
	w.n++
	// RFC 3339 times are digits, '-', '+', ':', 'T' and 'Z': nothing to escape.
	b = append(b, `{"start_time":"`...)
	b = append(b, hourMinute(startsAt)...)
	b = append(b, `","end_time":"`...)
	b = append(b, hourMinute(endsAt)...)
	b = append(b, `","provider_id":`...)
	b = appendJSONInt(b, providerID)
	b = append(b, `,"provider_name":`...)
	b = jsontext.String(b, providerName)
	b = append(b, `,"date":`...)
	b = jsontext.String(b, date)
	b = append(b, `,"starts_at":"`...)
	b = append(b, startsAt...)
	b = append(b, `","ends_at":"`...)
	b = append(b, endsAt...)
	w.b = append(b, '"')
}

// Finish appends the metadata and returns the whole body.
func (w *SlotsJSON) Finish(m SlotsMetadata) []byte { return appendSlotsEnd(w.b, m) }

// SlotRun is a list of slots written once, from which bodies showing any contiguous run of
// them are copied rather than encoded again: the slots a clock leaves bookable are such a run
// of a day's slots (booking.Offered), and a day of ten providers is some 47 KB.
type SlotRun struct {
	w      SlotsJSON
	starts []int // starts[k]: where slot k's object begins in w.b
}

// NewSlotRun starts a list sized for n slots.
func NewSlotRun(n int) *SlotRun {
	return &SlotRun{w: *NewSlotsJSON(nil, n), starts: make([]int, 0, n+1)}
}

// Add appends the slot SlotsJSON.Add writes.
func (r *SlotRun) Add(providerID int64, providerName, date string, start, end time.Time) {
	at := len(r.w.b)
	if r.w.n > 0 {
		at++ // after the comma
	}
	r.starts = append(r.starts, at)
	r.w.Add(providerID, providerName, date, start, end)
}

// Len is the number of slots added.
func (r *SlotRun) Len() int { return r.w.n }

// Size is about the memory the run holds, in bytes.
func (r *SlotRun) Size() int { return cap(r.w.b) + 8*cap(r.starts) }

// AppendBody appends to b the body SlotsJSON writes for slots i..j-1 of the run with metadata
// m (whose SlotsCount must be j-i).
func (r *SlotRun) AppendBody(b []byte, i, j int, m SlotsMetadata) []byte {
	b = append(b, `{"data":{"slots":[`...)
	if i < j {
		end := len(r.w.b)
		if j < len(r.starts) {
			end = r.starts[j] - 1 // before the comma
		}
		b = append(b, r.w.b[r.starts[i]:end]...)
	}
	return appendSlotsEnd(b, m)
}

// appendSlotsEnd closes the slots array and appends the metadata.
func appendSlotsEnd(b []byte, m SlotsMetadata) []byte {
	b = append(b, `],"metadata":{"location_id":`...)
	b = appendJSONInt(b, m.LocationID)
	b = append(b, `,"date":`...)
	b = jsontext.String(b, m.Date)
	b = append(b, `,"end_date":`...)
	b = jsontext.String(b, m.EndDate)
	if m.ServiceID != nil {
		b = append(b, `,"service_id":`...)
		b = appendJSONInt(b, *m.ServiceID)
	}
	b = append(b, `,"duration":`...)
	b = appendJSONInt(b, m.Duration)
	b = append(b, `,"slots_count":`...)
	b = appendJSONInt(b, int64(m.SlotsCount))
	return append(b, "}}}"...)
}
