package clients

import (
	"context"
	"database/sql"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/db"
)

// Notes about a client over time: dated, signed by the staff account that wrote them, newest
// first on the client's page. Adding and deleting one is recorded in the activity trail (the
// note's id, never its text); erasing the client deletes them (erase.go).

// maxNote bounds a note's text, in characters.
const maxNote = 5000

// ErrNoteNotFound means the client has no note with that id.
var ErrNoteNotFound = fail.NotFound("client_note")

// Author is who writes a note: the staff account's id and how the team knows it.
type Author struct {
	ID    int64
	Label string
}

// AddNote stores a note about client id. Its text is trimmed, with browser line endings made
// plain; an empty or too long one is Errors (field "body").
func AddNote(ctx context.Context, d *db.DB, now time.Time, clientID int64, body string, by Author) (db.ClientNote, error) {
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	switch {
	case body == "":
		return db.ClientNote{}, Errors{newFieldError("body", "is required")}
	case !utf8.ValidString(body):
		return db.ClientNote{}, Errors{newFieldError("body", "must be valid UTF-8")}
	case utf8.RuneCountInString(body) > maxNote:
		return db.ClientNote{}, Errors{newFieldError("body", "must be at most 5000 characters")}
	}
	label := by.Label
	if r := []rune(label); len(r) > 254 {
		label = string(r[:254])
	}
	var out db.ClientNote
	err := d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetClient(ctx, clientID); db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		var err error
		out, err = q.InsertClientNote(ctx, db.InsertClientNoteParams{
			ClientID: clientID, Body: body, AuthorID: sql.NullInt64{Int64: by.ID, Valid: by.ID != 0}, AuthorLabel: label, CreatedAt: db.Millis(now),
		})
		if err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "client.note_added", EntityID: clientID,
			Changes: activity.Changes{}.Set("note", nil, out.ID)})
	})
	return out, err
}

// DeleteNote deletes note noteID of client clientID (ErrNoteNotFound when the client has none
// such).
func DeleteNote(ctx context.Context, d *db.DB, now time.Time, clientID, noteID int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.DeleteClientNote(ctx, db.DeleteClientNoteParams{ID: noteID, ClientID: clientID})
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrNoteNotFound
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "client.note_deleted", EntityID: clientID,
			Changes: activity.Changes{}.Set("note", noteID, nil)})
	})
}
