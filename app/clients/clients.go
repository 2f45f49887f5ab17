// Package clients creates, changes and deactivates client records for both callers that write
// them: the /v3 API and the admin UI. Validation, the write and the client.created /
// client.updated webhook event all happen in one transaction, so a rejected input leaves no
// trace and an accepted one is never without its event.
package clients

import (
	"context"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/resource"
	"frontdesk/app/webhook"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Event types this package emits.
const (
	EventCreated = "client.created"
	EventUpdated = "client.updated"
)

var (
	// ErrNotFound means there is no client with that id.
	ErrNotFound = fail.NotFound("client")
	// ErrAlreadyDeactivated refuses to deactivate a client twice.
	ErrAlreadyDeactivated = fail.Refused("client_already_deactivated", "client already deactivated")
)

// Field is one optional input value, so one Input serves create and merge-style update: absent
// (Set false) keeps the stored value (the default on create), Null clears it, V replaces it.
type Field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// Value is a field set to v.
func Value[T any](v T) Field[T] { return Field[T]{Set: true, V: v} }

// Null is a field set to null (cleared).
func Null[T any]() Field[T] { return Field[T]{Set: true, Null: true} }

// Input is what a caller wants to write. Strings are trimmed; an empty string clears an
// optional field.
type Input struct {
	FirstName            Field[string]
	LastName             Field[string]
	Email                Field[string]
	Phone                Field[string]
	SecondPhone          Field[string]
	IdentificationNumber Field[string]
	Address              Field[string]
	District             Field[string]
	City                 Field[string]
	Region               Field[string]
	Age                  Field[int64]
	Gender               Field[int64]
	BirthDay             Field[int64]
	BirthMonth           Field[int64]
	BirthYear            Field[int64]
	RecordNumber         Field[string]
	Photo                Field[string]
	Nationality          Field[string]
	PhoneCountry         Field[string]
	Active               Field[bool]
	// CustomAttributes sets (or, with a nil Value, clears) the listed attributes; attributes not
	// listed keep their values.
	CustomAttributes []AttributeValue
}

// AttributeValue is a custom attribute value as text, checked against the template's datatype.
type AttributeValue struct {
	ID    int64
	Value *string
}

// Options tune validation for a caller.
type Options struct {
	// RequireMandatory makes templates marked mandatory required. The admin UI sets it; the API
	// does not, so Connect v3 integrations that know nothing of custom attributes keep working.
	RequireMandatory bool
}

// FieldError is one rejected field, named as the API names it ("email",
// "custom_attributes.3").
type FieldError struct {
	Field   string
	Message string
	// Msg is Message in the owner's words, translated by the admin UI (messages.go).
	Msg i18n.Msg
}

// Errors lists every rejected field of an input, in field order.
type Errors []FieldError

// Fail is the first rejected field as the shared vocabulary says it.
func (e Errors) Fail() *fail.Error {
	if len(e) == 0 {
		return nil
	}
	return &fail.Error{Code: fail.CodeInvalid, Field: e[0].Field, Message: e[0].Message, Msg: e[0].Msg}
}

func (e Errors) Error() string {
	parts := make([]string, len(e))
	for i, f := range e {
		parts[i] = f.Field + ": " + f.Message
	}
	return strings.Join(parts, "; ")
}

// Create validates in and stores a new client with its client.created event. It owns its
// transaction, or joins the caller's (db.WithTx) for a client created together with something
// else.
func Create(ctx context.Context, d *db.DB, now time.Time, in Input, o Options) (resource.Client, error) {
	var out resource.Client
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		out, err = create(ctx, q, now, in, o)
		return err
	})
	return out, err
}

// create is Create inside the write transaction q.
func create(ctx context.Context, q *db.Queries, now time.Time, in Input, o Options) (resource.Client, error) {
	templates, err := loadTemplates(ctx, q)
	if err != nil {
		return resource.Client{}, err
	}
	row, attrs, err := merge(db.Client{Active: true}, nil, in, templates, o, now)
	if err != nil {
		return resource.Client{}, err
	}
	if err := checkRecordNumber(ctx, q, row); err != nil {
		return resource.Client{}, err
	}
	ms := db.Millis(now)
	created, err := q.CreateClient(ctx, db.CreateClientParams{
		FirstName: row.FirstName, LastName: row.LastName, Email: row.Email, Phone: row.Phone,
		SecondPhone: row.SecondPhone, IdentificationNumber: row.IdentificationNumber, Address: row.Address,
		District: row.District, City: row.City, Region: row.Region, Age: row.Age, Gender: row.Gender,
		BirthDay: row.BirthDay, BirthMonth: row.BirthMonth, BirthYear: row.BirthYear,
		RecordNumber: row.RecordNumber, Photo: row.Photo, Nationality: row.Nationality,
		PhoneCountry: row.PhoneCountry, Active: row.Active, CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return resource.Client{}, err
	}
	if err := writeAttributes(ctx, q, created.ID, nil, attrs); err != nil {
		return resource.Client{}, err
	}
	out, err := Load(ctx, q, created.ID)
	if err != nil {
		return resource.Client{}, err
	}
	if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.created", EntityID: created.ID,
		Changes: activity.Created(created, unrecorded...)}); err != nil {
		return resource.Client{}, err
	}
	_, err = webhook.Enqueue(ctx, q, now, EventCreated, out)
	return out, err
}

// Update merges in into client id. An input that changes nothing writes nothing and emits no
// event; anything else bumps updated_at and emits client.updated. It owns its transaction, or
// joins the caller's (db.WithTx).
func Update(ctx context.Context, d *db.DB, now time.Time, id int64, in Input, o Options) (resource.Client, error) {
	var out resource.Client
	err := d.InTx(ctx, func(q *db.Queries) error {
		var err error
		out, err = update(ctx, q, now, id, in, o)
		return err
	})
	return out, err
}

// update is Update inside the write transaction q.
func update(ctx context.Context, q *db.Queries, now time.Time, id int64, in Input, o Options) (resource.Client, error) {
	current, err := q.GetClient(ctx, id)
	if db.IsNotFound(err) {
		return resource.Client{}, ErrNotFound
	}
	if err != nil {
		return resource.Client{}, err
	}
	stored, err := q.ListClientAttributeValues(ctx, id)
	if err != nil {
		return resource.Client{}, err
	}
	before := map[int64]string{}
	for _, v := range stored {
		before[v.AttributeID] = v.Value.String
	}
	templates, err := loadTemplates(ctx, q)
	if err != nil {
		return resource.Client{}, err
	}
	row, attrs, err := merge(current, before, in, templates, o, now)
	if err != nil {
		return resource.Client{}, err
	}
	if row == current && !attributesChange(before, attrs) {
		return Load(ctx, q, id)
	}
	if err := checkRecordNumber(ctx, q, row); err != nil {
		return resource.Client{}, err
	}
	if err := q.UpdateClient(ctx, db.UpdateClientParams{
		FirstName: row.FirstName, LastName: row.LastName, Email: row.Email, Phone: row.Phone,
		SecondPhone: row.SecondPhone, IdentificationNumber: row.IdentificationNumber, Address: row.Address,
		District: row.District, City: row.City, Region: row.Region, Age: row.Age, Gender: row.Gender,
		BirthDay: row.BirthDay, BirthMonth: row.BirthMonth, BirthYear: row.BirthYear,
		RecordNumber: row.RecordNumber, Photo: row.Photo, Nationality: row.Nationality,
		PhoneCountry: row.PhoneCountry, Active: row.Active, UpdatedAt: db.Millis(now), ID: id,
	}); err != nil {
		return resource.Client{}, err
	}
	if err := writeAttributes(ctx, q, id, before, attrs); err != nil {
		return resource.Client{}, err
	}
	out, err := Load(ctx, q, id)
	if err != nil {
		return resource.Client{}, err
	}
	changes := activity.Diff(current, row, unrecorded...)
	if attributesChange(before, attrs) {
		changes["custom_attributes"] = [2]any{nil, nil}
	}
	if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.updated", EntityID: id, Changes: changes}); err != nil {
		return resource.Client{}, err
	}
	_, err = webhook.Enqueue(ctx, q, now, EventUpdated, out)
	return out, err
}

// Deactivate soft-deletes client id (it stays readable, with active false) and emits
// client.updated. Deactivating twice is ErrAlreadyDeactivated.
func Deactivate(ctx context.Context, d *db.DB, now time.Time, id int64) (resource.Client, error) {
	var out resource.Client
	err := d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.DeactivateClient(ctx, db.DeactivateClientParams{UpdatedAt: db.Millis(now), ID: id})
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := q.GetClient(ctx, id); db.IsNotFound(err) {
				return ErrNotFound
			} else if err != nil {
				return err
			}
			return ErrAlreadyDeactivated
		}
		out, err = Load(ctx, q, id)
		if err != nil {
			return err
		}
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.deactivated", EntityID: id,
			Changes: activity.Changes{}.Set("active", true, false)}); err != nil {
			return err
		}
		_, err = webhook.Enqueue(ctx, q, now, EventUpdated, out)
		return err
	})
	return out, err
}

// unrecorded are client columns the activity trail leaves out: every write moves them.
var unrecorded = []string{"id", "created_at", "updated_at"}

// Load reads client id as its resource, with the values of its custom attributes.
func Load(ctx context.Context, q *db.Queries, id int64) (resource.Client, error) {
	c, err := q.GetClient(ctx, id)
	if db.IsNotFound(err) {
		return resource.Client{}, ErrNotFound
	}
	if err != nil {
		return resource.Client{}, err
	}
	values, err := q.ListClientAttributeValues(ctx, id)
	if err != nil {
		return resource.Client{}, err
	}
	attrs := make([]resource.CustomAttribute, 0, len(values))
	for _, v := range values {
		attrs = append(attrs, resource.NewCustomAttribute(v.AttributeID, v.Name, v.Datatype, v.Value))
	}
	return resource.NewClient(c, attrs), nil
}

// checkRecordNumber turns a duplicate record number into a field error instead of a failed
// UNIQUE constraint.
func checkRecordNumber(ctx context.Context, q *db.Queries, row db.Client) error {
	if !row.RecordNumber.Valid {
		return nil
	}
	taken, err := q.ClientRecordNumberTaken(ctx, db.ClientRecordNumberTakenParams{RecordNumber: row.RecordNumber, ID: row.ID})
	if err != nil {
		return err
	}
	if taken {
		return Errors{newFieldError("record_number", "is already used by another client")}
	}
	return nil
}

// writeAttributes applies the attribute values that differ from before (nil on create).
func writeAttributes(ctx context.Context, q *db.Queries, clientID int64, before map[int64]string, after map[int64]*string) error {
	for id, v := range after {
		old, had := before[id]
		switch {
		case v == nil && had:
			if err := q.DeleteClientAttributeValue(ctx, db.DeleteClientAttributeValueParams{ClientID: clientID, AttributeID: id}); err != nil {
				return err
			}
		case v != nil && (!had || old != *v):
			if err := q.SetClientAttributeValue(ctx, db.SetClientAttributeValueParams{
				ClientID: clientID, AttributeID: id, Value: nullString(*v),
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

func attributesChange(before map[int64]string, after map[int64]*string) bool {
	for id, v := range after {
		old, had := before[id]
		if (v == nil && had) || (v != nil && (!had || old != *v)) {
			return true
		}
	}
	return false
}
