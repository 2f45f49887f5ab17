package resource

import (
	"encoding/json"
	"time"

	"frontdesk/db"
)

// Location is the Connect v3 Location.
type Location struct {
	ID        int64             `json:"id"`
	UUID      string            `json:"uuid"`
	Name      string            `json:"name"`
	Active    bool              `json:"active"`
	Address   map[string]string `json:"address"`
	Phone     *string           `json:"phone"`
	Email     string            `json:"email"`
	Latitude  *float64          `json:"latitude"`
	Longitude *float64          `json:"longitude"`
	Timezone  string            `json:"timezone"`
	Image     *Image            `json:"image"`
	ImageMap  *string           `json:"image_map"`
	CompanyID int64             `json:"company_id"`
	Company   CompanyRef        `json:"company"`
	Country   Country           `json:"country"`
	CountryID int64             `json:"country_id"`
	Times     []LocationTime    `json:"times"`
	CreatedAt string            `json:"created_at"`
	UpdatedAt string            `json:"updated_at"`
}

// Image is an {id, url} picture reference.
type Image struct {
	ID  int64  `json:"id"`
	URL string `json:"url"`
}

// CompanyRef names the installation's company inside other resources.
type CompanyRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Country is the location's country with its zone name and current offset.
type Country struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	TimezoneName   string `json:"timezone_name"`
	TimezoneOffset string `json:"timezone_offset"`
}

// LocationTime is one opening range of a weekday (0 = Sunday).
type LocationTime struct {
	ID    int64  `json:"id"`
	DayID int64  `json:"day_id"`
	Open  string `json:"open"`
	Close string `json:"close"`
}

// LocationRow is what a location resource is built from.
type LocationRow struct {
	Location    db.Location
	CountryName string
	Hours       []db.LocationHour
}

// NewLocation builds the resource; now fixes the zone offset shown in country.
func NewLocation(r LocationRow, company db.Company, now time.Time) Location {
	l := r.Location
	addr := map[string]string{}
	_ = json.Unmarshal([]byte(l.AddressJSON), &addr) // written only by our own validated code
	zone, err := time.LoadLocation(l.Timezone)
	if err != nil {
		zone = time.UTC
	}
	out := Location{
		ID: l.ID, UUID: l.UUID, Name: l.Name, Active: l.Active, Address: addr,
		Phone: NullString(l.Phone), Email: l.Email,
		Latitude: NullFloat(l.Latitude), Longitude: NullFloat(l.Longitude),
		Timezone: l.Timezone, ImageMap: NullString(l.ImageMap),
		CompanyID: company.ID, Company: CompanyRef{ID: company.ID, Name: company.Name},
		Country: Country{
			ID: l.CountryID, Name: r.CountryName,
			TimezoneName: ZoneName(l.Timezone), TimezoneOffset: ZoneOffset(zone, now),
		},
		CountryID: l.CountryID,
		Times:     make([]LocationTime, 0, len(r.Hours)),
		CreatedAt: Timestamp(l.CreatedAt), UpdatedAt: Timestamp(l.UpdatedAt),
	}
	if l.ImageURL.Valid {
		out.Image = &Image{ID: l.ID, URL: l.ImageURL.String}
	}
	for _, h := range r.Hours {
		out.Times = append(out.Times, LocationTime{ID: h.ID, DayID: h.DayID, Open: WallClock(h.OpenMin), Close: WallClock(h.CloseMin)})
	}
	return out
}
