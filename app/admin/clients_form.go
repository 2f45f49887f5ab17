package admin

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/resource"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The client form: the client's own fields under their API names, and one input per custom
// attribute template named attr_<id>, shaped by its datatype.

// clientForm knows the custom attribute templates, to build the inputs they call for and read
// their values back, and the zone datetime values are typed in.
type clientForm struct {
	templates []attributeTemplate
	zone      *time.Location
}

type attributeTemplate struct {
	db.CustomAttribute
	options []string
}

// Datetime inputs without an offset (what a browser's datetime-local sends).
var localDatetimeLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05"}

func (a *Admin) loadClientForm(ctx context.Context) (clientForm, error) {
	rows, err := a.db.R.ListCustomAttributes(ctx)
	if err != nil {
		return clientForm{}, err
	}
	options, err := a.db.R.ListAttributeOptions(ctx)
	if err != nil {
		return clientForm{}, err
	}
	byID := map[int64]int{}
	var cf clientForm
	for _, r := range rows {
		byID[r.CustomAttribute.ID] = len(cf.templates)
		cf.templates = append(cf.templates, attributeTemplate{CustomAttribute: r.CustomAttribute})
	}
	for _, o := range options {
		if i, ok := byID[o.AttributeID]; ok {
			cf.templates[i].options = append(cf.templates[i].options, o.Label)
		}
	}
	cf.zone, err = a.businessZone(ctx)
	return cf, err
}

// businessZone is the zone of the first active location (by name), the owner's local time where
// a value belongs to no location; UTC when there is none.
func (a *Admin) businessZone(ctx context.Context) (*time.Location, error) {
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range locs {
		if z, err := booking.LoadZone(l.Timezone); err == nil && l.Active {
			return z, nil
		}
	}
	return time.UTC, nil
}

func attrField(id int64) string { return "attr_" + strconv.FormatInt(id, 10) }

// clientTexts and clientInts map form fields to the input's fields.
func clientTexts(in *clients.Input) map[string]*clients.Field[string] {
	return map[string]*clients.Field[string]{
		"first_name": &in.FirstName, "last_name": &in.LastName, "email": &in.Email, "phone": &in.Phone,
		"second_phone": &in.SecondPhone, "identification_number": &in.IdentificationNumber,
		"address": &in.Address, "district": &in.District, "city": &in.City, "region": &in.Region,
		"record_number": &in.RecordNumber, "photo": &in.Photo, "nationality": &in.Nationality,
		"phone_country": &in.PhoneCountry,
	}
}

func clientInts(in *clients.Input) map[string]*clients.Field[int64] {
	return map[string]*clients.Field[int64]{
		"age": &in.Age, "gender": &in.Gender, "birth_day": &in.BirthDay, "birth_month": &in.BirthMonth,
		"birth_year": &in.BirthYear,
	}
}

// fields are the attribute inputs of the form.
func (cf clientForm) fields(ctx context.Context) []ui.ClientAttribute {
	out := make([]ui.ClientAttribute, 0, len(cf.templates))
	for _, t := range cf.templates {
		at := ui.ClientAttribute{Name: attrField(t.ID), Label: t.Name, Datatype: t.Datatype, Hint: t.Description.String, Required: t.Mandatory}
		switch t.Datatype {
		case clients.TypeCategoric:
			at.Options = []ui.Option{{Value: "", Label: "—"}}
			for _, o := range t.options {
				at.Options = append(at.Options, ui.Option{Value: o, Label: o})
			}
		case clients.TypeDatetime:
			at.Hint = strings.TrimSpace(at.Hint + " " + i18n.T(ctx, "clients.attr.datetime_hint", "zone", cf.zone.String()))
		case clients.TypeBoolean:
			at.Required = false // a checkbox always has an answer
		}
		out = append(out, at)
	}
	return out
}

// fill returns a form showing client c.
func (cf clientForm) fill(c resource.Client) *ui.Form {
	f := ui.NewForm(nil)
	texts := map[string]string{
		"first_name": c.FirstName, "last_name": deref(c.LastName), "email": c.Email, "phone": deref(c.Phone),
		"second_phone": deref(c.SecondPhone), "identification_number": deref(c.IdentificationNumber),
		"address": deref(c.Address), "district": deref(c.District), "city": deref(c.City), "region": c.Region,
		"record_number": deref(c.RecordNumber), "photo": deref(c.Photo), "nationality": deref(c.Nationality),
		"phone_country": deref(c.PhoneCountry),
	}
	for name, v := range texts {
		f.Set(name, v)
	}
	ints := map[string]*int64{"age": c.Age, "gender": &c.Gender, "birth_day": c.BirthDay, "birth_month": c.BirthMonth, "birth_year": c.BirthYear}
	for name, v := range ints {
		if v != nil {
			f.Set(name, strconv.FormatInt(*v, 10))
		}
	}
	types := map[int64]string{}
	for _, t := range cf.templates {
		types[t.ID] = t.Datatype
	}
	for _, v := range c.CustomAttributes {
		if v.Value == nil {
			continue
		}
		switch s := *v.Value; types[v.ID] {
		case clients.TypeBoolean:
			if s == "true" {
				f.Set(attrField(v.ID), "1")
			}
		case clients.TypeDatetime:
			f.Set(attrField(v.ID), cf.localDatetime(s))
		default:
			f.Set(attrField(v.ID), s)
		}
	}
	return f
}

// localDatetime shows a stored RFC 3339 value as a datetime-local value in the form's zone.
func (cf clientForm) localDatetime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	t = t.In(cf.zone)
	if t.Second() == 0 {
		return t.Format(localDatetimeLayouts[0])
	}
	return t.Format(localDatetimeLayouts[1])
}

// input reads a submitted form into a clients.Input, recording in f what cannot even be
// parsed; app/clients validates the rest. stored holds the client's current attribute values
// (nil for a new client): an unticked boolean is "false" once the client has a value or the
// template is mandatory, and unset otherwise; a datetime that names the stored instant keeps
// the stored text.
func (cf clientForm) input(ctx context.Context, f *ui.Form, stored map[int64]string) clients.Input {
	var in clients.Input
	for name, fld := range clientTexts(&in) {
		*fld = clients.Value(f.Get(name))
	}
	for name, fld := range clientInts(&in) {
		s := f.Get(name)
		if s == "" {
			*fld = clients.Null[int64]()
			if name == "gender" {
				*fld = clients.Value[int64](0)
			}
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			f.SetError(name, i18n.T(ctx, "clients.err.integer"))
			continue
		}
		*fld = clients.Value(n)
	}
	for _, t := range cf.templates {
		name := attrField(t.ID)
		s := f.Get(name)
		old, had := stored[t.ID]
		var value *string
		switch {
		case t.Datatype == clients.TypeBoolean:
			switch {
			case f.Checked(name, "1"):
				s = "true"
			case had || t.Mandatory:
				s = "false"
			default:
				continue
			}
		case t.Datatype == clients.TypeDatetime && s != "":
			s = cf.parseDatetime(s, old)
		case t.Datatype == clients.TypeTextarea:
			s = strings.ReplaceAll(s, "\r\n", "\n") // what browsers send for a line break
		}
		if s != "" {
			value = &s
		}
		in.CustomAttributes = append(in.CustomAttributes, clients.AttributeValue{ID: t.ID, Value: value})
	}
	return in
}

// parseDatetime turns a datetime-local value into RFC 3339 in the form's zone (old, the stored
// value, when it names the same instant). Anything else is passed on for app/clients to refuse
// or accept as RFC 3339.
func (cf clientForm) parseDatetime(s, old string) string {
	for _, layout := range localDatetimeLayouts {
		t, err := time.ParseInLocation(layout, s, cf.zone)
		if err != nil {
			continue
		}
		if prev, err := time.Parse(time.RFC3339, old); err == nil && prev.Equal(t) {
			return old
		}
		return t.Format(time.RFC3339)
	}
	return s
}

func storedAttributes(c resource.Client) map[int64]string {
	out := map[int64]string{}
	for _, v := range c.CustomAttributes {
		if v.Value != nil {
			out[v.ID] = *v.Value
		}
	}
	return out
}

// clientRefused copies app/clients' field errors onto f and reports whether err was one.
func clientRefused(ctx context.Context, f *ui.Form, err error) bool {
	var errs clients.Errors
	if !errors.As(err, &errs) {
		return false
	}
	for _, fe := range errs {
		field, msg := fe.Field, i18n.From(ctx).Msg(fe.Msg)
		if id, ok := strings.CutPrefix(field, "custom_attributes."); ok {
			field = "attr_" + id
		}
		f.SetError(field, msg)
	}
	if len(f.Errors) == 0 {
		f.Message = i18n.T(ctx, "clients.not_saved")
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
