package catalog

import (
	"context"
	"slices"
	"time"

	"frontdesk/app/resource"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// withServiceEvents runs change inside the caller's transaction and sends service.updated for
// each of the services ids whose event payload it changed (docs/webhooks.md), in the same transaction.
// Those services' updated_at becomes now: their representation changed, even when the change
// was to something else (a category renamed or deleted). It returns how many events it sent.
//
// The rule is the same for every writer, by construction: the payloads before and after are
// compared as receivers would see them (resource.ServiceEventChanged), so a save that changes
// nothing a receiver can see sends nothing.
func withServiceEvents(ctx context.Context, q *db.Queries, now time.Time, ids []int64, change func() error) (int, error) {
	company, err := companyID(ctx, q)
	if err != nil {
		return 0, err
	}
	before, err := servicePayloads(ctx, q, company, ids)
	if err != nil {
		return 0, err
	}
	if err := change(); err != nil {
		return 0, err
	}
	after, err := servicePayloads(ctx, q, company, ids)
	if err != nil {
		return 0, err
	}
	var changed []int64
	for id, b := range before {
		if a, ok := after[id]; ok && resource.ServiceEventChanged(b, a) {
			changed = append(changed, id)
		}
	}
	if len(changed) == 0 {
		return 0, nil
	}
	slices.Sort(changed)
	ms := db.Millis(now)
	if err := q.TouchServices(ctx, db.TouchServicesParams{UpdatedAt: ms, Ids: changed}); err != nil {
		return 0, err
	}
	for _, id := range changed {
		data := after[id]
		data.UpdatedAt = resource.Timestamp(ms)
		if _, err := webhook.Enqueue(ctx, q, now, webhook.ServiceUpdated, data); err != nil {
			return 0, err
		}
	}
	return len(changed), nil
}

// servicePayloads reads the service.updated data of the services ids, by id.
func servicePayloads(ctx context.Context, q *db.Queries, company int64, ids []int64) (map[int64]resource.ServiceUpdated, error) {
	out := make(map[int64]resource.ServiceUpdated, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.AdminListServicesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.Service.ID] = resource.NewServiceUpdated(resource.ServiceRow{Service: r.Service, CategoryName: r.CategoryName}, company)
	}
	return out, nil
}
