package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/booking"
	"frontdesk/app/input"
	"frontdesk/app/money"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// ItemInput is one cart line as a client sends it. Money stays a decimal string until it is
// validated here; zero values stand for fields that were not sent.
type ItemInput struct {
	ItemID           int64
	ItemType         string
	ItemName         *string
	ItemUUID         *string
	UnitPrice        string
	Quantity         int64
	UnitDiscount     *string
	UnitDiscountType *string
	Instances        []InstanceInput
}

// InstanceInput is one per-unit instance: a booking to sell, either an existing one
// (ReferenceID) or one to reserve when the payment request is raised (StartTime, ProviderID).
type InstanceInput struct {
	InstanceType string
	ReferenceID  *int64
	StartTime    *string
	ProviderID   *int64
	// StartWall says StartTime is a wall-clock reading of the cart's location (only its date and
	// time of day count): it is read in that location's zone and stored as the instant in UTC
	// (docs/api.md, "Local times sent with Z").
	StartWall bool
}

// Item types (the CHECK on cart_items.item_type). Services and products are known to the
// catalogue: services are checked against it and may book; products take their name and price
// from it and respect its stock (products.go). The others are stored as plain priced lines.
var itemTypes = []string{"service", "class", "session", "addon", "plan", "bundle", "product", "treatment", "giftcard", "membership"}

const (
	itemService = "service"
	itemProduct = "product"
)

// itemPack sells a session pack: a service with session_count > 1, credited to the cart's client
// as a pack of that many sessions per unit when the sale is paid (packs.go; docs/classes.md).
const itemPack = "session"

// inCatalog reports whether items of type t name a service of the catalogue.
func inCatalog(t string) bool { return t == itemService || t == itemPack }

// Discount types. A unit discount without a type is an amount.
const (
	DiscountAmount     = "amount"
	DiscountPercentage = "percentage"
)

// creativeSource is where bookings made through the public API come from; a client cannot
// choose another.
const creativeSource = "connect"

// Limits that keep a cart a cart.
const (
	maxItems     = 100
	maxQuantity  = 1000
	maxInstances = 50
	maxNameLen   = 255
	maxUUIDLen   = 100
	maxNoteLen   = 5000
)

// line is a validated item, ready to store.
type line struct {
	row       db.InsertCartItemParams
	instances []resource.CartInstance
}

// cartRefs are the cart-level fields the items' rules depend on.
type cartRefs struct {
	ClientID, LocationID sql.NullInt64
}

// validateItems checks items in order and returns them ready to store. Errors are
// *RefusedError naming the first field at fault.
func validateItems(ctx context.Context, q *db.Queries, items []ItemInput, refs cartRefs) ([]line, error) {
	switch {
	case len(items) == 0:
		return nil, invalid("items", "at least one item is required")
	case len(items) > maxItems:
		return nil, invalid("items", "at most %d items", maxItems)
	}
	zone, err := wallZone(ctx, q, items, refs)
	if err != nil {
		return nil, err
	}
	products, err := loadProducts(ctx, q, items)
	if err != nil {
		return nil, err
	}
	lines := make([]line, len(items))
	var total int64
	for i, it := range items {
		l, err := validateItem(fmt.Sprintf("items[%d]", i), it, zone, products)
		if err != nil {
			return nil, err
		}
		l.row.Position = int64(i)
		lines[i] = l
		a := amounts(l.row.UnitPriceCents, l.row.Quantity, l.row.UnitDiscountCents, l.row.UnitDiscountType)
		if total += a.GrossCents - a.DiscountCents; total > money.MaxCents {
			return nil, invalid("items", "the cart total is too large")
		}
	}
	if err := checkCatalog(ctx, q, lines); err != nil {
		return nil, err
	}
	for i := range lines {
		if err := memberDiscount(ctx, q, refs.ClientID, &lines[i].row); err != nil {
			return nil, err
		}
	}
	return lines, checkRefs(ctx, q, lines, refs)
}

func validateItem(path string, it ItemInput, zone *time.Location, products map[int64]db.Product) (line, error) {
	var l line
	switch {
	case it.ItemType == "":
		return l, refused(CodeItemInvalidType, path+".item_type", "is required")
	case !slices.Contains(itemTypes, it.ItemType):
		return l, refused(CodeItemInvalidType, path+".item_type", "must be one of %s", strings.Join(itemTypes, ", "))
	case it.ItemID < 1:
		return l, invalid(path+".item_id", "is required and must be a positive integer")
	case it.Quantity < 1 || it.Quantity > maxQuantity:
		return l, invalid(path+".quantity", "must be between 1 and %d", maxQuantity)
	case it.UnitPrice == "" && it.ItemType != itemProduct:
		return l, invalid(path+".unit_price", "is required")
	}
	var price money.Cents
	var err error
	if it.UnitPrice != "" {
		if price, err = money.Parse(it.UnitPrice); err != nil {
			return l, invalid(path+".unit_price", "%v", err)
		}
	}
	if it.ItemType == itemProduct {
		if price, err = productLine(path, it, products, price); err != nil {
			return l, err
		}
		p := products[it.ItemID]
		if it.ItemName == nil {
			it.ItemName = &p.Name
		}
	}
	if err := checkText(path+".item_name", it.ItemName, maxNameLen); err != nil {
		return l, err
	}
	if it.ItemName != nil {
		if err := input.CheckName(*it.ItemName); err != nil {
			return l, invalid(path+".item_name", "%v", err)
		}
	}
	if err := checkText(path+".item_uuid", it.ItemUUID, maxUUIDLen); err != nil {
		return l, err
	}
	l.row = db.InsertCartItemParams{
		ItemID: it.ItemID, ItemType: it.ItemType, ItemName: nullText(it.ItemName), ItemUUID: nullText(it.ItemUUID),
		Quantity: it.Quantity, UnitPriceCents: int64(price),
	}
	if it.ItemType == itemProduct {
		l.row.ProductID = sql.NullInt64{Int64: it.ItemID, Valid: true}
	}
	if l.row.UnitDiscountCents, l.row.UnitDiscountType, err = parseDiscount(path, int64(price), it.UnitDiscount, it.UnitDiscountType); err != nil {
		return l, err
	}
	a := amounts(l.row.UnitPriceCents, l.row.Quantity, l.row.UnitDiscountCents, l.row.UnitDiscountType)
	if a.GrossCents > money.MaxCents {
		return l, invalid(path+".unit_price", "unit price times quantity is too large")
	}
	if l.instances, err = validateInstances(path, it, zone); err != nil {
		return l, err
	}
	raw, err := json.Marshal(l.instances)
	if err != nil {
		return l, fmt.Errorf("%s.instances: %w", path, err)
	}
	l.row.InstancesJSON = string(raw)
	return l, nil
}

// parseDiscount reads a unit discount: an amount (at most the unit price) or a percentage
// (at most 100, stored in hundredths of a percent).
func parseDiscount(path string, price int64, value, kind *string) (sql.NullInt64, sql.NullString, error) {
	if value == nil {
		if kind != nil {
			return sql.NullInt64{}, sql.NullString{}, invalid(path+".unit_discount_type", "is set without a unit_discount")
		}
		return sql.NullInt64{}, sql.NullString{}, nil
	}
	v, err := money.Parse(*value)
	if err != nil {
		return sql.NullInt64{}, sql.NullString{}, invalid(path+".unit_discount", "%v", err)
	}
	t := sql.NullString{}
	if kind != nil {
		switch strings.ToLower(*kind) {
		case DiscountAmount, "fixed":
			t = sql.NullString{String: DiscountAmount, Valid: true}
		case DiscountPercentage, "percent":
			t = sql.NullString{String: DiscountPercentage, Valid: true}
		default:
			return sql.NullInt64{}, sql.NullString{}, invalid(path+".unit_discount_type", "must be %q or %q", DiscountAmount, DiscountPercentage)
		}
	}
	switch {
	case t.String == DiscountPercentage && v > 10000:
		return sql.NullInt64{}, sql.NullString{}, invalid(path+".unit_discount", "a percentage must be at most 100")
	case t.String != DiscountPercentage && int64(v) > price:
		return sql.NullInt64{}, sql.NullString{}, invalid(path+".unit_discount", "must not exceed the unit price")
	}
	return sql.NullInt64{Int64: int64(v), Valid: true}, t, nil
}

func validateInstances(path string, it ItemInput, zone *time.Location) ([]resource.CartInstance, error) {
	switch {
	case len(it.Instances) == 0:
		return []resource.CartInstance{}, nil
	case it.ItemType != itemService:
		return nil, invalid(path+".instances", "only service items have instances")
	case int64(len(it.Instances)) > min(it.Quantity, maxInstances):
		return nil, invalid(path+".instances", "at most one booking per unit (quantity %d)", it.Quantity)
	}
	out := make([]resource.CartInstance, len(it.Instances))
	for j, in := range it.Instances {
		p := fmt.Sprintf("%s.instances[%d]", path, j)
		if in.InstanceType != "booking" {
			return nil, invalid(p+".instance_type", `must be "booking"`)
		}
		if in.ReferenceID != nil {
			if *in.ReferenceID < 1 {
				return nil, invalid(p+".reference_id", "must be a positive integer")
			}
			if in.StartTime != nil || in.ProviderID != nil {
				return nil, invalid(p, "give either reference_id (an existing booking) or data (a booking to make), not both")
			}
			out[j] = resource.CartInstance{InstanceType: "booking", ReferenceID: in.ReferenceID}
			continue
		}
		switch {
		case in.StartTime == nil:
			return nil, invalid(p+".data.start_time", "is required when reference_id is null")
		case in.ProviderID == nil || *in.ProviderID < 1:
			return nil, invalid(p+".data.provider_id", "is required and must be a positive integer")
		}
		start, err := time.Parse(time.RFC3339, *in.StartTime)
		if err != nil {
			return nil, refused(CodeInvalidStartTime, p+".data.start_time", "must be an ISO 8601 date-time in UTC, e.g. 2026-08-01T13:00:00Z")
		}
		text := *in.StartTime
		if in.StartWall && zone != nil {
			at, err := booking.WallInstant(zone, start)
			if err != nil {
				return nil, refused(CodeInvalidStartTime, p+".data.start_time", "%s in %s does not exist: the clocks skip it that day (a daylight-saving change)",
					start.Format("2006-01-02T15:04"), zone)
			}
			text = at.UTC().Format(time.RFC3339)
		}
		out[j] = resource.CartInstance{InstanceType: "booking", Data: &resource.CartInstanceData{
			StartTime: text, ProviderID: *in.ProviderID, CreativeSource: creativeSource,
		}}
	}
	return out, nil
}

// wallZone is the zone wall-clock instance times are read in: the cart's location's, when an
// instance has one (nil otherwise). A cart without a usable location is left to checkCartRefs,
// which refuses it with the reason.
func wallZone(ctx context.Context, q *db.Queries, items []ItemInput, refs cartRefs) (*time.Location, error) {
	wall := false
	for _, it := range items {
		for _, in := range it.Instances {
			wall = wall || in.StartWall
		}
	}
	if !wall || !refs.LocationID.Valid {
		return nil, nil
	}
	loc, err := q.CartLocation(ctx, refs.LocationID.Int64)
	if db.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return booking.LoadZone(loc.Timezone)
}

// checkCatalog checks service and pack items against the catalogue and names unnamed ones after
// it.
func checkCatalog(ctx context.Context, q *db.Queries, lines []line) error {
	var ids []int64
	for _, l := range lines {
		if inCatalog(l.row.ItemType) {
			ids = append(ids, l.row.ItemID)
		}
	}
	services, err := loadServices(ctx, q, ids)
	if err != nil {
		return err
	}
	for i := range lines {
		r := &lines[i].row
		if !inCatalog(r.ItemType) {
			continue
		}
		s, ok := services[r.ItemID]
		switch {
		case !ok:
			return invalid(fmt.Sprintf("items[%d].item_id", i), "no such service")
		case !s.Active:
			return invalid(fmt.Sprintf("items[%d].item_id", i), "the service is inactive")
		case r.ItemType == itemPack && s.SessionCount < 2:
			return invalid(fmt.Sprintf("items[%d].item_id", i), "%s is not sold in packs (its session_count is 1); sell it as a service", s.Name)
		}
		if !r.ItemName.Valid {
			r.ItemName = sql.NullString{String: s.Name, Valid: true}
		}
		if !r.ItemUUID.Valid {
			r.ItemUUID = sql.NullString{String: s.UUID, Valid: true}
		}
	}
	return nil
}

// loadServices reads the services with the given ids (repeats allowed), by id.
func loadServices(ctx context.Context, q *db.Queries, ids []int64) (map[int64]db.CartServicesRow, error) {
	out := map[int64]db.CartServicesRow{}
	if len(ids) == 0 {
		return out, nil
	}
	slices.Sort(ids)
	found, err := q.CartServices(ctx, slices.Compact(ids))
	if err != nil {
		return nil, fmt.Errorf("cart services: %w", err)
	}
	for _, s := range found {
		out[s.ID] = s
	}
	return out, nil
}

func checkText(field string, s *string, maxLen int) error {
	if s != nil && utf8.RuneCountInString(*s) > maxLen {
		return invalid(field, "must be at most %d characters", maxLen)
	}
	return nil
}

func nullText(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}
