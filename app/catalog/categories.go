package catalog

import (
	"context"
	"strconv"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// CategoryInput is a service category as the owner types it; Order sorts the list (ascending).
type CategoryInput struct {
	Name  string `form:"name"`
	Order string `form:"order"`
}

func (in CategoryInput) check() (name string, order int64, err error) {
	p := problems{}
	name = p.name("name", in.Name, true, MaxName)
	order = p.whole("order", in.Order, 0, -1_000_000, 1_000_000)
	return name, order, p.err()
}

// CreateCategory stores a new category.
func CreateCategory(ctx context.Context, d *db.DB, in CategoryInput, now time.Time) (int64, error) {
	name, order, err := in.check()
	if err != nil {
		return 0, err
	}
	ms := db.Millis(now)
	var id int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		c, err := q.CreateCategory(ctx, db.CreateCategoryParams{Name: name, SortOrder: order, CreatedAt: ms, UpdatedAt: ms})
		if err != nil {
			return err
		}
		id = c.ID
		return record(ctx, q, now, "category.created", id, activity.Created(c, unrecorded...))
	})
	return id, err
}

// UpdateCategory renames or reorders category id. A new name changes the category{id,name} of
// every service in it, so each of them gets a service.updated event (active or not: GET
// /v3/services lists inactive services too, and a mirror of the catalog must see the name).
// A new order alone is not part of any payload and sends nothing.
func UpdateCategory(ctx context.Context, d *db.DB, id int64, in CategoryInput, now time.Time) (Saved, error) {
	name, order, err := in.check()
	if err != nil {
		return Saved{}, err
	}
	var saved Saved
	err = d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetCategory(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if old.Name == name && old.SortOrder == order {
			return nil
		}
		saved.Changed = true
		ch := activity.Changes{}.Set("name", old.Name, name).Set("sort_order", old.SortOrder, order)
		if err := record(ctx, q, now, "category.updated", id, ch); err != nil {
			return err
		}
		services, err := q.ListCategoryServiceIDs(ctx, nullID(id))
		if err != nil {
			return err
		}
		saved.Events, err = withServiceEvents(ctx, q, now, services, func() error {
			return q.UpdateCategory(ctx, db.UpdateCategoryParams{Name: name, SortOrder: order, UpdatedAt: db.Millis(now), ID: id})
		})
		return err
	})
	return saved, err
}

// DeleteCategory removes category id. Its services stay, without a category (the foreign key
// sets it to null), and each gets a service.updated event with category null.
func DeleteCategory(ctx context.Context, d *db.DB, id int64, now time.Time) (Saved, error) {
	var saved Saved
	err := d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetCategory(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		if err := record(ctx, q, now, "category.deleted", id, activity.Changes{}.Set("name", old.Name, nil)); err != nil {
			return err
		}
		services, err := q.ListCategoryServiceIDs(ctx, nullID(id))
		if err != nil {
			return err
		}
		saved.Changed = true
		saved.Events, err = withServiceEvents(ctx, q, now, services, func() error {
			return q.DeleteCategory(ctx, id)
		})
		return err
	})
	return saved, err
}

// EditCategory returns category c as its form shows it.
func EditCategory(c db.Category) CategoryInput {
	return CategoryInput{Name: c.Name, Order: strconv.FormatInt(c.SortOrder, 10)}
}
