package activity

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/db"
)

// Item is one entry as a reader sees it.
type Item struct {
	ID       int64
	At       time.Time
	Actor    Actor
	Action   string
	Entity   string
	EntityID int64
	Changes  []Change // by field name
	IP       string
}

// Change is one field of an entry's diff, its values as text ("" for none).
type Change struct {
	Field    string
	Old, New string
}

// Filter narrows List. Zero fields filter nothing.
type Filter struct {
	// Actor is a kind ("site") or a kind and id ("owner:3"), as ActorRef writes it.
	Actor string
	// Prefix is the first word of the action: "booking" for booking.created, booking.moved, ….
	Prefix string
	// From and To bound the time, To excluded.
	From, To time.Time
	// Before is the page cursor: only entries with a smaller id (List's next).
	Before int64
}

// ActorRef is how a filter names an actor: "kind:id", or the kind alone when it has no id.
func ActorRef(a Actor) string {
	if a.ID == "" {
		return string(a.Kind)
	}
	return string(a.Kind) + ":" + a.ID
}

// List returns up to limit entries matching f, newest first, and the cursor of the next page
// (0 when there is none).
func List(ctx context.Context, q *db.Queries, f Filter, limit int) ([]Item, int64, error) {
	kind, id, hasID := strings.Cut(f.Actor, ":")
	p := db.ListActivityParams{ActorKind: kind, AnyActorID: !hasID, ActorID: id, Prefix: f.Prefix,
		BeforeID: f.Before, Lim: int64(limit) + 1}
	if !f.From.IsZero() {
		p.FromAt = db.Millis(f.From)
	}
	if !f.To.IsZero() {
		p.ToAt = db.Millis(f.To)
	}
	rows, err := q.ListActivity(ctx, p)
	if err != nil {
		return nil, 0, fmt.Errorf("activity: %w", err)
	}
	var next int64
	if len(rows) > limit {
		rows = rows[:limit]
		next = rows[limit-1].ID
	}
	return items(rows), next, nil
}

// ForEntity returns the latest limit entries about one booking, client, service, ….
func ForEntity(ctx context.Context, q *db.Queries, entity string, id int64, limit int) ([]Item, error) {
	rows, err := q.ListEntityActivity(ctx, db.ListEntityActivityParams{Entity: entity, EntityID: id, Lim: int64(limit)})
	if err != nil {
		return nil, fmt.Errorf("activity of %s %d: %w", entity, id, err)
	}
	return items(rows), nil
}

// Actors lists who has entries, each once with their latest label, for a filter to offer; the
// booking site's customers are left out (they are many; the "client" kind filters them).
func Actors(ctx context.Context, q *db.Queries) ([]Actor, error) {
	rows, err := q.ListActivityActors(ctx)
	if err != nil {
		return nil, fmt.Errorf("activity actors: %w", err)
	}
	out := make([]Actor, len(rows))
	for i, r := range rows {
		out[i] = Actor{Kind: Kind(r.ActorKind), ID: r.ActorID, Label: r.ActorLabel}
	}
	return out, nil
}

func items(rows []db.Activity) []Item {
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = Item{ID: r.ID, At: db.Time(r.At), Actor: Actor{Kind: Kind(r.ActorKind), ID: r.ActorID, Label: r.ActorLabel},
			Action: r.Action, Entity: r.Entity, EntityID: r.EntityID, Changes: decode(r.Changes), IP: r.IP}
	}
	return out
}

// decode reads a stored diff; an entry that cannot be read shows no fields rather than failing
// the page.
func decode(s string) []Change {
	var m map[string][2]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil
	}
	out := make([]Change, 0, len(m))
	for field, v := range m {
		out = append(out, Change{Field: field, Old: text(v[0]), New: text(v[1])})
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Field, b.Field) })
	return out
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}
