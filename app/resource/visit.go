package resource

import "time"

// Visits (docs/visits.md): several services booked as one. These are additions to Connect v3.

// VisitSlot is one start of a visit in GET /v3/available_slots?service_ids=…: the slot of its
// first service (start_time, provider_id, …) stretched over the whole visit, its total price,
// and each of its bookings with who does it.
type VisitSlot struct {
	Slot
	Price    string         `json:"price"`
	Segments []VisitSegment `json:"segments"`
}

// VisitSegment is one booking of a visit slot: a service (or an add-on, or the part of a service
// after its processing time) with its provider and times.
type VisitSegment struct {
	ServiceID    int64  `json:"service_id"`
	ProviderID   int64  `json:"provider_id"`
	ProviderName string `json:"provider_name"`
	AddOn        bool   `json:"add_on"`
	AfterProcess bool   `json:"after_processing"`
	StartsAt     string `json:"starts_at"`
	EndsAt       string `json:"ends_at"`
}

// VisitSlots is the body of available_slots for a visit.
type VisitSlots struct {
	Data VisitSlotsData `json:"data"`
}

// VisitSlotsData holds the visit's slots and the summary of the query.
type VisitSlotsData struct {
	Slots    []VisitSlot        `json:"slots"`
	Metadata VisitSlotsMetadata `json:"metadata"`
}

// VisitSlotsMetadata summarises a visit query: service_ids in order, duration the whole visit's
// in minutes (0 when no start is offered).
type VisitSlotsMetadata struct {
	LocationID int64   `json:"location_id"`
	Date       string  `json:"date"`
	EndDate    string  `json:"end_date"`
	ServiceIDs []int64 `json:"service_ids"`
	Duration   int64   `json:"duration"`
	SlotsCount int     `json:"slots_count"`
}

// Visit is a booked visit: its bookings in order (each the ordinary booking resource).
type Visit struct {
	ID         int64     `json:"id"`
	LocationID int64     `json:"location_id"`
	ClientID   int64     `json:"client_id"`
	StartTime  string    `json:"start_time"`
	EndTime    string    `json:"end_time"`
	Price      string    `json:"price"`
	Bookings   []Booking `json:"bookings"`
	// PaymentRequest is the one request a visit booked with pay_online waits for.
	PaymentRequest *VisitPayment `json:"payment_request,omitempty"`
}

// VisitPayment is a visit's payment request: its id, what it asks and where it is paid.
type VisitPayment struct {
	ID          int64  `json:"id"`
	Amount      string `json:"amount"`
	CheckoutURL string `json:"checkout_url"`
}

// NewVisitSegment is one booking of a visit slot in zone.
func NewVisitSegment(serviceID, providerID int64, providerName string, addOn, after bool, start, end time.Time, zone *time.Location) VisitSegment {
	return VisitSegment{
		ServiceID: serviceID, ProviderID: providerID, ProviderName: providerName, AddOn: addOn, AfterProcess: after,
		StartsAt: start.In(zone).Format(time.RFC3339), EndsAt: end.In(zone).Format(time.RFC3339),
	}
}
