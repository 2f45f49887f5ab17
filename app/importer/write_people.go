package importer

import (
	"database/sql"
	"fmt"

	"frontdesk/app/messages"
	"frontdesk/db"
)

func (w *writer) writeProviders(p *plan) error {
	for i, pr := range p.providers {
		path := at("providers", i)
		row := pr.row
		row.LocationID, row.CreatedAt, row.UpdatedAt = w.locations[pr.locations[0]], w.now, w.now
		prov, err := w.q.CreateProvider(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.providers = append(w.providers, prov.ID)
		if err := w.providerDetails(prov.ID, pr); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := w.remember("provider", pr.key, prov.ID); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// providerDetails writes what hangs off a provider: locations, services, images, shifts with
// their breaks, and time off.
func (w *writer) providerDetails(id int64, pr providerPlan) error {
	for _, l := range pr.locations {
		if err := w.q.CreateProviderLocation(w.ctx, db.CreateProviderLocationParams{ProviderID: id, LocationID: w.locations[l]}); err != nil {
			return err
		}
	}
	for _, s := range pr.services {
		if err := w.q.CreateServiceProvider(w.ctx, db.CreateServiceProviderParams{ServiceID: w.services[s], ProviderID: id}); err != nil {
			return err
		}
	}
	for _, img := range pr.images {
		img.ProviderID = id
		if err := w.q.CreateProviderImage(w.ctx, img); err != nil {
			return err
		}
	}
	for _, s := range pr.shifts {
		hoursID, err := w.q.CreateProviderHours(w.ctx, db.CreateProviderHoursParams{
			ProviderID: id, LocationID: w.locations[s.location], DayID: s.hours.day, OpenMin: s.hours.open, CloseMin: s.hours.close,
		})
		if err != nil {
			return err
		}
		for _, b := range s.breaks {
			if err := w.q.CreateProviderBreak(w.ctx, db.CreateProviderBreakParams{HoursID: hoursID, StartMin: b[0], EndMin: b[1]}); err != nil {
				return err
			}
		}
	}
	for _, off := range pr.timeOff {
		off.ProviderID = id
		if _, err := w.q.CreateProviderTimeOff(w.ctx, off); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) writeAttributes(p *plan) error {
	groups := map[string]int64{}
	for i, a := range p.attributes {
		path := at("custom_attributes", i)
		row := a.row
		if a.group != "" {
			id, err := w.group(a.group, groups)
			if err != nil {
				return fmt.Errorf("%s.group: %w", path, err)
			}
			row.GroupID = sql.NullInt64{Int64: id, Valid: true}
		}
		attr, err := w.q.CreateCustomAttribute(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.attributes = append(w.attributes, attr.ID)
		for j, label := range a.options {
			if err := w.q.CreateAttributeOption(w.ctx, db.CreateAttributeOptionParams{AttributeID: attr.ID, Label: label, SortOrder: int64(j + 1)}); err != nil {
				return fmt.Errorf("%s.options: %w", path, err)
			}
		}
		if err := w.remember("custom_attribute", a.key, attr.ID); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// group returns the attribute group with this name, reusing one that already exists.
func (w *writer) group(name string, known map[string]int64) (int64, error) {
	if id, ok := known[name]; ok {
		return id, nil
	}
	g, err := w.q.FindAttributeGroupByName(w.ctx, name)
	if db.IsNotFound(err) {
		g, err = w.q.CreateAttributeGroup(w.ctx, db.CreateAttributeGroupParams{Name: name, SortOrder: int64(len(known) + 1)})
	}
	if err != nil {
		return 0, err
	}
	known[name] = g.ID
	return g.ID, nil
}

func (w *writer) writeClients(p *plan) error {
	for i, c := range p.clients {
		path := at("clients", i)
		row := c.row
		row.CreatedAt, row.UpdatedAt = c.created, w.now
		id, err := w.q.ImportClient(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.clients = append(w.clients, id)
		if c.channel != "" {
			if err := messages.SetClientChannel(w.ctx, w.q, id, c.channel, w.now); err != nil {
				return fmt.Errorf("%s.preferred_channel: %w", path, err)
			}
		}
		for _, v := range c.values {
			err := w.q.ImportClientAttributeValue(w.ctx, db.ImportClientAttributeValueParams{
				ClientID: id, AttributeID: w.attributes[v.attribute], Value: sql.NullString{String: v.value, Valid: true},
			})
			if err != nil {
				return fmt.Errorf("%s.custom_attributes: %w", path, err)
			}
		}
		if err := w.remember("client", c.key, id); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func (w *writer) writeBookings(p *plan) error {
	w.bookingIDs = map[int]int64{}
	for _, sp := range p.series {
		s, err := w.q.InsertBookingSeries(w.ctx, sp.row)
		if err != nil {
			return fmt.Errorf("series: %w", err)
		}
		w.series = append(w.series, s.ID)
	}
	for i, vp := range p.visits {
		row := vp.row
		row.LocationID, row.ClientID, row.UpdatedAt = w.locations[vp.location], w.clients[vp.client], w.now
		id, err := w.q.InsertVisit(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", at("visits", i), err)
		}
		w.visits = append(w.visits, id)
	}
	for _, b := range p.bookings {
		path := at("bookings", b.index)
		row := b.row
		row.LocationID, row.ServiceID = w.locations[b.location], w.services[b.service]
		row.ProviderID, row.ClientID = w.providers[b.provider], w.clients[b.client]
		row.CreatedAt, row.UpdatedAt = b.created, w.now
		if b.class {
			var err error
			if row.SessionID, err = w.seat(b, row); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		id, err := w.q.ImportBooking(w.ctx, row)
		if db.IsConstraint(err, "slot_unavailable") {
			// The file's own bookings were checked against each other; this one collides with
			// a booking the database already had.
			var ps problems
			ps.add(path, "provider %q already has a booking in the database that overlaps this one", p.providers[b.provider].key)
			return ps.err()
		}
		if err == nil && (b.pack >= 0 || b.sale >= 0) {
			var pack, sale sql.NullInt64
			if b.pack >= 0 {
				pack = sql.NullInt64{Int64: w.packs[b.pack], Valid: true}
			}
			if b.sale >= 0 {
				sale = sql.NullInt64{Int64: w.sales[b.sale], Valid: true}
			}
			err = w.q.LinkImportedBooking(w.ctx, id, pack, sale, b.packReturned)
		}
		if err == nil && b.visit != nil {
			row := b.visit.row
			row.BookingID, row.VisitID = id, w.visits[b.visit.visit]
			err = w.q.InsertVisitBooking(w.ctx, row)
		}
		if err == nil && b.series >= 0 {
			err = w.q.LinkImportedBookingSeries(w.ctx, id, w.series[b.series])
		}
		if err == nil {
			w.bookingIDs[b.index] = id
		}
		if err == nil && b.cancel.at.Valid {
			err = w.q.RecordImportedCancel(w.ctx, id, b.cancel.at, b.cancel.by, b.cancel.late)
		}
		if err == nil {
			err = w.remember("booking", b.key, id)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// writeWaits writes the waitlist for appointments, after the bookings a booked wait names.
func (w *writer) writeWaits(p *plan) error {
	for _, wp := range p.waits {
		row := wp.row
		row.ClientID, row.LocationID, row.ServiceID = w.clients[wp.client], w.locations[wp.location], w.services[wp.service]
		if wp.provider >= 0 {
			row.ProviderID = sql.NullInt64{Int64: w.providers[wp.provider], Valid: true}
		}
		if wp.booking >= 0 {
			id, ok := w.bookingIDs[wp.booking]
			if !ok {
				return fmt.Errorf("%s.booking: the booking was not imported", at("appointment_waitlist", wp.index))
			}
			row.BookingID = sql.NullInt64{Int64: id, Valid: true}
		}
		row.UpdatedAt = w.now
		if err := w.q.ImportAppointmentWait(w.ctx, row); err != nil {
			return fmt.Errorf("%s: %w", at("appointment_waitlist", wp.index), err)
		}
	}
	return nil
}
