package owner

import (
	"context"
	"errors"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// ErrLastOwner refuses removing the only owner: nobody could sign in any more.
var ErrLastOwner = errors.New("the last owner cannot be removed")

// Remove deletes an account. The business keeps at least one owner who is not disabled: the
// count is checked inside the deleting transaction, and a trigger
// (db/migrations/00400_staff_roles.sql) refuses it too. The removed owner's sessions end at their next request, since a session only counts
// for an owner who still exists (app/admin requireOwner); their id may later be reused, but a
// new account's password stamp differs, so an old session never signs in as someone else.
func Remove(ctx context.Context, d *db.DB, id int64) (Owner, error) {
	var removed Owner
	err := d.InTx(ctx, func(q *db.Queries) error {
		r, err := q.GetOwner(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		if r.Role == "owner" && !r.DisabledAt.Valid {
			n, err := q.CountActiveOwners(ctx)
			if err != nil {
				return err
			}
			if n <= 1 {
				return ErrLastOwner
			}
		}
		if _, err := q.DeleteOwner(ctx, id); err != nil {
			return err
		}
		if err := activity.Record(ctx, q, time.Now(), activity.Entry{Action: "owner.removed", EntityID: id,
			Changes: activity.Changes{}.Set("email", r.Email, nil)}); err != nil {
			return err
		}
		removed = fromRow(r)
		return nil
	})
	return removed, err
}
