package importer

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

var datatypes = []string{"boolean", "categoric", "date", "datetime", "file", "float", "integer", "text", "textarea"}

func (v *validator) attribute(i int) {
	a := v.f.CustomAttributes[i]
	path := at("custom_attributes", i)
	v.name(at(path, "name"), a.Name, true, maxText)
	if !slices.Contains(datatypes, a.Datatype) {
		v.ps.add(at(path, "datatype"), "%q is not one of %q", a.Datatype, datatypes)
	}
	switch {
	case a.Datatype == "categoric" && len(a.Options) == 0:
		v.ps.add(at(path, "options"), "is required for a categoric attribute (the labels to choose from)")
	case a.Datatype != "categoric" && len(a.Options) > 0:
		v.ps.add(at(path, "options"), "only categoric attributes have options")
	}
	seen := map[string]int{}
	for j, o := range a.Options {
		op := at(at(path, "options"), j)
		v.name(op, o, true, maxText)
		if first, dup := seen[o]; dup {
			v.ps.add(op, "%q repeats options[%d]", o, first)
		}
		seen[o] = j
	}
	ap := attributePlan{key: a.Key, options: a.Options, row: db.CreateCustomAttributeParams{
		Name: a.Name, Datatype: a.Datatype, SortOrder: orDefault(a.Order, int64(i+1)),
		Description: v.optLongText(at(path, "description"), a.Description), Mandatory: a.Mandatory,
	}}
	if a.Group != nil {
		v.name(at(path, "group"), *a.Group, true, maxText)
		ap.group = *a.Group
	}
	v.p.attributes = append(v.p.attributes, ap)
}

func (v *validator) client(i int) {
	c := v.f.Clients[i]
	path := at("clients", i)
	v.name(at(path, "first_name"), c.FirstName, true, maxText)
	v.text(at(path, "region"), c.Region, false, maxText)
	row := db.ImportClientParams{
		FirstName:            c.FirstName,
		LastName:             v.optName(at(path, "last_name"), c.LastName, maxText),
		Phone:                v.phone(at(path, "phone"), c.Phone),
		SecondPhone:          v.phone(at(path, "second_phone"), c.SecondPhone),
		IdentificationNumber: v.optText(at(path, "identification_number"), c.IdentificationNumber, maxText),
		Address:              v.optText(at(path, "address"), c.Address, maxText),
		District:             v.optText(at(path, "district"), c.District, maxText),
		City:                 v.optText(at(path, "city"), c.City, maxText),
		Region:               c.Region,
		Age:                  nullInt(c.Age),
		Gender:               c.Gender,
		BirthDay:             nullInt(c.BirthDay),
		BirthMonth:           nullInt(c.BirthMonth),
		BirthYear:            nullInt(c.BirthYear),
		RecordNumber:         v.optText(at(path, "record_number"), c.RecordNumber, maxText),
		Photo:                v.optText(at(path, "photo"), c.Photo, 2048),
		Nationality:          v.optText(at(path, "nationality"), c.Nationality, maxText),
		PhoneCountry:         v.optText(at(path, "phone_country"), c.PhoneCountry, 2),
		Active:               orDefault(c.Active, true),
	}
	if c.Email != nil {
		row.Email.String, row.Email.Valid = v.email(at(path, "email"), *c.Email), true
	}
	if c.Photo != nil {
		v.link(at(path, "photo"), *c.Photo)
	}
	if c.PhoneCountry != nil && (len(*c.PhoneCountry) != 2 || !isLetters(*c.PhoneCountry)) {
		v.ps.add(at(path, "phone_country"), "%q is not an ISO 3166-1 alpha-2 code (want e.g. \"CL\")", *c.PhoneCountry)
	}
	if c.Age != nil {
		v.between(at(path, "age"), *c.Age, 1, 150)
	}
	v.between(at(path, "gender"), c.Gender, 0, 2)
	if c.BirthDay != nil {
		v.between(at(path, "birth_day"), *c.BirthDay, 1, 31)
	}
	if c.BirthMonth != nil {
		v.between(at(path, "birth_month"), *c.BirthMonth, 1, 12)
	}
	if c.BirthYear != nil {
		v.between(at(path, "birth_year"), *c.BirthYear, 1900, int64(v.now.Year()))
	}
	if c.BirthDay != nil && c.BirthMonth != nil && c.BirthYear != nil {
		d := booking.Date{Year: int(*c.BirthYear), Month: time.Month(*c.BirthMonth), Day: int(*c.BirthDay)}
		if !d.IsValid() {
			v.ps.add(at(path, "birth_day"), "%d-%02d-%02d is not a date", *c.BirthYear, *c.BirthMonth, *c.BirthDay)
		}
	}
	if c.RecordNumber != nil {
		if first, dup := v.recordNumbers[*c.RecordNumber]; dup {
			v.ps.add(at(path, "record_number"), "%q is already the record number of clients[%d]", *c.RecordNumber, first)
		} else {
			v.recordNumbers[*c.RecordNumber] = i
		}
	}

	cp := clientPlan{key: c.Key, row: row}
	keys := make([]string, 0, len(c.CustomAttributes))
	for k := range c.CustomAttributes {
		keys = append(keys, k)
	}
	slices.Sort(keys) // problems come out in a stable order
	for _, k := range keys {
		vp := at(at(path, "custom_attributes"), k)
		a, ok := v.attributes[k]
		if !ok {
			v.ps.add(vp, "%q is not the key of any entry in custom_attributes", k)
			continue
		}
		if value, ok := v.attributeValue(vp, v.f.CustomAttributes[a], c.CustomAttributes[k]); ok {
			cp.values = append(cp.values, attributeValue{attribute: a, value: value})
		}
	}
	v.p.clients = append(v.p.clients, cp)
}

// attributeValue checks a value against its attribute's datatype and returns the text stored
// for it ("true", "42", "2026-12-24", an option's label). A null value stores nothing.
func (v *validator) attributeValue(path string, a CustomAttribute, raw json.RawMessage) (string, bool) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", false
	}
	var s string
	isString := json.Unmarshal(raw, &s) == nil
	switch a.Datatype {
	case "boolean":
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			v.ps.add(path, "want true or false for a boolean attribute, got %s", raw)
			return "", false
		}
		return strconv.FormatBool(b), true
	case "integer":
		var n json.Number
		if json.Unmarshal(raw, &n) != nil || isString {
			v.ps.add(path, "want an integer, got %s", raw)
			return "", false
		}
		if _, err := n.Int64(); err != nil {
			v.ps.add(path, "want an integer, got %s", raw)
			return "", false
		}
		return n.String(), true
	case "float":
		var n json.Number
		if json.Unmarshal(raw, &n) != nil || isString {
			v.ps.add(path, "want a number, got %s", raw)
			return "", false
		}
		if _, err := n.Float64(); err != nil {
			v.ps.add(path, "%s is out of range", n)
			return "", false
		}
		return n.String(), true
	}
	if !isString {
		v.ps.add(path, "want a string for a %s attribute, got %s", a.Datatype, raw)
		return "", false
	}
	switch a.Datatype {
	case "date":
		if d, err := booking.ParseDate(s); err != nil || !d.IsValid() {
			v.ps.add(path, "%q is not a date (want YYYY-MM-DD)", s)
		}
	case "datetime":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			v.ps.add(path, "%q is not an RFC 3339 time with an offset", s)
		}
	case "categoric":
		if !slices.Contains(a.Options, s) {
			v.ps.add(path, "%q is not one of the options %q", s, a.Options)
		}
	case "file":
		v.link(path, s)
	case "textarea":
		v.longText(path, s)
	default: // text
		v.text(path, s, false, maxText)
	}
	return s, true
}
