package admin

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strconv"

	"frontdesk/app/catalog"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The catalog pages' inputs are structs of package catalog whose `form` tags name the form
// fields. formFrom and inputFrom move them between a struct and the *ui.Form the page shows,
// so each page has no field-by-field copying: string fields are text inputs, bool fields
// checkboxes (ticked = "1"), []string fields checkbox groups, and [N]string fields N inputs
// named name_0 … name_N-1. Fields tagged "-" are the handler's to fill.

// formFrom returns a form showing in.
func formFrom(in any) *ui.Form {
	f := ui.NewForm(nil)
	eachField(in, func(name string, v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			f.Set(name, v.String())
		case reflect.Bool:
			if v.Bool() {
				f.Set(name, "1")
			}
		case reflect.Slice:
			f.Values[name] = append([]string(nil), v.Interface().([]string)...)
		case reflect.Array:
			for i := range v.Len() {
				f.Set(name+"_"+strconv.Itoa(i), v.Index(i).String())
			}
		}
	})
	return f
}

// inputFrom fills the struct dst points to from a submitted form.
func inputFrom(f *ui.Form, dst any) {
	eachField(dst, func(name string, v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(f.Raw(name))
		case reflect.Bool:
			v.SetBool(f.Checked(name, "1"))
		case reflect.Slice:
			v.Set(reflect.ValueOf(append([]string(nil), f.Values[name]...)))
		case reflect.Array:
			for i := range v.Len() {
				v.Index(i).SetString(f.Raw(name + "_" + strconv.Itoa(i)))
			}
		}
	})
}

// eachField calls fn for every tagged field of the struct s (or *s).
func eachField(s any, fn func(name string, v reflect.Value)) {
	v := reflect.Indirect(reflect.ValueOf(s))
	t := v.Type()
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("form"); name != "" && name != "-" {
			fn(name, v.Field(i))
		}
	}
}

// refused copies a catalog.Invalid onto f and reports whether err was one; any other error is
// the caller's to handle.
func refused(ctx context.Context, f *ui.Form, err error) bool {
	var inv *catalog.Invalid
	if !errors.As(err, &inv) {
		return false
	}
	p := i18n.From(ctx)
	for field, m := range inv.Msgs {
		f.SetError(field, p.Msg(m))
	}
	for field, text := range inv.Fields {
		f.SetError(field, p.Msg(catalog.FieldMsg(text)))
	}
	return true
}

// options turns id/label pairs into select options, after an optional leading choice.
func options(first *ui.Option, n int, item func(i int) (int64, string)) []ui.Option {
	out := make([]ui.Option, 0, n+1)
	if first != nil {
		out = append(out, *first)
	}
	for i := range n {
		id, label := item(i)
		out = append(out, ui.Option{Value: strconv.FormatInt(id, 10), Label: label})
	}
	return out
}

// invalid is the status of a form shown again with its problems.
const invalid = http.StatusUnprocessableEntity
