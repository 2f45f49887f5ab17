package importer

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"frontdesk/app/messages"
	"frontdesk/db"
)

// checkDatabase applies the rules that depend on what is already stored, inside the import's
// transaction so nothing can change between the check and the writes: the company section is
// required exactly when there is no company yet, and no key may have been imported before.
func checkDatabase(ctx context.Context, q *db.Queries, p *plan) error {
	var ps problems
	companies, err := q.CountCompanies(ctx)
	if err != nil {
		return err
	}
	switch {
	case companies == 0 && p.company == nil:
		ps.add("company", "is required: this database has no business yet")
	case companies > 0 && p.company != nil:
		c, err := q.GetCompany(ctx)
		if err != nil {
			return err
		}
		ps.add("company", "this database already has a business (%q); an import into it must leave the company section out", c.Name)
	}
	for _, k := range p.keys() {
		prev, err := storedKey(ctx, q, k.kind, k.key)
		switch {
		case db.IsNotFound(err):
		case err != nil:
			return err
		default:
			ps.add(k.path, "%q was already imported on %s (%s id %d); import only adds, so leave it out or give it a new key",
				k.key, db.Time(prev.ImportedAt).Format("2006-01-02 15:04 MST"), strings.ReplaceAll(k.kind, "_", " "), prev.RecordID)
		}
	}
	if err := checkProducts(ctx, q, p, &ps); err != nil {
		return err
	}
	if err := checkSaleKeys(ctx, q, p, &ps); err != nil {
		return err
	}
	for i, c := range p.clients {
		if !c.row.RecordNumber.Valid {
			continue
		}
		id, err := q.FindClientByRecordNumber(ctx, c.row.RecordNumber)
		switch {
		case db.IsNotFound(err):
		case err != nil:
			return err
		default:
			ps.add(at(at("clients", i), "record_number"), "%q is already the record number of client id %d", c.row.RecordNumber.String, id)
		}
	}
	return ps.err()
}

// importKey is a key the import will remember, with where it came from in the file.
type importKey struct{ kind, key, path string }

func (p *plan) keys() []importKey {
	var ks []importKey
	add := func(kind, section string, i int, key string) {
		if key != "" {
			ks = append(ks, importKey{kind, key, at(at(section, i), "key")})
		}
	}
	for i, l := range p.locations {
		add("location", "locations", i, l.key)
	}
	for i, c := range p.categories {
		add("category", "categories", i, c.key)
	}
	for i, s := range p.services {
		add("service", "services", i, s.key)
	}
	for i, pr := range p.providers {
		add("provider", "providers", i, pr.key)
	}
	for i, a := range p.attributes {
		add("custom_attribute", "custom_attributes", i, a.key)
	}
	for i, c := range p.clients {
		add("client", "clients", i, c.key)
	}
	for _, e := range p.timetable {
		add("timetable", "timetable", e.index, e.key)
	}
	for _, s := range p.sessions {
		add("session", "sessions", s.index, s.key)
	}
	for _, b := range p.bookings {
		add("booking", "bookings", b.index, b.key)
	}
	return ks
}

// writer writes a checked plan inside one transaction, turning plan indexes into database ids.
type writer struct {
	ctx context.Context
	d   *db.DB
	q   *db.Queries
	now int64

	locations, categories, services, providers, attributes, clients []int64
	resources, series, visits                                       []int64
	bookingIDs                                                      map[int]int64 // by index into the file's bookings
	products, sales, packs                                          []int64
}

func write(ctx context.Context, d *db.DB, q *db.Queries, p *plan, now time.Time) error {
	w := &writer{ctx: ctx, d: d, q: q, now: db.Millis(now)}
	if p.company != nil {
		row := *p.company
		row.CreatedAt, row.UpdatedAt = w.now, w.now
		if _, err := q.CreateCompany(ctx, row); err != nil {
			return fmt.Errorf("company: %w", err)
		}
	}
	for _, step := range []func(*plan) error{w.writeLocations, w.writeCategories, w.writeServices, w.writeResources,
		w.writeProviders, w.writeAttributes, w.writeClients, w.writeClasses, w.writeProducts, w.writeSales, w.writePacks,
		w.writeBookings, w.writeWaits, w.planAgendas} {
		if err := step(p); err != nil {
			return err
		}
	}
	return nil
}

// planAgendas plans the daily agenda of each provider who has one for the days of their
// imported bookings still ahead (docs/messages.md, "Messages to providers"), as saving the
// provider in the admin does.
func (w *writer) planAgendas(p *plan) error {
	for i, pr := range p.providers {
		if !pr.row.AgendaMin.Valid {
			continue
		}
		if err := messages.ProviderChanged(w.ctx, w.q, db.Time(w.now), w.providers[i]); err != nil {
			return fmt.Errorf("%s: agenda: %w", at("providers", i), err)
		}
	}
	return nil
}

// joined is the writer's context joined to its transaction (db.WithTx), for the use cases of
// app/booking the import runs as steps of its one write.
func (w *writer) joined() context.Context { return db.WithTx(w.ctx, w.q) }

// remember records a created record's key so the same file cannot be imported twice.
func (w *writer) remember(kind, key string, id int64) error {
	if key == "" {
		return nil
	}
	if classKinds[kind] {
		return w.q.CreateImportClassKey(w.ctx, db.CreateImportClassKeyParams{Kind: kind, Key: key, RecordID: id, ImportedAt: w.now})
	}
	return w.q.CreateImportKey(w.ctx, db.CreateImportKeyParams{Kind: kind, Key: key, RecordID: id, ImportedAt: w.now})
}

// classKinds are the sections whose keys live in import_class_keys (timetable entries and
// one-off sessions; db/migrations/00250_classes.sql).
var classKinds = map[string]bool{"timetable": true, "session": true}

// storedKey is the record an earlier import created under kind and key.
func storedKey(ctx context.Context, q *db.Queries, kind, key string) (db.ImportKey, error) {
	if classKinds[kind] {
		k, err := q.GetImportClassKey(ctx, db.GetImportClassKeyParams{Kind: kind, Key: key})
		return db.ImportKey(k), err
	}
	return q.GetImportKey(ctx, db.GetImportKeyParams{Kind: kind, Key: key})
}

func (w *writer) writeLocations(p *plan) error {
	for i, l := range p.locations {
		path := at("locations", i)
		country, err := w.q.CreateCountry(w.ctx, db.CreateCountryParams{Code: l.country.Code, Name: l.country.Name})
		if err != nil {
			return fmt.Errorf("%s.country: %w", path, err)
		}
		row := l.row
		row.UUID, row.CountryID, row.CreatedAt, row.UpdatedAt = newUUID(), country.ID, w.now, w.now
		loc, err := w.q.CreateLocation(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.locations = append(w.locations, loc.ID)
		for _, h := range l.hours {
			if err := w.q.CreateLocationHours(w.ctx, db.CreateLocationHoursParams{LocationID: loc.ID, DayID: h.day, OpenMin: h.open, CloseMin: h.close}); err != nil {
				return fmt.Errorf("%s.hours: %w", path, err)
			}
		}
		for _, c := range l.closures {
			c.LocationID = loc.ID
			if err := w.q.CreateLocationClosure(w.ctx, c); err != nil {
				return fmt.Errorf("%s.closures: %w", path, err)
			}
		}
		if err := w.remember("location", l.key, loc.ID); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func (w *writer) writeCategories(p *plan) error {
	for i, c := range p.categories {
		cat, err := w.q.CreateCategory(w.ctx, db.CreateCategoryParams{Name: c.name, SortOrder: c.order, CreatedAt: w.now, UpdatedAt: w.now})
		if err == nil {
			err = w.remember("category", c.key, cat.ID)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", at("categories", i), err)
		}
		w.categories = append(w.categories, cat.ID)
	}
	return nil
}

func (w *writer) writeServices(p *plan) error {
	for i, s := range p.services {
		path := at("services", i)
		row := s.row
		row.UUID, row.CreatedAt, row.UpdatedAt = newUUID(), w.now, w.now
		if s.category >= 0 {
			row.CategoryID = sql.NullInt64{Int64: w.categories[s.category], Valid: true}
		}
		if s.location >= 0 {
			row.LocationID = sql.NullInt64{Int64: w.locations[s.location], Valid: true}
		}
		svc, err := w.q.CreateService(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.services = append(w.services, svc.ID)
		for j, url := range s.images {
			if err := w.q.CreateServiceImage(w.ctx, db.CreateServiceImageParams{ServiceID: svc.ID, URL: url, Position: int64(j)}); err != nil {
				return fmt.Errorf("%s.images: %w", path, err)
			}
		}
		if err := w.remember("service", s.key, svc.ID); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// writeResources writes the resources, then what each service requires of them. Their keys
// are the file's own: a resource is known in the database by its location and name (unique).
func (w *writer) writeResources(p *plan) error {
	for i, r := range p.resources {
		res, err := w.q.InsertResource(w.ctx, db.InsertResourceParams{LocationID: w.locations[r.location], Name: r.name, Kind: r.kind,
			Quantity: r.quantity, CreatedAt: w.now, UpdatedAt: w.now})
		if err != nil {
			return fmt.Errorf("%s: %w", at("resources", i), err)
		}
		w.resources = append(w.resources, res.ID)
	}
	for i, s := range p.services {
		for _, r := range s.resources {
			if err := w.q.AddServiceResource(w.ctx, db.AddServiceResourceParams{ServiceID: w.services[i], ResourceID: w.resources[r]}); err != nil {
				return fmt.Errorf("%s.resources: %w", at("services", i), err)
			}
		}
	}
	return nil
}

// newUUID returns a random (version 4) UUID for locations and services.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
