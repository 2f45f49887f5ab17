package resource

import (
	"time"

	"frontdesk/db"
)

// Pack is a client's session pack (GET /v3/clients/{id}/packs, an addition): how many sessions
// it holds, how many are used (live bookings with it and late cancels) and left, and until when
// sessions may start with it.
type Pack struct {
	ID            int64   `json:"id"`
	ClientID      int64   `json:"client_id"`
	ServiceID     int64   `json:"service_id"`
	Service       Ref     `json:"service"`
	SessionsTotal int64   `json:"sessions_total"`
	SessionsUsed  int64   `json:"sessions_used"`
	SessionsLeft  int64   `json:"sessions_left"`
	ExpiresAt     *string `json:"expires_at"`
	Expired       bool    `json:"expired"`
	Price         string  `json:"price"`
	SaleID        *int64  `json:"sale_id"`
	CreatedAt     string  `json:"created_at"`
	UpdatedAt     string  `json:"updated_at"`
}

// NewPack builds a pack from its row, its service's name and its use, as of now.
func NewPack(p db.ClientPack, serviceName string, used int64, now time.Time) Pack {
	return Pack{
		ID: p.ID, ClientID: p.ClientID, ServiceID: p.ServiceID, Service: Ref{ID: p.ServiceID, Name: serviceName},
		SessionsTotal: p.SessionsTotal, SessionsUsed: used, SessionsLeft: max(p.SessionsTotal-used, 0),
		ExpiresAt: NullTimestamp(p.ExpiresAt), Expired: p.ExpiresAt.Valid && p.ExpiresAt.Int64 <= now.UnixMilli(),
		Price: Money(p.PriceCents), SaleID: NullInt(p.SaleID),
		CreatedAt: Timestamp(p.CreatedAt), UpdatedAt: Timestamp(p.UpdatedAt),
	}
}

// WaitlistEntry is a client's place on a full class session's waitlist (an addition).
// position is 1 for the next client to get a freed seat, null once the entry is no longer
// waiting; booking_id is the booking a promotion made.
type WaitlistEntry struct {
	ID        int64           `json:"id"`
	SessionID int64           `json:"session_id"`
	ClientID  int64           `json:"client_id"`
	Status    string          `json:"status"`
	Reason    *string         `json:"reason"`
	Position  *int64          `json:"position"`
	BookingID *int64          `json:"booking_id"`
	Session   WaitlistSession `json:"session"`
	CreatedAt string          `json:"created_at"`
	UpdatedAt string          `json:"updated_at"`
}

// WaitlistSession is the session an entry waits for, with times in its location's offset.
type WaitlistSession struct {
	ID         int64  `json:"id"`
	StartTime  string `json:"start_time"`
	EndTime    string `json:"end_time"`
	ServiceID  int64  `json:"service_id"`
	ProviderID int64  `json:"provider_id"`
	LocationID int64  `json:"location_id"`
	Status     string `json:"status"`
}

// NewWaitlistEntry builds an entry; position 0 means not waiting; zone is the session
// location's.
func NewWaitlistEntry(e db.WaitlistEntry, s db.ClassSession, position int64, zone *time.Location) WaitlistEntry {
	out := WaitlistEntry{
		ID: e.ID, SessionID: e.SessionID, ClientID: e.ClientID, Status: e.Status, Reason: NullString(e.Reason),
		BookingID: NullInt(e.BookingID),
		Session: WaitlistSession{
			ID: s.ID, StartTime: LocalTime(s.StartAt, zone), EndTime: LocalTime(s.EndAt, zone),
			ServiceID: s.ServiceID, ProviderID: s.ProviderID, LocationID: s.LocationID, Status: s.Status,
		},
		CreatedAt: Timestamp(e.CreatedAt), UpdatedAt: Timestamp(e.UpdatedAt),
	}
	if position > 0 {
		out.Position = &position
	}
	return out
}
