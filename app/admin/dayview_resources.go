package admin

import (
	"net/http"
	"slices"

	"frontdesk/app/booking"
	"frontdesk/ui"
)

// The day view by resource (?by=resources): a column per room or piece of equipment of the
// location instead of per provider, each booking in the column of every resource it holds
// (docs/visits.md, "Resources"). Bookings sharing a resource of quantity two share its cells.
// Columns are then not providers, so nothing is dragged and no free times are shown.

// byResource turns provider grid g into the location's resource grid. It reports false, leaving
// g alone, when the location has no resources.
func (a *Admin) byResource(r *http.Request, g *dayGrid, locationID int64, d booking.Date) (bool, error) {
	ctx := r.Context()
	rs, err := a.db.R.LocationResources(ctx, locationID)
	if err != nil || len(rs) == 0 {
		return false, err
	}
	var ids []int64
	byID := map[int64]dayEntry{}
	for _, col := range g.entries {
		for _, e := range col {
			if e.session == nil {
				ids = append(ids, e.view.ID)
				byID[e.view.ID] = e
			}
		}
	}
	holds, err := a.db.R.BookingResourcesOf(ctx, ids)
	if err != nil {
		return false, err
	}
	open, err := a.locationOpen(r, locationID, d)
	if err != nil {
		return false, err
	}
	g.col, g.columns, g.slots = map[int64]int{}, nil, map[[2]int][]ui.DaySlot{}
	for _, x := range rs {
		g.col[x.ID] = len(g.columns)
		g.columns = append(g.columns, ui.DayProvider{ID: x.ID, Name: x.Name + " ×" + idText(x.Quantity), Resource: true})
	}
	g.entries = make([][]dayEntry, len(g.columns))
	g.working = make([][][2]int, len(g.columns))
	for c := range g.columns {
		g.working[c] = open
	}
	for _, h := range holds {
		if c, ok := g.col[h.ResourceID]; ok {
			g.entries[c] = append(g.entries[c], byID[h.BookingID])
		}
	}
	for c := range g.entries {
		slices.SortStableFunc(g.entries[c], func(a, b dayEntry) int { return a.start.Compare(b.start) })
	}
	return true, nil
}
