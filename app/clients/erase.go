package clients

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/resource"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// ErasedName is the first name an erased client keeps: bookings stay as anonymous history and
// still need a name to show.
const ErasedName = "Erased client"

// statusCancelled is the booking status of a cancelled booking (booking.StatusCancelled).
const statusCancelled = 5

// ErrOpenBookings refuses to erase a client who still has a booking in progress or to come:
// the owner cancels those first, so nobody turns up to an appointment nobody can trace.
var ErrOpenBookings = fail.Refused("client_has_open_bookings", "the client has bookings in progress or upcoming; cancel them first")

// Erasure is what Erase did.
type Erasure struct {
	Client resource.Client
	// Already is true when the client had been erased before: nothing was written.
	Already bool
	// DroppedMessages counts the pending messages to the client that will not be sent.
	DroppedMessages int64
	// WALKept is true when a reader kept the WAL from being scrubbed after the erasure: the
	// old bytes stay in the WAL file until it is next reset (docs/data.md).
	WALKept bool
}

// Erase removes client id's personal data (GDPR art. 17): the record's personal fields, its
// custom attribute values, the team's notes about them, the copies of its contact details in
// the message log, webhook events and answers, the activity trail and cached API answers, and
// the search index; it drops the messages still to be sent to it. Bookings, sales and packs
// stay, pointing at the erased record, so reports do not change. It emits client.updated
// with the erased fields and records client.erased (who and when, nothing erased). A client
// with an open booking is ErrOpenBookings; erasing twice answers the erased client again
// without writing.
//
// It owns its transaction, with secure_delete on, and scrubs the WAL afterwards, so the old
// bytes are left in neither the database file nor its WAL (db.InTxSecure).
func Erase(ctx context.Context, d *db.DB, now time.Time, id int64) (Erasure, error) {
	var out Erasure
	truncated, err := d.InTxSecure(ctx, func(q *db.Queries) error {
		var err error
		out, err = erase(ctx, q, now, id)
		return err
	})
	out.WALKept = err == nil && !out.Already && !truncated
	return out, err
}

func erase(ctx context.Context, q *db.Queries, now time.Time, id int64) (Erasure, error) {
	c, err := q.GetClient(ctx, id)
	if db.IsNotFound(err) {
		return Erasure{}, ErrNotFound
	}
	if err != nil {
		return Erasure{}, err
	}
	if erased(c) {
		r, err := Load(ctx, q, id)
		return Erasure{Client: r, Already: true}, err
	}
	open, err := q.CountOpenClientBookings(ctx, id, statusCancelled, db.Millis(now))
	if err != nil {
		return Erasure{}, err
	}
	if open > 0 {
		return Erasure{}, ErrOpenBookings
	}
	s := newScrubber(c)
	if err := q.UpdateClient(ctx, db.UpdateClientParams{
		FirstName: ErasedName, Region: "", Gender: 0, RecordNumber: c.RecordNumber,
		Active: false, UpdatedAt: db.Millis(now), ID: id,
	}); err != nil {
		return Erasure{}, err
	}
	if err := q.ClearClientAttributes(ctx, id); err != nil {
		return Erasure{}, err
	}
	if err := q.DeleteClientNotes(ctx, id); err != nil { // the team's notes about them (notes.go)
		return Erasure{}, err
	}
	dropped, err := q.DropPendingClientMessages(ctx, id, "client erased", db.Millis(now))
	if err != nil {
		return Erasure{}, err
	}
	if err := q.ClearClientMessageCopies(ctx, id); err != nil {
		return Erasure{}, err
	}
	texts, err := q.FindTexts(ctx, s.distinct)
	if err != nil {
		return Erasure{}, err
	}
	own, err := q.ClientActivityTexts(ctx, id)
	if err != nil {
		return Erasure{}, err
	}
	for _, t := range append(texts, own...) {
		if clean := s.scrub(t.Text); clean != t.Text {
			if err := q.RewriteText(ctx, t, clean); err != nil {
				return Erasure{}, err
			}
		}
	}
	if err := q.DropIdempotentAnswers(ctx, s.distinct); err != nil {
		return Erasure{}, err
	}
	if err := q.OptimizeClientSearch(ctx); err != nil {
		return Erasure{}, err
	}
	r, err := Load(ctx, q, id)
	if err != nil {
		return Erasure{}, err
	}
	if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.erased", EntityID: id}); err != nil {
		return Erasure{}, err
	}
	if _, err := webhook.Enqueue(ctx, q, now, EventUpdated, r); err != nil {
		return Erasure{}, err
	}
	return Erasure{Client: r, DroppedMessages: dropped}, nil
}

// erased tells an erased record: the erased name, no contact details, inactive.
func erased(c db.Client) bool {
	return c.FirstName == ErasedName && !c.LastName.Valid && !c.Email.Valid && !c.Phone.Valid && !c.Active
}

// scrubber removes one client's data from stored texts. Distinct values (email, phones,
// identification, full name) are cut out wherever they appear; the bare first and last names,
// which other people may share, only where a whole JSON string equals them.
type scrubber struct {
	distinct []string
	exact    map[string]bool
}

func newScrubber(c db.Client) scrubber {
	s := scrubber{exact: map[string]bool{}}
	full := strings.TrimSpace(c.FirstName + " " + c.LastName.String)
	for _, v := range []sql.NullString{c.Email, c.Phone, c.SecondPhone, c.IdentificationNumber, c.Address,
		{String: full, Valid: c.LastName.Valid}} {
		if v.Valid && len(strings.TrimSpace(v.String)) >= 4 {
			s.distinct = append(s.distinct, v.String)
		}
	}
	for _, v := range []string{c.FirstName, c.LastName.String, full, c.Email.String, c.Phone.String} {
		if v != "" {
			s.exact[v] = true
		}
	}
	return s
}

// scrub returns text without the client's data: JSON value by value (it stays valid JSON), any
// other text by cutting the distinct values out.
func (s scrubber) scrub(text string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err == nil && !dec.More() {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s.walk(v)); err == nil {
			return strings.TrimSuffix(b.String(), "\n")
		}
	}
	return s.cut(text)
}

func (s scrubber) walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = s.walk(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = s.walk(e)
		}
		return x
	case string:
		if s.exact[x] {
			return ""
		}
		return s.cut(x)
	}
	return v
}

func (s scrubber) cut(text string) string {
	for _, n := range s.distinct {
		text = strings.ReplaceAll(text, n, "")
	}
	return text
}
