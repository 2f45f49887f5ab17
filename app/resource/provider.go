package resource

import "frontdesk/db"

// Provider is the Connect v3 Provider. provider_times are the weekly hours at the provider's
// main location (location_id), one entry per shift, with that shift's breaks.
type Provider struct {
	ID               int64           `json:"id"`
	CompanyID        int64           `json:"company_id"`
	LocationID       int64           `json:"location_id"`
	Active           bool            `json:"active"`
	PublicName       string          `json:"public_name"`
	OnlineBooking    bool            `json:"online_booking"`
	Images           []ProviderImage `json:"images"`
	ProviderOpenDays bool            `json:"provider_open_days"`
	ProviderTimes    []ProviderTime  `json:"provider_times"`
}

// ProviderImage is a provider picture with its thumbnail.
type ProviderImage struct {
	ID           int64  `json:"id"`
	URL          string `json:"url"`
	ThumbnailURL string `json:"thumbnail_url"`
}

// ProviderTime is one working shift of a weekday (0 = Sunday).
type ProviderTime struct {
	DayID  int64   `json:"day_id"`
	Open   string  `json:"open"`
	Close  string  `json:"close"`
	Breaks []Break `json:"breaks"`
}

// Break is a pause inside a shift.
type Break struct {
	Open  string `json:"open"`
	Close string `json:"close"`
}

// ProviderRow is what a provider resource is built from. HasHours says whether the provider
// works anywhere at all (provider_open_days); Hours and Breaks are those of the main location.
type ProviderRow struct {
	ID            int64
	PublicName    string
	Active        bool
	OnlineBooking bool
	LocationID    int64
	HasHours      bool
	Hours         []db.ProviderHour
	Breaks        []db.ProviderBreak
	Images        []db.ProviderImage
}

// NewProvider builds the resource.
func NewProvider(r ProviderRow, companyID int64) Provider {
	out := Provider{
		ID: r.ID, CompanyID: companyID, LocationID: r.LocationID, Active: r.Active, PublicName: r.PublicName,
		OnlineBooking: r.OnlineBooking, ProviderOpenDays: r.HasHours,
		Images:        make([]ProviderImage, 0, len(r.Images)),
		ProviderTimes: make([]ProviderTime, 0, len(r.Hours)),
	}
	for _, img := range r.Images {
		out.Images = append(out.Images, ProviderImage{ID: img.ID, URL: img.URL, ThumbnailURL: img.ThumbnailURL})
	}
	breaks := map[int64][]Break{}
	for _, b := range r.Breaks {
		breaks[b.HoursID] = append(breaks[b.HoursID], Break{Open: WallClock(b.StartMin), Close: WallClock(b.EndMin)})
	}
	for _, h := range r.Hours {
		t := ProviderTime{DayID: h.DayID, Open: WallClock(h.OpenMin), Close: WallClock(h.CloseMin), Breaks: breaks[h.ID]}
		if t.Breaks == nil {
			t.Breaks = []Break{}
		}
		out.ProviderTimes = append(out.ProviderTimes, t)
	}
	return out
}
