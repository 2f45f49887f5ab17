package importer

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"frontdesk/app/catalog"
	"frontdesk/app/clients"
	"frontdesk/app/messages"
	"frontdesk/db"
)

func (v *validator) attribute(i int) {
	a := v.f.CustomAttributes[i]
	path := at("custom_attributes", i)
	v.name(at(path, "name"), a.Name, true, catalog.MaxName)
	if !slices.Contains(clients.Datatypes, a.Datatype) {
		v.ps.add(at(path, "datatype"), "%q is not one of %q", a.Datatype, clients.Datatypes)
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
		v.name(op, o, true, catalog.MaxName)
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
		v.name(at(path, "group"), *a.Group, true, catalog.MaxName)
		ap.group = *a.Group
	}
	v.p.attributes = append(v.p.attributes, ap)
}

// client checks a client by the rules of app/clients (the values a client may have) and the
// file's own (keys, record numbers unique in the file), each problem reported at its path.
func (v *validator) client(i int) {
	c := v.f.Clients[i]
	path := at("clients", i)
	v.name(at(path, "first_name"), c.FirstName, true, maxText)
	v.text(at(path, "region"), c.Region, false, maxText)
	row := db.ImportClientParams{
		FirstName:            c.FirstName,
		LastName:             v.optName(at(path, "last_name"), c.LastName, maxText),
		Phone:                v.clientPhone(at(path, "phone"), c.Phone),
		SecondPhone:          v.clientPhone(at(path, "second_phone"), c.SecondPhone),
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
		row.Email = sql.NullString{String: v.clientEmail(at(path, "email"), *c.Email), Valid: true}
	}
	if c.Photo != nil {
		v.link(at(path, "photo"), *c.Photo, clients.IsWebURL)
	}
	if c.PhoneCountry != nil {
		country, err := clients.NormalizeCountry(*c.PhoneCountry)
		if err != nil {
			v.ps.add(at(path, "phone_country"), "%q is not an ISO 3166-1 alpha-2 code (want e.g. \"CL\")", *c.PhoneCountry)
		}
		row.PhoneCountry.String = country
	}
	if c.Age != nil {
		v.between(at(path, "age"), *c.Age, clients.MinAge, clients.MaxAge)
	}
	v.between(at(path, "gender"), c.Gender, clients.MinGender, clients.MaxGender)
	if c.BirthDay != nil {
		v.between(at(path, "birth_day"), *c.BirthDay, 1, 31)
	}
	if c.BirthMonth != nil {
		v.between(at(path, "birth_month"), *c.BirthMonth, 1, 12)
	}
	if c.BirthYear != nil {
		v.between(at(path, "birth_year"), *c.BirthYear, clients.MinBirthYear, int64(v.now.Year()))
	}
	if c.BirthDay != nil && c.BirthMonth != nil && *c.BirthDay >= 1 && *c.BirthDay <= 31 && *c.BirthMonth >= 1 && *c.BirthMonth <= 12 &&
		!clients.ValidBirthDate(*c.BirthDay, *c.BirthMonth, orDefault(c.BirthYear, 0)) {
		if c.BirthYear != nil {
			v.ps.add(at(path, "birth_day"), "%d-%02d-%02d is not a date", *c.BirthYear, *c.BirthMonth, *c.BirthDay)
		} else {
			v.ps.add(at(path, "birth_day"), "month %d has no day %d", *c.BirthMonth, *c.BirthDay)
		}
	}
	if c.RecordNumber != nil {
		if first, dup := v.recordNumbers[*c.RecordNumber]; dup {
			v.ps.add(at(path, "record_number"), "%q is already the record number of clients[%d]", *c.RecordNumber, first)
		} else {
			v.recordNumbers[*c.RecordNumber] = i
		}
	}

	if c.PreferredChannel != "" && !messages.ValidClientChannel(c.PreferredChannel) {
		v.ps.add(at(path, "preferred_channel"), "%q is not a channel (want \"email\" or \"sms\")", c.PreferredChannel)
	}
	cp := clientPlan{key: c.Key, row: row, channel: c.PreferredChannel, created: v.created(at(path, "created"), c.Created)}
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
	case clients.TypeBoolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			v.ps.add(path, "want true or false for a boolean attribute, got %s", raw)
			return "", false
		}
		return strconv.FormatBool(b), true
	case clients.TypeInteger:
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
	case clients.TypeFloat:
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
	if a.Datatype == clients.TypeText && !v.text(path, s, false, maxText) {
		return "", false
	}
	// The value as text, by the rule of app/clients; the problem in the file's words.
	stored, err := clients.AttributeValueText(a.Datatype, a.Options, s)
	if err == nil {
		return stored, true
	}
	switch a.Datatype {
	case clients.TypeDate:
		v.ps.add(path, "%q is not a date (want YYYY-MM-DD)", s)
	case clients.TypeDatetime:
		v.ps.add(path, "%q is not an RFC 3339 time with an offset", s)
	case clients.TypeCategoric:
		v.ps.add(path, "%q is not one of the options %q", s, a.Options)
	case clients.TypeFile:
		v.ps.add(path, "%q is not an absolute http(s) URL", s)
	default:
		v.ps.add(path, "%q: %v", s, err)
	}
	return s, true
}

// clientPhone checks a client's phone by the rule of app/clients, as it is stored (E.164): the
// file gives it in that form.
func (v *validator) clientPhone(path string, s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	if e164, err := clients.NormalizePhone(*s); err != nil || e164 != *s {
		v.ps.add(path, "%q is not a phone number in E.164 form (want e.g. \"+56912345678\")", *s)
	}
	return sql.NullString{String: *s, Valid: true}
}

// clientEmail checks a client's email by the rule of app/clients and returns it as stored (lower
// case).
func (v *validator) clientEmail(path, s string) string {
	email, err := clients.NormalizeEmail(s)
	if err != nil || email != strings.ToLower(s) || len(s) > maxText {
		v.ps.add(path, "%q is not an email address", s)
		return strings.ToLower(s)
	}
	return email
}
