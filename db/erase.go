package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Erasing a person's data reaches into tables no single query file owns (the message log, the
// webhook outbox, the activity trail, cached API answers), so its statements live here, written
// by hand: each is a plain scan or rewrite keyed by the table and column it names.

// Scrubbed is one stored text that holds a person's data: where it is and what it says.
type Scrubbed struct {
	Table, Column string
	RowID         int64
	Text          string
}

// scrubbable are the texts that may copy a client's contact details: the message log (address,
// subject, server replies), webhook event bodies and the receivers' answers, the activity trail.
var scrubbable = [][2]string{
	{"messages", "to_address"}, {"messages", "subject"}, {"messages", "note"}, {"messages", "detail_json"},
	{"message_attempts", "to_address"}, {"message_attempts", "reply"},
	{"events", "body"}, {"delivery_texts", "text"},
	{"activity", "changes"}, {"activity", "actor_label"}, {"bookings", "notes"},
}

// FindTexts lists every scrubbable text that contains one of needles (empty needles are
// ignored). It scans whole tables: erasure is rare and must not miss a row.
func (q *Queries) FindTexts(ctx context.Context, needles []string) ([]Scrubbed, error) {
	var conds []string
	var args []any
	for _, n := range needles {
		if n != "" {
			conds = append(conds, "instr(CAST(%[1]s AS TEXT), ?) > 0")
			args = append(args, n)
		}
	}
	if len(conds) == 0 {
		return nil, nil
	}
	var out []Scrubbed
	for _, tc := range scrubbable {
		where := fmt.Sprintf(strings.Join(conds, " OR "), tc[1])
		rows, err := q.db.QueryContext(ctx, fmt.Sprintf("SELECT rowid, CAST(%s AS TEXT) FROM %s WHERE %s", tc[1], tc[0], where), args...)
		if err != nil {
			return nil, fmt.Errorf("scan %s.%s: %w", tc[0], tc[1], err)
		}
		for rows.Next() {
			s := Scrubbed{Table: tc[0], Column: tc[1]}
			if err := rows.Scan(&s.RowID, &s.Text); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, s)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RewriteText stores text in place of s. Event bodies stay blobs, as the outbox writes them.
func (q *Queries) RewriteText(ctx context.Context, s Scrubbed, text string) error {
	value := any(text)
	if s.Table == "events" {
		value = []byte(text)
	}
	if s.Table == "delivery_texts" {
		// The texts are unique: a rewritten one may now equal another; the old row keeps its id
		// (attempts point to it) and a duplicate only gets a distinguishing suffix.
		text = fmt.Sprintf("%s [%d]", text, s.RowID)
		value = text
	}
	_, err := q.db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET %s = ? WHERE rowid = ?", s.Table, s.Column), value, s.RowID)
	return err
}

// DropIdempotentAnswers deletes cached /v3 answers that contain one of needles: a retry of that
// request is answered afresh instead of replaying the person's data.
func (q *Queries) DropIdempotentAnswers(ctx context.Context, needles []string) error {
	for _, n := range needles {
		if n == "" {
			continue
		}
		if _, err := q.db.ExecContext(ctx, "DELETE FROM idempotency_keys WHERE instr(CAST(response_body AS TEXT), ?) > 0", n); err != nil {
			return err
		}
	}
	return nil
}

// ClearClientAttributes deletes every custom attribute value of client id, and their preferred
// channel for messages.
func (q *Queries) ClearClientAttributes(ctx context.Context, clientID int64) error {
	if _, err := q.db.ExecContext(ctx, "DELETE FROM client_message_prefs WHERE client_id = ?", clientID); err != nil {
		return err
	}
	_, err := q.db.ExecContext(ctx, "DELETE FROM client_attribute_values WHERE client_id = ?", clientID)
	return err
}

// DropPendingClientMessages marks every message still to be sent to client id as skipped with
// note, and reports how many.
func (q *Queries) DropPendingClientMessages(ctx context.Context, clientID int64, note string, now int64) (int64, error) {
	r, err := q.db.ExecContext(ctx, `UPDATE messages SET state = 'skipped', note = ?, next_attempt_at = NULL, updated_at = ?
WHERE state = 'pending' AND recipient = 'client' AND (
    booking_id IN (SELECT id FROM bookings WHERE client_id = ?)
    OR payment_request_id IN (SELECT payment_request_id FROM bookings WHERE client_id = ? AND payment_request_id IS NOT NULL))`,
		note, now, clientID, clientID)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

// CountOpenClientBookings counts the bookings of client id that are not cancelled and have not
// ended by now: in progress or upcoming.
func (q *Queries) CountOpenClientBookings(ctx context.Context, clientID, cancelledStatus, now int64) (int64, error) {
	var n int64
	err := q.db.QueryRowContext(ctx, "SELECT count(*) FROM bookings WHERE client_id = ? AND status_id != ? AND end_at > ?",
		clientID, cancelledStatus, now).Scan(&n)
	return n, err
}

// OptimizeClientSearch merges the client search index into one segment, so the index keeps no
// entries of a client's former text.
func (q *Queries) OptimizeClientSearch(ctx context.Context) error {
	_, err := q.db.ExecContext(ctx, "INSERT INTO client_search (client_search) VALUES ('optimize')")
	return err
}

// InTxSecure is InTx with SQLite's secure_delete on, so the pages the write frees or rewrites
// are overwritten with zeros, followed by scrubWAL, so the old page images leave the WAL too.
// A reader holding an old snapshot (a long backup, Litestream) can keep them there: the write
// stands, and scrubbed is false — the old frames go when the WAL is next reset.
func (d *DB) InTxSecure(ctx context.Context, fn func(q *Queries) error) (scrubbed bool, err error) {
	if _, err := d.Write.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		return false, fmt.Errorf("secure_delete: %w", err)
	}
	err = d.InTx(ctx, fn)
	if _, perr := d.Write.ExecContext(context.WithoutCancel(ctx), "PRAGMA secure_delete = OFF"); perr != nil && err == nil {
		err = fmt.Errorf("secure_delete: %w", perr)
	}
	if err != nil {
		return false, err
	}
	return d.scrubWAL(context.WithoutCancel(ctx))
}

// scrubWAL removes old page images from the WAL without forcing a checkpoint mode that would
// wait on readers or reset the WAL under Litestream (which keeps its place there). A passive
// checkpoint copies every frame no reader still needs into the database file; when it copies
// them all, SQLite restarts the WAL at the next commit, and with journal_size_limit at 0 that
// commit truncates the file to its own frames. The commit is the smallest write there is:
// page 1, rewritten with the user_version it already holds. The WAL having restarted — fewer
// frames in it than before — is the proof. No background checkpoint runs meanwhile
// (checkpoint.go): it would hold SQLite's checkpoint lock and this one would give up.
func (d *DB) scrubWAL(ctx context.Context) (scrubbed bool, err error) {
	d.checkpoints.exclusive(func() { scrubbed, err = d.scrubWALAlone(ctx) })
	return scrubbed, err
}

func (d *DB) scrubWALAlone(ctx context.Context) (bool, error) {
	conn, err := d.Write.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA journal_size_limit = 0"); err != nil {
		return false, fmt.Errorf("journal_size_limit: %w", err)
	}
	defer conn.ExecContext(ctx, "PRAGMA journal_size_limit = -1")
	before, done, err := passiveCheckpoint(ctx, conn)
	if err != nil || done < before {
		return false, err
	}
	var version int64
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return false, fmt.Errorf("user_version: %w", err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return false, fmt.Errorf("user_version: %w", err)
	}
	after, _, err := passiveCheckpoint(ctx, conn)
	return err == nil && after < before, err
}

// passiveCheckpoint runs a passive checkpoint and reports the frames in the WAL and how many of
// them are now in the database file.
func passiveCheckpoint(ctx context.Context, conn *sql.Conn) (frames, copied int64, err error) {
	var busy int64
	if err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		return 0, 0, fmt.Errorf("checkpoint: %w", err)
	}
	return frames, copied, nil
}

// ClientActivityTexts lists the change records of client id in the activity trail.
func (q *Queries) ClientActivityTexts(ctx context.Context, clientID int64) ([]Scrubbed, error) {
	rows, err := q.db.QueryContext(ctx, "SELECT rowid, changes FROM activity WHERE entity = 'client' AND entity_id = ?", clientID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Scrubbed
	for rows.Next() {
		s := Scrubbed{Table: "activity", Column: "changes"}
		if err := rows.Scan(&s.RowID, &s.Text); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// ClearClientMessageCopies empties the address and rendered subject of every message to client
// id, and the address of their attempts.
func (q *Queries) ClearClientMessageCopies(ctx context.Context, clientID int64) error {
	const mine = `recipient = 'client' AND (
    booking_id IN (SELECT id FROM bookings WHERE client_id = ?1)
    OR payment_request_id IN (SELECT payment_request_id FROM bookings WHERE client_id = ?1 AND payment_request_id IS NOT NULL))`
	if _, err := q.db.ExecContext(ctx, "UPDATE message_attempts SET to_address = '' WHERE message_id IN (SELECT id FROM messages WHERE "+mine+")", clientID); err != nil {
		return err
	}
	_, err := q.db.ExecContext(ctx, "UPDATE messages SET to_address = '', subject = '' WHERE "+mine, clientID)
	return err
}
