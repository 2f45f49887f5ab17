package resource

import (
	"strconv"
	"time"

	"frontdesk/app/jsontext"
	"frontdesk/db"
)

// Booking is the Connect v3 Booking. start_time and end_time carry the booking location's offset
// at those instants; created_at and updated_at are record timestamps in UTC.
type Booking struct {
	ID                int64                  `json:"id"`
	StartTime         string                 `json:"start_time"`
	EndTime           string                 `json:"end_time"`
	StatusID          int64                  `json:"status_id"`
	Status            BookingStatus          `json:"status"`
	ServiceID         int64                  `json:"service_id"`
	Service           BookingService         `json:"service"`
	ServiceProviderID int64                  `json:"service_provider_id"`
	ServiceProvider   BookingServiceProvider `json:"service_provider"`
	ClientID          int64                  `json:"client_id"`
	LocationID        int64                  `json:"location_id"`
	Location          BookingLocation        `json:"location"`
	Price             string                 `json:"price"`
	ListPrice         string                 `json:"list_price"`
	Discount          *string                `json:"discount"`
	Notes             *string                `json:"notes"`
	Scheduled         bool                   `json:"scheduled"`
	TimeResourceID    *int64                 `json:"time_resource_id"`
	CompanyID         int64                  `json:"company_id"`
	Sale              *BookingSale           `json:"sale"`
	// SessionID is the class session the booking holds a seat in; PackID the session pack that
	// paid for it (additions; docs/api.md).
	SessionID *int64 `json:"session_id"`
	PackID    *int64 `json:"pack_id"`
	// SeriesID is the series the booking is an occurrence of (an addition; docs/visits.md).
	SeriesID *int64 `json:"series_id"`
	// ClientConfirmedAt is when the client confirmed the appointment by answering a text, in
	// UTC; null until then and again once it moves (an addition; docs/api.md).
	ClientConfirmedAt *string `json:"client_confirmed_at"`
	CreatedAt         string  `json:"created_at"`
	UpdatedAt         string  `json:"updated_at"`
}

// BookingStatus is an entry of the status catalogue (1 confirmed … 5 cancelled).
type BookingStatus struct {
	ID           int64   `json:"id"`
	Name         string  `json:"name"`
	InternalName string  `json:"internal_name"`
	Description  *string `json:"description"`
}

// BookingService is the service summary inside a booking.
type BookingService struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// BookingServiceProvider is the provider summary inside a booking.
type BookingServiceProvider struct {
	ID         int64  `json:"id"`
	PublicName string `json:"public_name"`
}

// BookingLocation is the location summary inside a booking (shown by the reference's examples).
type BookingLocation struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// BookingSale is the sale that covers a booking, if any.
type BookingSale struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
	CartID int64  `json:"cart_id"`
}

// NewBooking builds the resource from a booking view; zone is the booking location's zone.
func NewBooking(v db.BookingViewsRow, companyID int64, zone *time.Location) Booking {
	b := v.Booking
	out := Booking{
		ID:                b.ID,
		StartTime:         LocalTime(b.StartAt, zone),
		EndTime:           LocalTime(b.EndAt, zone),
		StatusID:          b.StatusID,
		Status:            newBookingStatus(v),
		ServiceID:         b.ServiceID,
		Service:           BookingService{ID: b.ServiceID, Name: v.ServiceName},
		ServiceProviderID: b.ProviderID,
		ServiceProvider:   BookingServiceProvider{ID: b.ProviderID, PublicName: v.ProviderName},
		ClientID:          b.ClientID,
		LocationID:        b.LocationID,
		Location:          BookingLocation{ID: b.LocationID, Name: v.LocationName},
		Price:             Money(b.PriceCents),
		ListPrice:         Money(b.ListPriceCents),
		Discount:          NullMoney(b.DiscountBp),
		Notes:             NullString(b.Notes),
		Scheduled:         b.Scheduled,
		TimeResourceID:    NullInt(b.TimeResourceID),
		CompanyID:         companyID,
		SessionID:         NullInt(b.SessionID),
		PackID:            NullInt(b.PackID),
		SeriesID:          NullInt(b.SeriesID),
		ClientConfirmedAt: NullTimestamp(b.ClientConfirmedAt),
		CreatedAt:         Timestamp(b.CreatedAt),
		UpdatedAt:         Timestamp(b.UpdatedAt),
	}
	if b.SaleID.Valid && v.SaleStatus.Valid {
		out.Sale = &BookingSale{ID: b.SaleID.Int64, Status: v.SaleStatus.String, CartID: v.SaleCartID.Int64}
	}
	return out
}

func newBookingStatus(v db.BookingViewsRow) BookingStatus {
	return NewBookingStatus(db.BookingStatus{
		ID: v.Booking.StatusID, Name: v.StatusName, InternalName: v.StatusInternalName, Description: v.StatusDescription,
	})
}

// NewBookingStatus builds a status object from the catalogue row.
func NewBookingStatus(s db.BookingStatus) BookingStatus {
	return BookingStatus{ID: s.ID, Name: s.Name, InternalName: s.InternalName, Description: NullString(s.Description)}
}

// BookingEvent is the data of booking.created and booking.updated (docs/webhooks.md): the
// fields of the Connect v3 webhook example, plus provider_id and the status (object and
// status_id) so a receiver can tell a reschedule from a cancel, plus the money and the record
// timestamps receivers keep in sync (price, list_price, created_at, updated_at). Each field has
// the same value and form as in GET /v3/bookings/{id} at that moment.
type BookingEvent struct {
	ID         int64         `json:"id"`
	StartTime  string        `json:"start_time"`
	EndTime    string        `json:"end_time"`
	ServiceID  int64         `json:"service_id"`
	ClientID   int64         `json:"client_id"`
	LocationID int64         `json:"location_id"`
	ProviderID int64         `json:"provider_id"`
	StatusID   int64         `json:"status_id"`
	Status     BookingStatus `json:"status"`
	Price      string        `json:"price"`
	ListPrice  string        `json:"list_price"`
	CreatedAt  string        `json:"created_at"`
	UpdatedAt  string        `json:"updated_at"`
	// SeriesID is the series of an occurrence (an addition; docs/visits.md), absent otherwise.
	SeriesID *int64 `json:"series_id,omitempty"`
}

// NewBookingEvent builds the event data from a booking row as written (every field, updated_at
// included), its status and its location's zone.
func NewBookingEvent(b db.Booking, status db.BookingStatus, zone *time.Location) BookingEvent {
	return BookingEvent{
		ID: b.ID, StartTime: LocalTime(b.StartAt, zone), EndTime: LocalTime(b.EndAt, zone),
		ServiceID: b.ServiceID, ClientID: b.ClientID, LocationID: b.LocationID, ProviderID: b.ProviderID,
		StatusID: status.ID, Status: NewBookingStatus(status),
		Price: Money(b.PriceCents), ListPrice: Money(b.ListPriceCents),
		CreatedAt: Timestamp(b.CreatedAt), UpdatedAt: Timestamp(b.UpdatedAt),
		SeriesID: NullInt(b.SeriesID),
	}
}

// AppendJSON appends b's JSON encoding, the same bytes encoding/json writes with HTML escaping
// off (without an Encoder's trailing newline): a page of 30 bookings is some 20 KB, and
// encoding it by reflection was a fifth of a list request.
func (b Booking) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendJSONInt(dst, b.ID)
	dst = append(dst, `,"start_time":`...)
	dst = jsontext.String(dst, b.StartTime)
	dst = append(dst, `,"end_time":`...)
	dst = jsontext.String(dst, b.EndTime)
	dst = append(dst, `,"status_id":`...)
	dst = appendJSONInt(dst, b.StatusID)
	dst = append(dst, `,"status":{"id":`...)
	dst = appendJSONInt(dst, b.Status.ID)
	dst = append(dst, `,"name":`...)
	dst = jsontext.String(dst, b.Status.Name)
	dst = append(dst, `,"internal_name":`...)
	dst = jsontext.String(dst, b.Status.InternalName)
	dst = append(dst, `,"description":`...)
	dst = appendJSONNullString(dst, b.Status.Description)
	dst = append(dst, `},"service_id":`...)
	dst = appendJSONInt(dst, b.ServiceID)
	dst = append(dst, `,"service":{"id":`...)
	dst = appendJSONInt(dst, b.Service.ID)
	dst = append(dst, `,"name":`...)
	dst = jsontext.String(dst, b.Service.Name)
	dst = append(dst, `},"service_provider_id":`...)
	dst = appendJSONInt(dst, b.ServiceProviderID)
	dst = append(dst, `,"service_provider":{"id":`...)
	dst = appendJSONInt(dst, b.ServiceProvider.ID)
	dst = append(dst, `,"public_name":`...)
	dst = jsontext.String(dst, b.ServiceProvider.PublicName)
	dst = append(dst, `},"client_id":`...)
	dst = appendJSONInt(dst, b.ClientID)
	dst = append(dst, `,"location_id":`...)
	dst = appendJSONInt(dst, b.LocationID)
	dst = append(dst, `,"location":{"id":`...)
	dst = appendJSONInt(dst, b.Location.ID)
	dst = append(dst, `,"name":`...)
	dst = jsontext.String(dst, b.Location.Name)
	dst = append(dst, `},"price":`...)
	dst = jsontext.String(dst, b.Price)
	dst = append(dst, `,"list_price":`...)
	dst = jsontext.String(dst, b.ListPrice)
	dst = append(dst, `,"discount":`...)
	dst = appendJSONNullString(dst, b.Discount)
	dst = append(dst, `,"notes":`...)
	dst = appendJSONNullString(dst, b.Notes)
	dst = append(dst, `,"scheduled":`...)
	dst = strconv.AppendBool(dst, b.Scheduled)
	dst = append(dst, `,"time_resource_id":`...)
	dst = appendJSONNullInt(dst, b.TimeResourceID)
	dst = append(dst, `,"company_id":`...)
	dst = appendJSONInt(dst, b.CompanyID)
	dst = append(dst, `,"sale":`...)
	if s := b.Sale; s == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, `{"id":`...)
		dst = appendJSONInt(dst, s.ID)
		dst = append(dst, `,"status":`...)
		dst = jsontext.String(dst, s.Status)
		dst = append(dst, `,"cart_id":`...)
		dst = appendJSONInt(dst, s.CartID)
		dst = append(dst, '}')
	}
	dst = append(dst, `,"session_id":`...)
	dst = appendJSONNullInt(dst, b.SessionID)
	dst = append(dst, `,"pack_id":`...)
	dst = appendJSONNullInt(dst, b.PackID)
	dst = append(dst, `,"series_id":`...)
	dst = appendJSONNullInt(dst, b.SeriesID)
	dst = append(dst, `,"client_confirmed_at":`...)
	dst = appendJSONNullString(dst, b.ClientConfirmedAt)
	dst = append(dst, `,"created_at":`...)
	dst = jsontext.String(dst, b.CreatedAt)
	dst = append(dst, `,"updated_at":`...)
	dst = jsontext.String(dst, b.UpdatedAt)
	return append(dst, '}')
}

// AppendBookingList appends l's JSON encoding, as Booking.AppendJSON does for one booking.
func AppendBookingList(dst []byte, l List[Booking]) []byte {
	dst = append(dst, `{"data":`...)
	if l.Data == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, b := range l.Data {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = b.AppendJSON(dst)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"pagination":`...)
	dst = l.Pagination.appendJSON(dst)
	return append(dst, '}')
}
