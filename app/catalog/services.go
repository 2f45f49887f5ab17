package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/money"
	"frontdesk/db"
)

// Online payment modes, mirrored by the CHECK on services.online_payment_mode.
const (
	PaymentNotAvailable    = "NOT_AVAILABLE"
	PaymentOptional        = "OPTIONAL"
	PaymentMandatoryPartly = "MANDATORY_PARTIAL"
	PaymentMandatoryTotal  = "MANDATORY_TOTAL"
)

// PaymentModes lists the modes in the order the form offers them.
var PaymentModes = []string{PaymentNotAvailable, PaymentOptional, PaymentMandatoryPartly, PaymentMandatoryTotal}

// Bounds of a service: what the owner's form accepts, and an import file too (app/importer).
const (
	MinDuration, MaxDuration = 5, 1439 // minutes
	MaxBuffer                = 240     // minutes before or after
	MaxCapacity              = 10000   // clients per session
	MaxSessionCount          = 1000    // sessions in a pack
	// Keywords (docs/contract.md: services carry keywords).
	MaxKeywords, MaxKeywordLength = 20, 50
	// MaxServiceImages is how many picture URLs a service has at most.
	MaxServiceImages = 3
)

// ServiceInput is a service as the owner types it. Keywords are comma-separated; Discount is a
// percentage ("15" or "12.5"); Price and PaymentAmount are decimal strings.
type ServiceInput struct {
	Name          string                   `form:"name"`
	CategoryID    string                   `form:"category_id"` // "" = none
	Price         string                   `form:"price"`
	HasDiscount   bool                     `form:"has_discount"`
	Discount      string                   `form:"discount"`
	Duration      string                   `form:"duration"`
	BufferBefore  string                   `form:"buffer_before"`
	BufferAfter   string                   `form:"buffer_after"`
	Description   string                   `form:"description"`
	Keywords      string                   `form:"keywords"`
	Capacity      string                   `form:"capacity"`
	SessionCount  string                   `form:"session_count"`
	OnlineBooking bool                     `form:"online_booking"`
	PaymentMode   string                   `form:"online_payment_mode"`
	PaymentAmount string                   `form:"online_payment_amount"`
	Outcall       bool                     `form:"outcall"`
	Video         bool                     `form:"is_video"`
	Favorite      bool                     `form:"favorite"`
	Active        bool                     `form:"active"`
	LocationID    string                   `form:"location_id"` // "" = every location
	Images        [MaxServiceImages]string `form:"image"`
	ProviderIDs   []string                 `form:"provider_ids"`
}

// NewServiceInput is the form of a new service: bookable, one client, one session.
func NewServiceInput() ServiceInput {
	return ServiceInput{Price: "0", Duration: "60", BufferBefore: "0", BufferAfter: "0", Capacity: "1", SessionCount: "1",
		OnlineBooking: true, Active: true, PaymentMode: PaymentNotAvailable}
}

// service is a checked ServiceInput, ready to store.
type service struct {
	row       db.UpdateServiceParams // without UpdatedAt and ID
	images    []string
	providers []int64
}

// check validates the input against the rows it refers to.
func (in ServiceInput) check(ctx context.Context, q *db.Queries) (service, error) {
	p := problems{}
	var s service
	r := &s.row
	r.Name = p.name("name", in.Name, true, MaxName)
	categories, err := q.ListAllCategories(ctx)
	if err != nil {
		return s, err
	}
	known := map[int64]bool{}
	for _, c := range categories {
		known[c.ID] = true
	}
	if id, ok := p.optionalID("category_id", in.CategoryID, known); ok {
		r.CategoryID = sql.NullInt64{Int64: id, Valid: true}
	}
	r.PriceCents = p.amount("price", in.Price)
	if d := strings.TrimSpace(in.Discount); d != "" {
		bp, err := money.Parse(strings.TrimSuffix(d, "%"))
		if err != nil || bp > 10000 {
			p.add("discount", "Enter a percentage from 0 to 100, like 15 or 12.5.")
		}
		r.DiscountBp = sql.NullInt64{Int64: int64(bp), Valid: true}
	}
	r.HasDiscount = in.HasDiscount
	if r.HasDiscount && (!r.DiscountBp.Valid || r.DiscountBp.Int64 == 0) {
		p.add("discount", "Enter the discount, or untick “Has a discount”.")
	}
	r.DurationMin = p.whole("duration", in.Duration, 0, MinDuration, MaxDuration)
	if strings.TrimSpace(in.Duration) == "" {
		p.add("duration", "Enter the duration in minutes (5 to 1439).") // MinDuration to MaxDuration
	}
	r.BufferBeforeMin = p.whole("buffer_before", in.BufferBefore, 0, 0, MaxBuffer)
	r.BufferAfterMin = p.whole("buffer_after", in.BufferAfter, 0, 0, MaxBuffer)
	if d := p.longText("description", in.Description, maxDescription); d != "" {
		r.Description = sql.NullString{String: d, Valid: true}
	}
	keywords, msg := ParseKeywords(in.Keywords)
	if msg != "" {
		p.add("keywords", "%s", msg)
	}
	kw, _ := json.Marshal(keywords) // a list of strings always marshals
	r.KeywordsJSON = string(kw)
	r.Capacity = p.whole("capacity", in.Capacity, 1, 1, MaxCapacity)
	r.SessionCount = p.whole("session_count", in.SessionCount, 1, 1, MaxSessionCount)
	r.OnlineBooking, r.Outcall, r.IsVideo, r.Favorite, r.Active = in.OnlineBooking, in.Outcall, in.Video, in.Favorite, in.Active

	r.OnlinePaymentMode = in.PaymentMode
	if !slices.Contains(PaymentModes, r.OnlinePaymentMode) {
		p.add("online_payment_mode", "Choose from the list.")
	}
	// Only a partial payment has a fixed amount; for the other modes the field is ignored.
	if r.OnlinePaymentMode == PaymentMandatoryPartly {
		if strings.TrimSpace(in.PaymentAmount) == "" {
			p.add("online_payment_amount", "Enter the amount paid online for a partial payment.")
		} else if a := p.amount("online_payment_amount", in.PaymentAmount); a > r.PriceCents {
			p.add("online_payment_amount", "The amount paid online cannot be more than the price.")
		} else {
			r.OnlinePaymentCents = sql.NullInt64{Int64: a, Valid: true}
		}
	}

	locations, err := q.ListAllLocations(ctx)
	if err != nil {
		return s, err
	}
	known = map[int64]bool{}
	for _, l := range locations {
		known[l.ID] = true
	}
	if id, ok := p.optionalID("location_id", in.LocationID, known); ok {
		r.LocationID = sql.NullInt64{Int64: id, Valid: true}
	}
	for i, u := range in.Images {
		if strings.TrimSpace(u) != "" {
			s.images = append(s.images, p.link("image_"+strconv.Itoa(i), u))
		}
	}
	providers, err := q.AdminListProviders(ctx)
	if err != nil {
		return s, err
	}
	known = map[int64]bool{}
	for _, pr := range providers {
		known[pr.ID] = true
	}
	s.providers = p.ids("provider_ids", in.ProviderIDs, known)
	return s, p.err()
}

// ParseKeywords reads comma-separated keywords: trimmed, empty ones dropped, repeats (ignoring
// case) dropped keeping the first spelling. It returns a message when a keyword is too long or
// there are too many.
func ParseKeywords(s string) ([]string, string) {
	out := []string{}
	seen := map[string]bool{}
	for k := range strings.SplitSeq(s, ",") {
		k = strings.Join(strings.Fields(k), " ")
		if k == "" || seen[strings.ToLower(k)] {
			continue
		}
		if utf8.RuneCountInString(k) > MaxKeywordLength {
			return out, fmt.Sprintf("Each keyword can have at most %d characters; “%s” is longer.", MaxKeywordLength, clip(k))
		}
		if strings.ContainsFunc(k, isControl) {
			return out, "Remove the control characters."
		}
		seen[strings.ToLower(k)] = true
		out = append(out, k)
	}
	if len(out) > MaxKeywords {
		return out, fmt.Sprintf("Use at most %d keywords.", MaxKeywords)
	}
	return out, ""
}

// CreateService stores a new service. Creating sends no event: docs/webhooks.md has no service.created,
// and a receiver learns of the service from the first change to it or from GET /v3/services.
func CreateService(ctx context.Context, d *db.DB, in ServiceInput, now time.Time) (int64, error) {
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		s, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		r, ms := s.row, db.Millis(now)
		row, err := q.CreateService(ctx, db.CreateServiceParams{
			UUID: newUUID(), Name: r.Name, Active: r.Active, PriceCents: r.PriceCents, HasDiscount: r.HasDiscount,
			DiscountBp: r.DiscountBp, DurationMin: r.DurationMin, BufferBeforeMin: r.BufferBeforeMin,
			BufferAfterMin: r.BufferAfterMin, Description: r.Description, CategoryID: r.CategoryID, Capacity: r.Capacity,
			SessionCount: r.SessionCount, OnlineBooking: r.OnlineBooking, OnlinePaymentMode: r.OnlinePaymentMode,
			OnlinePaymentCents: r.OnlinePaymentCents, Outcall: r.Outcall, IsVideo: r.IsVideo, LocationID: r.LocationID,
			Favorite: r.Favorite, KeywordsJSON: r.KeywordsJSON, CreatedAt: ms, UpdatedAt: ms,
		})
		if err != nil {
			return err
		}
		id = row.ID
		if err := record(ctx, q, now, "service.created", id, activity.Created(row, unrecorded...)); err != nil {
			return err
		}
		return s.writeLinks(ctx, q, id)
	})
	return id, err
}

// Saved tells what a save did: Changed is false when the input matched what was stored (then
// nothing was written), Events counts the service.updated events sent.
type Saved struct {
	Changed bool
	Events  int
}

// UpdateService saves every field of service id. It sends service.updated, in the same
// transaction, when the event's payload changed (name, price, duration, active, keywords,
// category or any other field of it); changes only to fields outside the payload (buffers,
// capacity, online payment, images, providers) update the service without an event.
func UpdateService(ctx context.Context, d *db.DB, id int64, in ServiceInput, now time.Time) (Saved, error) {
	var saved Saved
	err := d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetService(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		s, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		images, providers, err := serviceLinks(ctx, q, id)
		if err != nil {
			return err
		}
		s.row.ID, s.row.UpdatedAt = id, old.Service.UpdatedAt
		linksChanged := !slices.Equal(images, s.images) || !slices.Equal(providers, s.providers)
		if s.row == updateParams(old.Service) && !linksChanged {
			return nil
		}
		saved.Changed = true
		ch := markLinks(activity.Diff(old.Service, s.row, unrecorded...), "images_and_providers", linksChanged)
		if err := record(ctx, q, now, "service.updated", id, ch); err != nil {
			return err
		}
		saved.Events, err = withServiceEvents(ctx, q, now, []int64{id}, func() error {
			s.row.UpdatedAt = db.Millis(now)
			if err := q.UpdateService(ctx, s.row); err != nil {
				return err
			}
			if !linksChanged {
				return nil
			}
			if err := q.DeleteServiceImages(ctx, id); err != nil {
				return err
			}
			if err := q.DeleteServiceProviders(ctx, id); err != nil {
				return err
			}
			return s.writeLinks(ctx, q, id)
		})
		return err
	})
	return saved, err
}

// writeLinks stores the images and providers of service id (which has none).
func (s service) writeLinks(ctx context.Context, q *db.Queries, id int64) error {
	for i, u := range s.images {
		if err := q.CreateServiceImage(ctx, db.CreateServiceImageParams{ServiceID: id, URL: u, Position: int64(i)}); err != nil {
			return err
		}
	}
	for _, p := range s.providers {
		if err := q.CreateServiceProvider(ctx, db.CreateServiceProviderParams{ServiceID: id, ProviderID: p}); err != nil {
			return err
		}
	}
	return nil
}

// serviceLinks reads the image URLs (in order) and provider ids (ascending) of service id.
func serviceLinks(ctx context.Context, q *db.Queries, id int64) ([]string, []int64, error) {
	rows, err := q.ListServiceImages(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	var images []string
	for _, img := range rows {
		images = append(images, img.URL)
	}
	providers, err := q.ListServiceProviderIDs(ctx, id)
	return images, providers, err
}

func updateParams(s db.Service) db.UpdateServiceParams {
	return db.UpdateServiceParams{
		Name: s.Name, Active: s.Active, PriceCents: s.PriceCents, HasDiscount: s.HasDiscount, DiscountBp: s.DiscountBp,
		DurationMin: s.DurationMin, BufferBeforeMin: s.BufferBeforeMin, BufferAfterMin: s.BufferAfterMin,
		Description: s.Description, CategoryID: s.CategoryID, Capacity: s.Capacity, SessionCount: s.SessionCount,
		OnlineBooking: s.OnlineBooking, OnlinePaymentMode: s.OnlinePaymentMode, OnlinePaymentCents: s.OnlinePaymentCents,
		Outcall: s.Outcall, IsVideo: s.IsVideo, LocationID: s.LocationID, Favorite: s.Favorite,
		KeywordsJSON: s.KeywordsJSON, UpdatedAt: s.UpdatedAt, ID: s.ID,
	}
}

// EditService returns service id as its form shows it.
func EditService(ctx context.Context, q *db.Queries, id int64) (ServiceInput, error) {
	row, err := q.GetService(ctx, id)
	if db.IsNotFound(err) {
		return ServiceInput{}, ErrNotFound
	}
	if err != nil {
		return ServiceInput{}, err
	}
	images, providers, err := serviceLinks(ctx, q, id)
	if err != nil {
		return ServiceInput{}, err
	}
	s := row.Service
	var keywords []string
	_ = json.Unmarshal([]byte(s.KeywordsJSON), &keywords) // written only by validated code
	in := ServiceInput{
		Name: s.Name, CategoryID: formatID(s.CategoryID.Int64, s.CategoryID.Valid), Price: money.Cents(s.PriceCents).String(),
		HasDiscount: s.HasDiscount, Duration: strconv.FormatInt(s.DurationMin, 10),
		BufferBefore: strconv.FormatInt(s.BufferBeforeMin, 10), BufferAfter: strconv.FormatInt(s.BufferAfterMin, 10),
		Description: s.Description.String, Keywords: strings.Join(keywords, ", "),
		Capacity: strconv.FormatInt(s.Capacity, 10), SessionCount: strconv.FormatInt(s.SessionCount, 10),
		OnlineBooking: s.OnlineBooking, PaymentMode: s.OnlinePaymentMode, Outcall: s.Outcall, Video: s.IsVideo,
		Favorite: s.Favorite, Active: s.Active, LocationID: formatID(s.LocationID.Int64, s.LocationID.Valid),
		ProviderIDs: FormatIDs(providers),
	}
	if s.DiscountBp.Valid {
		in.Discount = money.Cents(s.DiscountBp.Int64).String()
	}
	if s.OnlinePaymentCents.Valid {
		in.PaymentAmount = money.Cents(s.OnlinePaymentCents.Int64).String()
	}
	copy(in.Images[:], images)
	return in, nil
}
