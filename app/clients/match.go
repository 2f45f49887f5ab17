package clients

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"frontdesk/db"
)

// Match is the client a customer's contact details name.
type Match struct {
	ID                  int64
	FirstName, LastName string
	// By is the detail that matched: "email" or "phone".
	By string
}

// Find is the one rule that tells who a customer is from the details they give (the booking
// site's form, an assistant over MCP): the oldest active client with that email, else the
// oldest active client with that phone. Deactivated clients are never matched. email and phone
// are compared as stored (NormalizeEmail, NormalizePhone); an empty one is not looked up. ok is
// false when nobody matches. q is the read pool, or the write transaction that may create the
// client when nobody does (FindOrCreate).
func Find(ctx context.Context, q *db.Queries, email, phone string) (m Match, ok bool, err error) {
	if email != "" {
		r, err := q.ClientMatchByEmail(ctx, sql.NullString{String: email, Valid: true})
		if err == nil {
			return Match{ID: r.ID, FirstName: r.FirstName, LastName: r.LastName.String, By: "email"}, true, nil
		}
		if !db.IsNotFound(err) {
			return Match{}, false, err
		}
	}
	if phone != "" {
		r, err := q.ClientMatchByPhone(ctx, sql.NullString{String: phone, Valid: true})
		if err == nil {
			return Match{ID: r.ID, FirstName: r.FirstName, LastName: r.LastName.String, By: "phone"}, true, nil
		}
		if !db.IsNotFound(err) {
			return Match{}, false, err
		}
	}
	return Match{}, false, nil
}

// FindOrCreate is the client who gives in as their details (the booking site's form): the one
// Find names by in's email and phone, or a new client made of in, with client.created. A match
// is never shown or changed, except that the answers to custom attributes it has not given yet
// are filled from in (with client.updated): the customer sees the same pages either way. It
// owns its transaction or joins the caller's (db.WithTx), as the booking site does to create
// the client together with the booking. Errors: Errors for an input Create refuses.
func FindOrCreate(ctx context.Context, d *db.DB, now time.Time, in Input) (int64, error) {
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		m, ok, err := Find(ctx, q, in.Email.V, in.Phone.V)
		if err != nil {
			return err
		}
		if !ok {
			c, err := create(ctx, q, now, in, Options{})
			id = c.ID
			return err
		}
		id = m.ID
		have, err := q.ClientAnsweredAttributeIDs(ctx, id)
		if err != nil {
			return err
		}
		var fill []AttributeValue
		for _, a := range in.CustomAttributes {
			if a.Value != nil && strings.TrimSpace(*a.Value) != "" && !slices.Contains(have, a.ID) {
				fill = append(fill, a)
			}
		}
		if len(fill) == 0 {
			return nil
		}
		_, err = update(ctx, q, now, id, Input{CustomAttributes: fill}, Options{})
		return err
	})
	return id, err
}
