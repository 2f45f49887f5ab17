package staff

import (
	"context"
	"strconv"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// The team's changes in the activity trail (docs/activity.md), each written in the transaction
// of its change: owner.invited (entity staff_invitation, the link's id), owner.reset_link_created,
// owner.joined and owner.password_reset (by the account itself, through its link),
// owner.role_changed, owner.disabled and owner.enabled (entity owner, the account's id), and
// settings.updated for settings.team. A link's token never enters an entry; its hash is not recorded either.

// recordAccount writes an entry about account id.
func recordAccount(ctx context.Context, q *db.Queries, now time.Time, action string, id int64, ch activity.Changes) error {
	return activity.Record(ctx, q, now, activity.Entry{Action: action, Entity: "owner", EntityID: id, Changes: ch})
}

// asAccount is ctx with the account itself as the actor: who uses an invitation or reset link
// is that account, not a signed-in one.
func asAccount(ctx context.Context, a Account) context.Context {
	return activity.WithActor(ctx, activity.Actor{Kind: activity.KindOwner, ID: strconv.FormatInt(a.ID, 10), Label: a.Email})
}

// providerRef is a provider account's provider id for an entry (nil for other roles).
func providerRef(role Role, id int64) any {
	if role != RoleProvider || id <= 0 {
		return nil
	}
	return id
}
