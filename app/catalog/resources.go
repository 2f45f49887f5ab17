package catalog

import (
	"context"
	"slices"
	"strconv"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// Resources are the rooms and equipment of a location that services require besides a
// provider, each with a quantity (docs/visits.md, "Resources"). The booking engine reads them
// (app/booking/resources.go); the database makes bookings hold them and refuses a hold over the
// quantity (db/migrations/00550_resources.sql).

// ResourceInput is a resource as the owner types it.
type ResourceInput struct {
	LocationID string `form:"location_id"`
	Name       string `form:"name"`
	Kind       string `form:"kind"`
	Quantity   string `form:"quantity"`
}

// Resource kinds.
const (
	ResourceRoom      = "room"
	ResourceEquipment = "equipment"
)

// MaxResourceQuantity bounds a resource's quantity (the schema's CHECK).
const MaxResourceQuantity = 1000

type resourceFields struct {
	location int64
	name     string
	kind     string
	quantity int64
}

func (in ResourceInput) check(ctx context.Context, q *db.Queries, editing bool) (resourceFields, error) {
	p := problems{}
	var f resourceFields
	if !editing {
		locs, err := q.ResourceLocationIDs(ctx)
		if err != nil {
			return f, err
		}
		known := map[int64]bool{}
		for _, id := range locs {
			known[id] = true
		}
		id, ok := p.optionalID("location_id", in.LocationID, known)
		if !ok {
			p.add("location_id", "Choose a location.")
		}
		f.location = id
	}
	f.name = p.name("name", in.Name, true, MaxName)
	switch in.Kind {
	case "", ResourceRoom:
		f.kind = ResourceRoom
	case ResourceEquipment:
		f.kind = ResourceEquipment
	default:
		p.add("kind", "Choose room or equipment.")
	}
	f.quantity = p.whole("quantity", in.Quantity, 1, 1, MaxResourceQuantity)
	return f, p.err()
}

// EditResource is the input that shows resource r unchanged.
func EditResource(r db.Resource) ResourceInput {
	return ResourceInput{LocationID: strconv.FormatInt(r.LocationID, 10), Name: r.Name, Kind: r.Kind, Quantity: strconv.FormatInt(r.Quantity, 10)}
}

// CreateResource stores a new resource at a location.
func CreateResource(ctx context.Context, d *db.DB, in ResourceInput, now time.Time) (int64, error) {
	ms := db.Millis(now)
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		f, err := in.check(ctx, q, false)
		if err != nil {
			return err
		}
		r, err := q.InsertResource(ctx, db.InsertResourceParams{
			LocationID: f.location, Name: f.name, Kind: f.kind, Quantity: f.quantity, CreatedAt: ms, UpdatedAt: ms,
		})
		if db.IsConstraint(err, "UNIQUE") {
			return &Invalid{Fields: map[string]string{"name": "This location already has a resource with this name."}}
		}
		if err != nil {
			return err
		}
		id = r.ID
		return record(ctx, q, now, "resource.created", id, activity.Created(r, unrecorded...))
	})
	return id, err
}

// UpdateResource renames resource id or changes its kind or quantity (its location stays). A
// lower quantity leaves the bookings already holding it as they are; new bookings see it.
func UpdateResource(ctx context.Context, d *db.DB, id int64, in ResourceInput, now time.Time) (Saved, error) {
	var saved Saved
	err := d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetResource(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		f, err := in.check(ctx, q, true)
		if err != nil {
			return err
		}
		if old.Name == f.name && old.Kind == f.kind && old.Quantity == f.quantity {
			return nil
		}
		saved.Changed = true
		if _, err := q.UpdateResource(ctx, db.UpdateResourceParams{ID: id, Name: f.name, Kind: f.kind, Quantity: f.quantity, UpdatedAt: db.Millis(now)}); db.IsConstraint(err, "UNIQUE") {
			return &Invalid{Fields: map[string]string{"name": "This location already has a resource with this name."}}
		} else if err != nil {
			return err
		}
		ch := activity.Changes{}.Set("name", old.Name, f.name).Set("kind", old.Kind, f.kind).Set("quantity", old.Quantity, f.quantity)
		return record(ctx, q, now, "resource.updated", id, ch)
	})
	return saved, err
}

// DeleteResource removes resource id, what services require of it and the holds of bookings on
// it: they no longer limit anything.
func DeleteResource(ctx context.Context, d *db.DB, id int64, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetResource(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if _, err := q.DeleteResource(ctx, id); err != nil {
			return err
		}
		return record(ctx, q, now, "resource.deleted", id, activity.Changes{}.Set("name", old.Name, nil))
	})
}

// SetServiceResources makes service id require exactly the resources named by raw (ids, at any
// locations: at each location a booking holds those of that location). Bookings already made
// keep what they hold.
func SetServiceResources(ctx context.Context, d *db.DB, serviceID int64, raw []string, now time.Time) (Saved, error) {
	var saved Saved
	err := d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetService(ctx, serviceID); db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		all, err := q.ListResources(ctx)
		if err != nil {
			return err
		}
		known := map[int64]bool{}
		for _, r := range all {
			known[r.ID] = true
		}
		p := problems{}
		ids := p.ids("resources", raw, known)
		if err := p.err(); err != nil {
			return err
		}
		old, err := q.ServiceResourceIDs(ctx, serviceID)
		if err != nil {
			return err
		}
		if slices.Equal(old, ids) {
			return nil
		}
		saved.Changed = true
		if err := q.ClearServiceResources(ctx, serviceID); err != nil {
			return err
		}
		for _, id := range ids {
			if err := q.AddServiceResource(ctx, db.AddServiceResourceParams{ServiceID: serviceID, ResourceID: id}); err != nil {
				return err
			}
		}
		return record(ctx, q, now, "service.resources_changed", serviceID, activity.Changes{}.Set("resources", old, ids))
	})
	return saved, err
}

// VisitRulesInput is how a service behaves in a visit, as the owner types it: its processing
// time (after AfterMin minutes, ProcessingMin minutes when its provider is free; both empty or
// 0 for none) and the services that are its add-ons.
type VisitRulesInput struct {
	AfterMin      string   `form:"after_min"`
	ProcessingMin string   `form:"processing_min"`
	AddOns        []string `form:"add_ons"`
}

// SetServiceVisitRules stores service id's processing time and add-ons (docs/visits.md). The
// processing must lie inside the service: it starts after at least 5 minutes and ends at least 5
// minutes before the service does.
func SetServiceVisitRules(ctx context.Context, d *db.DB, id int64, in VisitRulesInput, now time.Time) (Saved, error) {
	var saved Saved
	err := d.InTx(ctx, func(q *db.Queries) error {
		svc, err := q.GetService(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		p := problems{}
		after := p.whole("after_min", in.AfterMin, 0, 0, 1439)
		length := p.whole("processing_min", in.ProcessingMin, 0, 0, 1439)
		if (after == 0) != (length == 0) {
			p.add("processing_min", "Give both times, or neither for no processing time.")
		} else if after > 0 && (after < 5 || length < 5 || after+length > svc.Service.DurationMin-5) {
			p.add("processing_min", "The processing must start after at least 5 minutes and end at least 5 minutes before the service's %d minutes are over.", svc.Service.DurationMin)
		}
		all, err := q.AdminBookingServices(ctx)
		if err != nil {
			return err
		}
		known := map[int64]bool{}
		for _, s := range all {
			known[s.ID] = s.ID != id
		}
		addOns := p.ids("add_ons", in.AddOns, known)
		if err := p.err(); err != nil {
			return err
		}
		saved.Changed = true
		if after == 0 {
			err = q.ClearServiceProcessing(ctx, id)
		} else {
			err = q.SetServiceProcessing(ctx, db.SetServiceProcessingParams{ServiceID: id, AfterMin: after, ProcessingMin: length})
		}
		if err != nil {
			return err
		}
		if err := q.ClearServiceAddons(ctx, id); err != nil {
			return err
		}
		for _, a := range addOns {
			if err := q.AddServiceAddon(ctx, db.AddServiceAddonParams{ServiceID: id, AddonID: a}); err != nil {
				return err
			}
		}
		ch := activity.Changes{}.Set("processing", nil, [2]int64{after, length}).Set("add_ons", nil, addOns)
		return record(ctx, q, now, "service.visit_rules_changed", id, ch)
	})
	return saved, err
}
