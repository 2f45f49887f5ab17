package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/owner"
	"frontdesk/db"
)

// Errors callers tell apart.
var (
	// ErrLastOwner refuses disabling or demoting the only owner who can sign in: nobody could
	// manage the business any more. The trigger owners_keep_one_active says the same.
	ErrLastOwner = errors.New("the last owner cannot be disabled or given another role")
	// ErrNotAllowed refuses what the acting account's role may not do (a manager changing an
	// owner, or making one).
	ErrNotAllowed = errors.New("your role may not do this")
	// ErrInvalidRole is a role that is not one of the four.
	ErrInvalidRole = errors.New("choose a role")
	// ErrProviderRequired: a provider account is linked to one provider record, which exists.
	ErrProviderRequired = errors.New("choose the provider this account is")
	// ErrNotFound: no such account, or no such open link.
	ErrNotFound = errors.New("not found")
)

// Account is a staff account as the team page shows it.
type Account = owner.Owner

// RoleOf is the role an account has.
func RoleOf(a Account) Role { return Role(a.Role) }

// List returns every account, by email.
func List(ctx context.Context, d *db.DB) ([]Account, error) { return owner.List(ctx, d) }

// mayManage reports whether actor may change target's account, or make one with role: only
// an owner touches owners.
func mayManage(actor Account, role Role) bool {
	if !Can(RoleOf(actor), Team) {
		return false
	}
	return role != RoleOwner || RoleOf(actor) == RoleOwner
}

// ChangeRole gives account id role (providerID: the provider record, for a provider). The
// last active owner keeps the owner role: checked here in the transaction, and by a trigger.
func ChangeRole(ctx context.Context, d *db.DB, actor Account, id int64, role Role, providerID int64, now time.Time) (Account, error) {
	if err := checkRole(role, providerID); err != nil {
		return Account{}, err
	}
	var out Account
	err := d.InTx(ctx, func(q *db.Queries) error {
		cur, err := getTx(ctx, q, id)
		if err != nil {
			return err
		}
		if !mayManage(actor, RoleOf(cur)) || !mayManage(actor, role) {
			return ErrNotAllowed
		}
		if err := checkProvider(ctx, q, role, providerID); err != nil {
			return err
		}
		if RoleOf(cur) == RoleOwner && role != RoleOwner && !cur.Disabled {
			if err := keepAnOwner(ctx, q); err != nil {
				return err
			}
		}
		if _, err := q.UpdateStaffRole(ctx, db.UpdateStaffRoleParams{Role: string(role), ProviderID: nullID(providerID),
			UpdatedAt: db.Millis(now), ID: id}); err != nil {
			return fmt.Errorf("change role: %w", err)
		}
		if out, err = getTx(ctx, q, id); err != nil {
			return err
		}
		ch := activity.Changes{}.Set("role", cur.Role, out.Role).
			Set("provider_id", providerRef(RoleOf(cur), cur.ProviderID), providerRef(RoleOf(out), out.ProviderID))
		if len(ch) == 0 {
			return nil // nothing changed: nothing to record
		}
		return recordAccount(ctx, q, now, "owner.role_changed", id, ch.Set("email", nil, out.Email))
	})
	return out, err
}

// SetDisabled disables an account (its sessions are refused from the next request) or enables
// it again. The last active owner cannot be disabled.
func SetDisabled(ctx context.Context, d *db.DB, actor Account, id int64, disabled bool, now time.Time) (Account, error) {
	var out Account
	err := d.InTx(ctx, func(q *db.Queries) error {
		cur, err := getTx(ctx, q, id)
		if err != nil {
			return err
		}
		if !mayManage(actor, RoleOf(cur)) {
			return ErrNotAllowed
		}
		if cur.Disabled == disabled {
			out = cur
			return nil
		}
		at := sql.NullInt64{}
		if disabled {
			if RoleOf(cur) == RoleOwner {
				if err := keepAnOwner(ctx, q); err != nil {
					return err
				}
			}
			at = sql.NullInt64{Int64: db.Millis(now), Valid: true}
		}
		if _, err := q.SetStaffDisabled(ctx, db.SetStaffDisabledParams{DisabledAt: at, UpdatedAt: db.Millis(now), ID: id}); err != nil {
			return fmt.Errorf("disable account: %w", err)
		}
		if out, err = getTx(ctx, q, id); err != nil {
			return err
		}
		action := "owner.enabled"
		if disabled {
			action = "owner.disabled"
		}
		return recordAccount(ctx, q, now, action, id, activity.Changes{}.Set("disabled", cur.Disabled, out.Disabled).Set("email", nil, out.Email))
	})
	return out, err
}

// Get returns account id, or ErrNotFound.
func Get(ctx context.Context, d *db.DB, id int64) (Account, error) {
	a, err := owner.Get(ctx, d, id)
	if errors.Is(err, owner.ErrNotFound) {
		return Account{}, ErrNotFound
	}
	return a, err
}

func getTx(ctx context.Context, q *db.Queries, id int64) (Account, error) {
	r, err := q.GetOwner(ctx, id)
	if db.IsNotFound(err) {
		return Account{}, ErrNotFound
	}
	if err != nil {
		return Account{}, fmt.Errorf("get account: %w", err)
	}
	return owner.FromRow(r), nil
}

// keepAnOwner refuses a change that would leave no active owner (the account changed is one).
func keepAnOwner(ctx context.Context, q *db.Queries) error {
	n, err := q.CountActiveOwners(ctx)
	if err != nil {
		return err
	}
	if n <= 1 {
		return ErrLastOwner
	}
	return nil
}

func checkRole(role Role, providerID int64) error {
	if _, ok := ParseRole(string(role)); !ok {
		return ErrInvalidRole
	}
	if role == RoleProvider && providerID <= 0 {
		return ErrProviderRequired
	}
	return nil
}

// checkProvider checks a provider account's provider record exists (the foreign key would
// refuse it too, as an error the owner cannot read).
func checkProvider(ctx context.Context, q *db.Queries, role Role, providerID int64) error {
	if role != RoleProvider {
		return nil
	}
	if _, err := q.GetProvider(ctx, providerID); db.IsNotFound(err) {
		return ErrProviderRequired
	} else if err != nil {
		return err
	}
	return nil
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id > 0} }

// ProvidersEditOwnHours reports whether provider accounts may change their own hours and time
// off (the owner's choice on the team page; off until they allow it).
func ProvidersEditOwnHours(ctx context.Context, d *db.DB) (bool, error) {
	s, err := d.R.GetTeamSettings(ctx)
	if err != nil {
		return false, fmt.Errorf("team settings: %w", err)
	}
	return s.ProvidersEditOwnHours, nil
}

// SetProvidersEditOwnHours records the owner's choice.
func SetProvidersEditOwnHours(ctx context.Context, d *db.DB, allow bool, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetTeamSettings(ctx)
		if err != nil {
			return fmt.Errorf("team settings: %w", err)
		}
		if err := q.UpdateTeamSettings(ctx, db.UpdateTeamSettingsParams{ProvidersEditOwnHours: allow, UpdatedAt: db.Millis(now)}); err != nil {
			return err
		}
		ch := activity.Changes{}.Set("providers_edit_own_hours", old.ProvidersEditOwnHours, allow)
		if len(ch) == 0 {
			return nil
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "settings.updated", Entity: "settings.team", Changes: ch})
	})
}

// Operator is who acts from the machine's command line (`frontdesk staff …`): whoever can run
// the binary on the data directory may do what an owner may. It is no account (id 0).
var Operator = Account{Role: string(RoleOwner)}

// GetByEmail returns the account with email, or ErrNotFound.
func GetByEmail(ctx context.Context, d *db.DB, email string) (Account, error) {
	email, err := owner.NormalizeEmail(email)
	if err != nil {
		return Account{}, err
	}
	r, err := d.R.GetOwnerByEmail(ctx, email)
	if db.IsNotFound(err) {
		return Account{}, ErrNotFound
	}
	if err != nil {
		return Account{}, fmt.Errorf("find account: %w", err)
	}
	return owner.FromRow(r), nil
}
