package db

import (
	"context"
	"fmt"
)

// Row is one stored row as column → value, for an export that hands a person everything stored
// about them without a type per table.
type Row map[string]any

// clientRows are the queries of a client's export, by section: each takes the client id as ?1.
var clientRows = []struct{ Section, SQL string }{
	{"profile", "SELECT * FROM clients WHERE id = ?1"},
	{"custom_attributes", `SELECT a.name, v.value FROM client_attribute_values v
JOIN custom_attributes a ON a.id = v.attribute_id WHERE v.client_id = ?1 ORDER BY a.sort_order, a.id`},
	{"bookings", "SELECT * FROM bookings WHERE client_id = ?1 ORDER BY start_at, id"},
	{"messages", `SELECT id, kind, channel, to_address, subject, state, note, send_at, attempts, last_attempt_at, booking_id,
    payment_request_id, created_at FROM messages WHERE recipient = 'client' AND (
    booking_id IN (SELECT id FROM bookings WHERE client_id = ?1)
    OR payment_request_id IN (SELECT payment_request_id FROM bookings WHERE client_id = ?1 AND payment_request_id IS NOT NULL))
ORDER BY id`},
	{"sales", "SELECT * FROM sales WHERE client_id = ?1 ORDER BY id"},
	{"payments", "SELECT t.* FROM transactions t JOIN sales s ON s.id = t.sale_id WHERE s.client_id = ?1 ORDER BY t.id"},
	{"packs", "SELECT * FROM client_packs WHERE client_id = ?1 ORDER BY id"},
	{"waitlist", "SELECT * FROM waitlist_entries WHERE client_id = ?1 ORDER BY id"},
	{"message_optout", "SELECT * FROM message_optouts WHERE client_id = ?1"},
	{"message_channel", "SELECT channel, updated_at FROM client_message_prefs WHERE client_id = ?1"},
	{"notes", "SELECT id, body, author_label, created_at FROM client_notes WHERE client_id = ?1 ORDER BY created_at, id"},
}

// ClientRows reads every row stored about client id, by section (profile, bookings, messages,
// sales, payments, packs, waitlist...). Blobs come back as text.
func (q *Queries) ClientRows(ctx context.Context, clientID int64) (map[string][]Row, error) {
	out := map[string][]Row{}
	for _, s := range clientRows {
		rows, err := q.db.QueryContext(ctx, s.SQL, clientID)
		if err != nil {
			return nil, fmt.Errorf("export %s: %w", s.Section, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return nil, err
		}
		list := []Row{}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, err
			}
			r := Row{}
			for i, c := range cols {
				if b, ok := vals[i].([]byte); ok {
					vals[i] = string(b)
				}
				r[c] = vals[i]
			}
			list = append(list, r)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		out[s.Section] = list
	}
	return out, nil
}
