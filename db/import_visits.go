package db

import (
	"context"
	"database/sql"
)

// ImportAppointmentWaitParams is a wait of the waitlist for appointments as an import writes
// it, in any status (app/importer).
type ImportAppointmentWaitParams struct {
	ClientID, LocationID, ServiceID int64
	ProviderID                      sql.NullInt64
	FirstDay, LastDay, Status       string
	BookingID                       sql.NullInt64
	Source                          string
	CreatedAt, UpdatedAt            int64
}

// ImportAppointmentWait writes an imported wait.
func (q *Queries) ImportAppointmentWait(ctx context.Context, p ImportAppointmentWaitParams) error {
	_, err := q.db.ExecContext(ctx, `INSERT INTO appointment_waits (client_id, location_id, service_id, provider_id, first_day,
		last_day, status, booking_id, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ClientID, p.LocationID, p.ServiceID, p.ProviderID, p.FirstDay, p.LastDay, p.Status, p.BookingID, p.Source, p.CreatedAt, p.UpdatedAt)
	return err
}

// LinkImportedBookingSeries makes an imported booking a date of series id.
func (q *Queries) LinkImportedBookingSeries(ctx context.Context, bookingID, seriesID int64) error {
	_, err := q.db.ExecContext(ctx, `UPDATE bookings SET series_id = ? WHERE id = ?`, seriesID, bookingID)
	return err
}
