package resource

import (
	"database/sql"
	"encoding/json"

	"frontdesk/db"
)

// Service is what every service shape shares: the scalar fields of GET /v3/services/{id} plus
// keywords and category. On its own it is the data of service.updated events (SPEC §6), which
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

// NewServiceDetail builds the detail shape; providers are the active providers offering it.
func NewServiceDetail(r ServiceRow, companyID int64, images []db.ServiceImage, providers []Ref) ServiceDetail {
	out := ServiceDetail{
		Service: NewService(r, companyID), Type: ServiceType(r.Service), OnlinePayment: newOnlinePayment(r.Service),
		Images: make([]Image, 0, len(images)), Providers: providers,
	}
	if out.Providers == nil {
		out.Providers = []Ref{}
	}
	for _, img := range images {
		out.Images = append(out.Images, Image{ID: img.ID, URL: img.URL})
	}
	return out
}
