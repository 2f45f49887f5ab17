package resource

import "time"

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
	return Slot{
		StartTime: start.Format("15:04"), EndTime: end.Format("15:04"),
		ProviderID: providerID, ProviderName: providerName, Date: date,
		StartsAt: start.Format(time.RFC3339), EndsAt: end.Format(time.RFC3339),
	}
}
