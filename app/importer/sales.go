package importer

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/db"
)

// Sales and session packs (docs/import.md, "sales[]" and "packs[]"): the money history of a
// business, as `frontdesk export` writes it. Their keys are remembered in import_sale_keys.

// saleStatuses are the statuses a sale may have.
var saleStatuses = []string{"paid", "partially_paid", "canceled", "refunded"}

// lineTypes are the kinds of sale line (cart_items.item_type).
var lineTypes = []string{"service", "class", "session", "addon", "plan", "bundle", "product", "treatment", "giftcard", "membership"}

// paymentMethods are the payment methods by name (the payment_methods rows every database has).
var paymentMethods = map[string]int64{"Cash": 1, "Card terminal": 2, "Bank transfer": 3, "Online Payment": 4}

type salePlan struct {
	key              string
	location, client int // client -1: none
	row              db.InsertSaleParams
	note             sql.NullString
	lines            []linePlan
	payments         []db.InsertTransactionParams
	created          int64
	product          []int // per line: index into plan.products, -1 for none
	service          []int // per line: index into plan.services, -1 for none
}

type linePlan struct {
	row db.InsertCartItemParams
}

type packPlan struct {
	key             string
	client, service int
	sale            int // -1: none
	row             db.InsertPackParams
}

// created reads an optional creation time: an RFC 3339 instant, or the import's time.
func (v *validator) created(path, s string) int64 {
	if s == "" {
		return db.Millis(v.now)
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		v.ps.add(path, "%q is not an RFC 3339 instant (want e.g. \"2026-03-01T10:00:00-03:00\")", s)
		return db.Millis(v.now)
	}
	return db.Millis(t)
}

// optInstant reads an optional RFC 3339 instant.
func (v *validator) optInstant(path string, s *string) sql.NullInt64 {
	if s == nil {
		return sql.NullInt64{}
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		v.ps.add(path, "%q is not an RFC 3339 instant (want e.g. \"2026-03-01T10:00:00-03:00\")", *s)
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: db.Millis(t), Valid: true}
}

func (v *validator) sale(i int) {
	s := v.f.Sales[i]
	path := at("sales", i)
	sp := salePlan{key: s.Key, client: -1}
	loc, _ := v.ref(at(path, "location"), s.Location, v.locations, "locations")
	sp.location = loc
	if s.Client != "" {
		sp.client, _ = v.ref(at(path, "client"), s.Client, v.clients, "clients")
	}
	if !slices.Contains(saleStatuses, s.Status) {
		v.ps.add(at(path, "status"), "%q is not one of %s", s.Status, strings.Join(saleStatuses, ", "))
	}
	sp.created = v.created(at(path, "created"), s.Created)
	sp.row = db.InsertSaleParams{Status: s.Status, PaidCents: v.amount(at(path, "paid"), s.Paid),
		PendingCents: v.amount(at(path, "pending"), s.Pending), PaidAt: v.optInstant(at(path, "paid_at"), s.PaidAt),
		CreatedAt: sp.created, UpdatedAt: sp.created}
	sp.note = v.optLongText(at(path, "note"), s.Note)
	if len(s.Lines) == 0 {
		v.ps.add(at(path, "lines"), "is required: at least one line")
	}
	for j, l := range s.Lines {
		lp := at(at(path, "lines"), j)
		if !slices.Contains(lineTypes, l.Type) {
			v.ps.add(at(lp, "type"), "%q is not one of %s", l.Type, strings.Join(lineTypes, ", "))
		}
		product, service := -1, -1
		switch {
		case l.Type == "product":
			product, _ = v.ref(at(lp, "product"), l.Product, v.products, "products")
		case l.Product != "":
			v.ps.add(at(lp, "product"), "is only for a line of type product")
		}
		if l.Service != "" {
			service, _ = v.ref(at(lp, "service"), l.Service, v.services, "services")
		}
		if l.Quantity < 1 {
			v.ps.add(at(lp, "quantity"), "%d is out of range (want at least 1)", l.Quantity)
		}
		row := db.InsertCartItemParams{ItemType: l.Type, ItemName: v.optText(at(lp, "name"), l.Name, maxText), Quantity: l.Quantity,
			UnitPriceCents: v.amount(at(lp, "unit_price"), l.UnitPrice), InstancesJSON: "[]", Position: int64(j)}
		if l.UnitDiscount != nil {
			row.UnitDiscountCents = sql.NullInt64{Int64: v.amount(at(lp, "unit_discount"), *l.UnitDiscount), Valid: true}
		}
		sp.lines = append(sp.lines, linePlan{row: row})
		sp.product, sp.service = append(sp.product, product), append(sp.service, service)
	}
	for j, p := range s.Payments {
		pp := at(at(path, "payments"), j)
		method, ok := paymentMethods[p.Method]
		if !ok {
			v.ps.add(at(pp, "method"), "%q is not a payment method (want Cash, Card terminal, Bank transfer or Online Payment)", p.Method)
		}
		sp.payments = append(sp.payments, db.InsertTransactionParams{AmountCents: v.amountSigned(at(pp, "amount"), p.Amount),
			PaymentMethodID: method, PaidAt: v.optInstant(at(pp, "paid_at"), p.PaidAt), CreatedAt: v.created(at(pp, "created"), p.Created)})
	}
	v.p.sales = append(v.p.sales, sp)
}

// amountSigned reads an amount that may be negative (a payment given back).
func (v *validator) amountSigned(path, s string) int64 {
	if neg, ok := strings.CutPrefix(s, "-"); ok {
		return -v.amount(path, neg)
	}
	return v.amount(path, s)
}

func (v *validator) pack(i int) {
	p := v.f.Packs[i]
	path := at("packs", i)
	pp := packPlan{key: p.Key, sale: -1}
	pp.client, _ = v.ref(at(path, "client"), p.Client, v.clients, "clients")
	pp.service, _ = v.ref(at(path, "service"), p.Service, v.services, "services")
	if p.Sale != "" {
		pp.sale, _ = v.ref(at(path, "sale"), p.Sale, v.sales, "sales")
	}
	if p.Sessions < 1 {
		v.ps.add(at(path, "sessions"), "%d is out of range (want at least 1)", p.Sessions)
	}
	created := v.created(at(path, "created"), p.Created)
	pp.row = db.InsertPackParams{SessionsTotal: p.Sessions, PriceCents: v.amount(at(path, "price"), p.Price),
		ExpiresAt: v.optInstant(at(path, "expires"), p.Expires), CreatedAt: created, UpdatedAt: created}
	v.p.packs = append(v.p.packs, pp)
}

// checkSaleKeys refuses pack and sale keys an earlier import created.
func checkSaleKeys(ctx context.Context, q *db.Queries, p *plan, ps *problems) error {
	check := func(kind, section string, i int, key string) error {
		if key == "" {
			return nil
		}
		prev, err := q.ImportSaleKey(ctx, kind, key)
		switch {
		case db.IsNotFound(err):
			return nil
		case err != nil:
			return err
		}
		ps.add(at(at(section, i), "key"), "%q was already imported on %s (%s id %d); import only adds, so leave it out or give it a new key",
			key, db.Time(prev.ImportedAt).Format("2006-01-02 15:04 MST"), kind, prev.RecordID)
		return nil
	}
	for i, s := range p.sales {
		if err := check("sale", "sales", i, s.key); err != nil {
			return err
		}
	}
	for i, pk := range p.packs {
		if err := check("pack", "packs", i, pk.key); err != nil {
			return err
		}
	}
	return nil
}

// writeSales writes each sale: its cart with the lines, the sale, and its payments.
func (w *writer) writeSales(p *plan) error {
	for i, s := range p.sales {
		path := at("sales", i)
		var client sql.NullInt64
		if s.client >= 0 {
			client = sql.NullInt64{Int64: w.clients[s.client], Valid: true}
		}
		location := w.locations[s.location]
		cart, err := w.q.InsertCart(w.ctx, db.InsertCartParams{UUID: newUUID(), ClientID: client, LocationID: sql.NullInt64{Int64: location, Valid: true},
			Note: s.note, CreatedAt: s.created, UpdatedAt: s.created, ExpiresAt: s.created})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for j, l := range s.lines {
			row := l.row
			row.CartID = cart
			if s.service[j] >= 0 {
				row.ItemID = w.services[s.service[j]]
			}
			if s.product[j] < 0 {
				if err := w.q.InsertCartItem(w.ctx, row); err != nil {
					return fmt.Errorf("%s.lines[%d]: %w", path, j, err)
				}
				continue
			}
			row.ItemID = w.products[s.product[j]]
			row.ProductID = sql.NullInt64{Int64: row.ItemID, Valid: true}
			restore, err := w.q.OpenProductForImport(w.ctx, row.ItemID)
			if err == nil {
				err = w.q.InsertCartItem(w.ctx, row)
			}
			if err == nil {
				err = restore()
			}
			if err != nil {
				return fmt.Errorf("%s.lines[%d]: %w", path, j, err)
			}
		}
		row := s.row
		row.CartID, row.ClientID, row.LocationID = cart, client, location
		id, err := w.q.InsertSale(w.ctx, row)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.sales = append(w.sales, id)
		for j, t := range s.payments {
			t.SaleID = id
			if _, err := w.q.InsertTransaction(w.ctx, t); err != nil {
				return fmt.Errorf("%s.payments[%d]: %w", path, j, err)
			}
		}
		if s.key != "" {
			if err := w.q.CreateImportSaleKey(w.ctx, "sale", s.key, id, w.now); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	return nil
}

func (w *writer) writePacks(p *plan) error {
	for i, pk := range p.packs {
		path := at("packs", i)
		row := pk.row
		row.ClientID, row.ServiceID = w.clients[pk.client], w.services[pk.service]
		if pk.sale >= 0 {
			row.SaleID = sql.NullInt64{Int64: w.sales[pk.sale], Valid: true}
		}
		created, err := w.q.InsertPack(w.ctx, row)
		if err == nil && pk.key != "" {
			err = w.q.CreateImportSaleKey(w.ctx, "pack", pk.key, created.ID, w.now)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		w.packs = append(w.packs, created.ID)
	}
	return nil
}

// packUse checks the bookings that name a pack against it, as the schema's triggers would
// (bookings_pack_insert), but naming the booking: the pack is the booking's client's and for
// its service; a booking that holds a session (not cancelled, or cancelled without giving it
// back) is one of the pack's sessions, and a live one starts before the pack expires.
func (v *validator) packUse() {
	used := map[int]int64{}
	for _, b := range v.p.bookings {
		if b.pack < 0 {
			continue
		}
		path := at(at("bookings", b.index), "pack")
		pk, f := v.p.packs[b.pack], v.f.Packs[b.pack]
		if pk.client != b.client || pk.service != b.service {
			v.ps.add(path, "%q is a pack of client %q for service %q", f.Key, f.Client, f.Service)
			continue
		}
		cancelled := b.row.StatusID == statusCancelled
		if !cancelled && pk.row.ExpiresAt.Valid && pk.row.ExpiresAt.Int64 <= b.row.StartAt {
			zone := v.p.locations[b.location].zone
			v.ps.add(path, "%q expired on %s, before this booking", f.Key, stamp(db.Time(pk.row.ExpiresAt.Int64), zone))
			continue
		}
		if cancelled && b.packReturned {
			continue
		}
		if used[b.pack]++; used[b.pack] > pk.row.SessionsTotal {
			v.ps.add(path, "%q has %s, and this is booking %d of it", f.Key, plural(int(pk.row.SessionsTotal), "session"), used[b.pack])
		}
	}
}
