package resource

import (
	"database/sql"
	"strings"

	"frontdesk/db"
)

// Client is the Connect v3 Client, and the data of client.created and client.updated events.
// Email is "" when the client has none, because the reference declares it a non-null string.
// CustomAttributes (present in the reference's examples) lists the values that are set.
type Client struct {
	ID                   int64             `json:"id"`
	FirstName            string            `json:"first_name"`
	LastName             *string           `json:"last_name"`
	Email                string            `json:"email"`
	Phone                *string           `json:"phone"`
	SecondPhone          *string           `json:"second_phone"`
	IdentificationNumber *string           `json:"identification_number"`
	Address              *string           `json:"address"`
	District             *string           `json:"district"`
	City                 *string           `json:"city"`
	Region               string            `json:"region"`
	Age                  *int64            `json:"age"`
	Gender               int64             `json:"gender"`
	BirthDay             *int64            `json:"birth_day"`
	BirthMonth           *int64            `json:"birth_month"`
	BirthYear            *int64            `json:"birth_year"`
	RecordNumber         *string           `json:"record_number"`
	Photo                *string           `json:"photo"`
	Nationality          *string           `json:"nationality"`
	PhoneCountry         *string           `json:"phone_country"`
	Active               bool              `json:"active"`
	CustomAttributes     []CustomAttribute `json:"custom_attributes"`
	CreatedAt            string            `json:"created_at"`
	UpdatedAt            string            `json:"updated_at"`
}

// CustomAttribute is one custom attribute value of a client: the template's id, name and
// datatype, and the value as a string (null when unset).
type CustomAttribute struct {
	ID       int64   `json:"id"`
	Name     string  `json:"name"`
	Datatype string  `json:"datatype"`
	Value    *string `json:"value"`
}

// NewCustomAttribute builds one value entry.
func NewCustomAttribute(id int64, name, datatype string, value sql.NullString) CustomAttribute {
	return CustomAttribute{ID: id, Name: name, Datatype: datatype, Value: NullString(value)}
}

// NewClient builds the resource from the row and the client's set attribute values.
func NewClient(c db.Client, attrs []CustomAttribute) Client {
	if attrs == nil {
		attrs = []CustomAttribute{}
	}
	return Client{
		ID:                   c.ID,
		FirstName:            c.FirstName,
		LastName:             NullString(c.LastName),
		Email:                c.Email.String,
		Phone:                NullString(c.Phone),
		SecondPhone:          NullString(c.SecondPhone),
		IdentificationNumber: NullString(c.IdentificationNumber),
		Address:              NullString(c.Address),
		District:             NullString(c.District),
		City:                 NullString(c.City),
		Region:               c.Region,
		Age:                  NullInt(c.Age),
		Gender:               c.Gender,
		BirthDay:             NullInt(c.BirthDay),
		BirthMonth:           NullInt(c.BirthMonth),
		BirthYear:            NullInt(c.BirthYear),
		RecordNumber:         NullString(c.RecordNumber),
		Photo:                NullString(c.Photo),
		Nationality:          NullString(c.Nationality),
		PhoneCountry:         NullString(c.PhoneCountry),
		Active:               c.Active,
		CustomAttributes:     attrs,
		CreatedAt:            Timestamp(c.CreatedAt),
		UpdatedAt:            Timestamp(c.UpdatedAt),
	}
}

// ClientSearchResult is one hit of GET /v3/clients/quick-search.
type ClientSearchResult struct {
	ID                   int64   `json:"id"`
	FullName             string  `json:"full_name"`
	Email                *string `json:"email"`
	Phone                *string `json:"phone"`
	IdentificationNumber *string `json:"identification_number"`
	RecordNumber         *string `json:"record_number"`
}

// NewClientSearchResult builds a hit; full_name is first and last name joined.
func NewClientSearchResult(id int64, first string, last, email, phone, identification, record sql.NullString) ClientSearchResult {
	return ClientSearchResult{
		ID: id, FullName: strings.TrimSpace(first + " " + last.String),
		Email: NullString(email), Phone: NullString(phone),
		IdentificationNumber: NullString(identification), RecordNumber: NullString(record),
	}
}
