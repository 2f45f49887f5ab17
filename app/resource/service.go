package resource

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"frontdesk/db"
)

// Service is what every service shape shares: the scalar fields of GET /v3/services/{id} plus
// keywords and category. On its own it is the data of service.updated events (docs/webhooks.md), which
// leave out the computed type, online_payment, images and providers.
type Service struct {
	ID            int64    `json:"id"`
	UUID          string   `json:"uuid"`
	Name          string   `json:"name"`
	Active        bool     `json:"active"`
	Price         string   `json:"price"`
	Discount      *string  `json:"discount"`
	HasDiscount   bool     `json:"has_discount"`
	Duration      int64    `json:"duration"`
	Description   *string  `json:"description"`
	OnlineBooking bool     `json:"online_booking"`
	Outcall       bool     `json:"outcall"`
	IsVideo       bool     `json:"is_video"`
	Category      *Ref     `json:"category"`
	LocationID    *int64   `json:"location_id"`
	CompanyID     int64    `json:"company_id"`
	Favorite      bool     `json:"favorite"`
	Keywords      []string `json:"keywords"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// ServiceIndex is an item of GET /v3/services: the first image only, no providers.
type ServiceIndex struct {
	Service
	Type          string        `json:"type"`
	OnlinePayment OnlinePayment `json:"online_payment"`
	Image         *Image        `json:"image"`
}

// ServiceDetail is GET /v3/services/{id}.
type ServiceDetail struct {
	Service
	Type          string        `json:"type"`
	OnlinePayment OnlinePayment `json:"online_payment"`
	Images        []Image       `json:"images"`
	Providers     []Ref         `json:"providers"`
}

// Ref is an {id, name} reference to another resource.
type Ref struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// OnlinePayment is a service's online payment mode; amount (a number, as the reference has it)
// is the fixed online amount when the service has one.
type OnlinePayment struct {
	Mode   string       `json:"mode"`
	Amount *json.Number `json:"amount"`
}

// Service types, computed from capacity and session count.
const (
	ServiceTypeService = "service"
	ServiceTypeClass   = "class"
	ServiceTypeSession = "session"
)

// ServiceRow is what a service resource is built from.
type ServiceRow struct {
	Service      db.Service
	CategoryName sql.NullString
}

// NewService builds the shared scalar part.
func NewService(r ServiceRow, companyID int64) Service {
	s := r.Service
	keywords := []string{}
	_ = json.Unmarshal([]byte(s.KeywordsJSON), &keywords) // written only by our own validated code
	if keywords == nil {
		keywords = []string{}
	}
	out := Service{
		ID: s.ID, UUID: s.UUID, Name: s.Name, Active: s.Active, Price: Money(s.PriceCents),
		Discount: NullMoney(s.DiscountBp), HasDiscount: s.HasDiscount, Duration: s.DurationMin,
		Description: NullString(s.Description), OnlineBooking: s.OnlineBooking, Outcall: s.Outcall, IsVideo: s.IsVideo,
		LocationID: NullInt(s.LocationID), CompanyID: companyID, Favorite: s.Favorite, Keywords: keywords,
		CreatedAt: Timestamp(s.CreatedAt), UpdatedAt: Timestamp(s.UpdatedAt),
	}
	if s.CategoryID.Valid && r.CategoryName.Valid {
		out.Category = &Ref{ID: s.CategoryID.Int64, Name: r.CategoryName.String}
	}
	return out
}

// ServiceType is the computed Connect v3 type: a class takes several clients at once, a session
// pack sells several appointments, anything else is a plain service.
func ServiceType(s db.Service) string {
	switch {
	case s.Capacity > 1:
		return ServiceTypeClass
	case s.SessionCount > 1:
		return ServiceTypeSession
	default:
		return ServiceTypeService
	}
}

func newOnlinePayment(s db.Service) OnlinePayment {
	p := OnlinePayment{Mode: s.OnlinePaymentMode}
	if s.OnlinePaymentCents.Valid {
		n := json.Number(Money(s.OnlinePaymentCents.Int64))
		p.Amount = &n
	}
	return p
}

// NewServiceIndex builds a list item; images are the service's images in display order.
func NewServiceIndex(r ServiceRow, companyID int64, images []db.ServiceImage) ServiceIndex {
	out := ServiceIndex{Service: NewService(r, companyID), Type: ServiceType(r.Service), OnlinePayment: newOnlinePayment(r.Service)}
	if len(images) > 0 {
		out.Image = &Image{ID: images[0].ID, URL: images[0].URL}
	}
	return out
}

// NewServiceDetail builds the detail shape from GetServiceDetail's row, whose images and active
// providers arrive as JSON arrays of their wire shapes, built by SQLite in display order.
func NewServiceDetail(r db.GetServiceDetailRow) (ServiceDetail, error) {
	out := ServiceDetail{
		Service:       NewService(ServiceRow{Service: r.Service, CategoryName: r.CategoryName}, r.CompanyID),
		Type:          ServiceType(r.Service),
		OnlinePayment: newOnlinePayment(r.Service),
	}
	images, err := decodeIDTexts(r.ImagesJson, "url")
	if err != nil {
		return ServiceDetail{}, fmt.Errorf("service %d images: %w", r.Service.ID, err)
	}
	out.Images = make([]Image, len(images))
	for i, img := range images {
		out.Images[i] = Image{ID: img.ID, URL: img.Text}
	}
	providers, err := decodeIDTexts(r.ProvidersJson, "name")
	if err != nil {
		return ServiceDetail{}, fmt.Errorf("service %d providers: %w", r.Service.ID, err)
	}
	out.Providers = make([]Ref, len(providers))
	for i, p := range providers {
		out.Providers[i] = Ref{ID: p.ID, Name: p.Text}
	}
	return out, nil
}

// idText is one {"id": …, key: "…"} object of a JSON array built by SQLite.
type idText struct {
	ID   int64
	Text string
}

// decodeIDTexts reads a JSON array of {"id": integer, key: string} objects. encoding/json spends
// some 4 µs on each small array, as much as a third of the whole GET /v3/services/{id}; so the
// compact form SQLite's json_object writes is read directly, and anything else — an escape in a
// string, another layout — goes to encoding/json, which decides.
func decodeIDTexts(s, key string) ([]idText, error) {
	if out, ok := scanIDTexts(s, key); ok {
		return out, nil
	}
	var objs []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &objs); err != nil {
		return nil, err
	}
	out := make([]idText, len(objs))
	for i, o := range objs {
		if err := json.Unmarshal(o["id"], &out[i].ID); err != nil {
			return nil, fmt.Errorf("id: %w", err)
		}
		if err := json.Unmarshal(o[key], &out[i].Text); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	return out, nil
}

// scanIDTexts is decodeIDTexts' fast path: it accepts only the exact compact layout, with
// strings free of escapes (so their bytes are their value), and reports false for anything else.
func scanIDTexts(s, key string) ([]idText, bool) {
	s, ok := strings.CutPrefix(s, "[")
	if !ok {
		return nil, false
	}
	if s, ok = strings.CutSuffix(s, "]"); !ok {
		return nil, false
	}
	out := make([]idText, 0, strings.Count(s, "{"))
	textStart := `,"` + key + `":"`
	for s != "" {
		if len(out) > 0 {
			if s, ok = strings.CutPrefix(s, ","); !ok {
				return nil, false
			}
		}
		if s, ok = strings.CutPrefix(s, `{"id":`); !ok {
			return nil, false
		}
		digits := strings.IndexByte(s, ',')
		if digits < 1 {
			return nil, false
		}
		id, err := strconv.ParseInt(s[:digits], 10, 64)
		if err != nil {
			return nil, false
		}
		if s, ok = strings.CutPrefix(s[digits:], textStart); !ok {
			return nil, false
		}
		end := strings.IndexByte(s, '"')
		if end < 0 || strings.IndexByte(s[:end], '\\') >= 0 {
			return nil, false
		}
		text := s[:end]
		if s, ok = strings.CutPrefix(s[end+1:], "}"); !ok {
			return nil, false
		}
		out = append(out, idText{ID: id, Text: text})
	}
	return out, true
}
