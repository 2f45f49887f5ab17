package export

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// lists are the exports by kind; docs/data.md lists their columns.
var lists = map[string]list{
	"bookings": {
		columns: 14,
		header: func(zone string) []string {
			return []string{"id", "start (" + zone + ")", "end (" + zone + ")", "status", "location", "service", "provider",
				"client id", "client", "client email", "client phone", "price", "list price", "source"}
		},
		query: func(ctx context.Context, d *db.DB, f Filter, _ *time.Location) (string, []any, error) {
			where, args, err := booking.Where(ctx, d.R, f.Bookings)
			if err != nil {
				return "", nil, err
			}
			return `SELECT b.id, b.start_at, b.end_at, st.name, l.name, s.name, p.public_name, c.id,
	trim(c.first_name || ' ' || coalesce(c.last_name, '')), c.email, c.phone, b.price_cents, b.list_price_cents, b.source
FROM bookings b
JOIN booking_statuses st ON st.id = b.status_id
JOIN locations l ON l.id = b.location_id
JOIN services s ON s.id = b.service_id
JOIN providers p ON p.id = b.provider_id
JOIN clients c ON c.id = b.client_id
WHERE ` + where + ` ORDER BY b.start_at, b.id`, args, nil
		},
		row: func(w *Writer, zone *time.Location, v []sql.NullString) []string {
			return []string{v[0].String, at(v[1], zone), at(v[2], zone), v[3].String, v[4].String, v[5].String, v[6].String,
				v[7].String, v[8].String, v[9].String, v[10].String, amount(w, v[11]), amount(w, v[12]), v[13].String}
		},
	},
	"clients": {
		columns: 14,
		header: func(zone string) []string {
			return []string{"id", "first name", "last name", "email", "phone", "second phone", "identification number",
				"record number", "address", "district", "city", "region", "active", "created (" + zone + ")"}
		},
		query: func(_ context.Context, _ *db.DB, f Filter, zone *time.Location) (string, []any, error) {
			where, args := createdWhere("c.created_at", f, zone)
			switch f.ClientStatus {
			case "", "active":
				where += " AND c.active = 1"
			case "inactive":
				where += " AND c.active = 0"
			}
			if f.ClientSearch != "" {
				where += ` AND instr(lower(c.first_name || ' ' || coalesce(c.last_name, '') || ' ' || coalesce(c.email, '') || ' '
	|| coalesce(c.phone, '') || ' ' || coalesce(c.identification_number, '') || ' ' || coalesce(c.record_number, '')), ?) > 0`
				args = append(args, strings.ToLower(f.ClientSearch))
			}
			return `SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.second_phone, c.identification_number,
	c.record_number, c.address, c.district, c.city, c.region, c.active, c.created_at
FROM clients c WHERE ` + where + ` ORDER BY c.id`, args, nil
		},
		row: func(_ *Writer, zone *time.Location, v []sql.NullString) []string {
			return []string{v[0].String, v[1].String, v[2].String, v[3].String, v[4].String, v[5].String, v[6].String,
				v[7].String, v[8].String, v[9].String, v[10].String, v[11].String, yesNo(v[12]), at(v[13], zone)}
		},
	},
	// Sales, one row per line: a sale's own columns repeat on each of its lines, so a
	// spreadsheet can sum lines or pick one row per sale id.
	"sales": {
		columns: 15,
		header: func(zone string) []string {
			return []string{"sale id", "created (" + zone + ")", "paid (" + zone + ")", "status", "location", "client id", "client",
				"sale paid", "sale pending", "line", "item type", "item", "quantity", "unit price", "unit discount"}
		},
		query: func(_ context.Context, _ *db.DB, f Filter, zone *time.Location) (string, []any, error) {
			where, args := createdWhere("s.created_at", f, zone)
			return `SELECT s.id, s.created_at, s.paid_at, s.status, l.name, s.client_id,
	trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')), s.paid_cents, s.pending_cents,
	i.position + 1, i.item_type, i.item_name, i.quantity, i.unit_price_cents, i.unit_discount_cents
FROM sales s
JOIN locations l ON l.id = s.location_id
LEFT JOIN clients c ON c.id = s.client_id
LEFT JOIN cart_items i ON i.cart_id = s.cart_id
WHERE ` + where + ` ORDER BY s.id, i.position, i.id`, args, nil
		},
		row: func(w *Writer, zone *time.Location, v []sql.NullString) []string {
			return []string{v[0].String, at(v[1], zone), at(v[2], zone), v[3].String, v[4].String, v[5].String, v[6].String,
				amount(w, v[7]), amount(w, v[8]), v[9].String, v[10].String, v[11].String, v[12].String, amount(w, v[13]), amount(w, v[14])}
		},
	},
	"payments": {
		columns: 8,
		header: func(zone string) []string {
			return []string{"id", "created (" + zone + ")", "amount", "status", "channel", "expires (" + zone + ")",
				"paid (" + zone + ")", "client"}
		},
		query: func(_ context.Context, _ *db.DB, f Filter, zone *time.Location) (string, []any, error) {
			where, args := createdWhere("r.created_at", f, zone)
			if f.PaymentStatus != "" {
				where += " AND r.status = ?"
				args = append(args, f.PaymentStatus)
			}
			return `SELECT r.id, r.created_at, r.amount_cents, r.status, r.channel, r.expires_at, r.paid_at,
	trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, ''))
FROM payment_requests r
JOIN carts k ON k.id = r.cart_id
LEFT JOIN clients c ON c.id = k.client_id
WHERE ` + where + ` ORDER BY r.id`, args, nil
		},
		row: func(w *Writer, zone *time.Location, v []sql.NullString) []string {
			return []string{v[0].String, at(v[1], zone), amount(w, v[2]), v[3].String, v[4].String, at(v[5], zone),
				at(v[6], zone), v[7].String}
		},
	},
}

// messagesList is the customer message log, newest first as on its page.
var messagesList = list{
	columns: 12,
	header: func(zone string) []string {
		return []string{"id", "send at (" + zone + ")", "kind", "recipient", "to", "subject", "state", "attempts",
			"last attempt (" + zone + ")", "note", "booking id", "payment request id"}
	},
	query: func(_ context.Context, _ *db.DB, f Filter, zone *time.Location) (string, []any, error) {
		where, args := createdWhere("m.send_at", f, zone)
		if f.MessageState != "" {
			where += " AND m.state = ?"
			args = append(args, f.MessageState)
		}
		if f.MessageKind != "" {
			where += " AND m.kind = ?"
			args = append(args, f.MessageKind)
		}
		if f.MessageSearch != "" {
			where += " AND (m.to_address LIKE '%' || ? || '%' OR m.message_key = ?)"
			args = append(args, f.MessageSearch, f.MessageSearch)
		}
		return `SELECT m.id, m.send_at, m.kind, m.recipient, m.to_address, m.subject, m.state, m.attempts, m.last_attempt_at,
	m.note, m.booking_id, m.payment_request_id
FROM messages m WHERE ` + where + ` ORDER BY m.send_at DESC, m.id DESC`, args, nil
	},
	row: func(_ *Writer, zone *time.Location, v []sql.NullString) []string {
		return []string{v[0].String, at(v[1], zone), v[2].String, v[3].String, v[4].String, v[5].String, v[6].String,
			v[7].String, at(v[8], zone), v[9].String, v[10].String, v[11].String}
	},
}

func init() { lists["messages"] = messagesList }

// createdWhere narrows column (milliseconds) to the filter's dates in zone, both inclusive.
func createdWhere(column string, f Filter, zone *time.Location) (string, []any) {
	where := []string{"1 = 1"}
	var args []any
	if f.From != nil {
		where = append(where, column+" >= ?")
		args = append(args, booking.DayStart(zone, *f.From).UnixMilli())
	}
	if f.To != nil {
		where = append(where, column+" < ?")
		args = append(args, booking.DayStart(zone, f.To.AddDays(1)).UnixMilli())
	}
	return strings.Join(where, " AND "), args
}

// at is a stored time (milliseconds) in zone; "" for none.
func at(v sql.NullString, zone *time.Location) string {
	ms, err := strconv.ParseInt(v.String, 10, 64)
	if !v.Valid || err != nil {
		return ""
	}
	return Time(&ms, zone)
}

// amount is stored hundredths as a plain number; "" for none.
func amount(w *Writer, v sql.NullString) string {
	c, err := strconv.ParseInt(v.String, 10, 64)
	if !v.Valid || err != nil {
		return ""
	}
	return w.Amount(c)
}

func yesNo(v sql.NullString) string {
	if v.String == "1" || v.String == "true" {
		return "yes"
	}
	return "no"
}
