package admin

import (
	"context"
	"net/http"

	"frontdesk/app/errpage"
	"frontdesk/app/staff"
	"frontdesk/db"
)

// What a provider account sees (docs/roles.md): the routes it may use are the permission
// table's (permissions.go); inside them, only its own provider's bookings, class sessions and
// calendar, and only the clients of those bookings. Every handler that reads one of them by id
// asks ownsBooking / ownsClient / ownsProvider and answers 404 for another's — the same as for
// one that does not exist, so ids tell nothing — and every list is narrowed by scopedProvider.

// scopedProvider is the provider record the signed-in account is limited to, or 0 when it sees
// every calendar.
func scopedProvider(ctx context.Context) int64 {
	me, _ := ownerFrom(ctx)
	if staff.RoleOf(me).Scoped() {
		return max(me.ProviderID, -1) // a provider account always has one; -1 would match nothing
	}
	return 0
}

// can reports whether the signed-in account's role has permission p (for what a page offers;
// the routes themselves are checked by authorize).
func can(ctx context.Context, p staff.Permission) bool {
	me, _ := ownerFrom(ctx)
	return staff.Can(staff.RoleOf(me), p)
}

// ownsProviderID reports whether the signed-in account may see provider id's calendar.
func ownsProviderID(ctx context.Context, id int64) bool {
	pid := scopedProvider(ctx)
	return pid == 0 || pid == id
}

// ownsClient reports whether the signed-in account may see client id: every account but a
// provider's, which sees only the clients of its own bookings.
func (a *Admin) ownsClient(ctx context.Context, id int64) (bool, error) {
	pid := scopedProvider(ctx)
	if pid == 0 {
		return true, nil
	}
	return a.db.R.ProviderHasClient(ctx, db.ProviderHasClientParams{ProviderID: pid, ClientID: id})
}

// ownHoursID reads the {id} provider of a page or form about its hours and time off, and
// checks the signed-in account may use it: any account with the catalog, or the provider's own
// account while the owner allows it (the team settings).
func (a *Admin) ownHoursID(r *http.Request) (int64, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return 0, err
	}
	return id, a.ownHours(r, id)
}

func (a *Admin) ownHours(r *http.Request, id int64) error {
	ctx := r.Context()
	if can(ctx, staff.Catalog) {
		return nil
	}
	if !ownsProviderID(ctx, id) {
		return errpage.NotFound
	}
	allowed, err := staff.ProvidersEditOwnHours(ctx, a.db)
	if err != nil {
		return err
	}
	if !allowed {
		return errForbidden
	}
	return nil
}
