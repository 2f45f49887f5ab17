package activity

import (
	"database/sql/driver"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"

	"frontdesk/db"
)

// Changes is an entry's compact diff: each changed field with its old and new value, stored as
// the JSON object {field: [old, new]}. A field that did not change is not in it.
type Changes map[string][2]any

// Hidden stands in for the value of a secret: the entry says the field changed, never what to.
const Hidden = "[hidden]"

// Diff compares two structs (rows, settings, a row and the parameters of its update) field by
// field, matching fields by name, and returns after's fields whose value differs from before's, named in snake_case ("StartAt" → "start_at"). Nullable columns count
// by their value (a NULL is nil), times as RFC 3339. Fields named in skip (snake_case) are left
// out, such as updated_at, which every write changes.
func Diff(before, after any, skip ...string) Changes {
	c := Changes{}
	bv, av := structValue(before), structValue(after)
	if !av.IsValid() {
		return c
	}
	for _, f := range fieldsOf(av.Type()) {
		name := f.name
		if contains(skip, name) {
			continue
		}
		var old, rawOld any
		if bv.IsValid() {
			bf := bv.FieldByName(f.goName)
			if !bf.IsValid() || !bf.CanInterface() {
				continue
			}
			rawOld = bf.Interface()
			old = stamp(name, plain(rawOld))
		}
		rawCur := av.Field(f.index).Interface()
		cur := stamp(name, plain(rawCur))
		// Compared as stored first: two different sealed secrets both read Hidden.
		if rawOld != nil && reflect.TypeOf(rawOld) == reflect.TypeOf(rawCur) {
			if !reflect.DeepEqual(rawOld, rawCur) {
				c[name] = [2]any{old, cur}
			}
		} else if !reflect.DeepEqual(old, cur) {
			c[name] = [2]any{old, cur}
		}
	}
	return c
}

// field is one exported field of a struct type Diff compares: its index, Go name and entry name.
type field struct {
	index        int
	goName, name string
}

// fields keeps each struct type's exported fields with their snake_case names: every booking
// write records an entry, and naming thirty fields anew each time cost the writer more than
// comparing them.
var fields sync.Map // reflect.Type → []field

func fieldsOf(t reflect.Type) []field {
	if fs, ok := fields.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			fs = append(fs, field{index: i, goName: f.Name, name: snake(f.Name)})
		}
	}
	fields.Store(t, fs)
	return fs
}

// Created is after's fields that hold a value, each as [nil, value]: what a new row was made
// with.
// It is Diff from nothing with the zero values left out, without comparing each field to
// nothing: every booking made drafts one.
func Created(after any, skip ...string) Changes {
	c := Changes{}
	av := structValue(after)
	if !av.IsValid() {
		return c
	}
	for _, f := range fieldsOf(av.Type()) {
		if contains(skip, f.name) {
			continue
		}
		if cur := stamp(f.name, plain(av.Field(f.index).Interface())); !isZero(cur) {
			c[f.name] = [2]any{nil, cur}
		}
	}
	return c
}

// Set adds one field's change when old and new differ, and returns c.
func (c Changes) Set(field string, old, new any) Changes {
	old, new = plain(old), plain(new)
	if !reflect.DeepEqual(old, new) {
		c[field] = [2]any{old, new}
	}
	return c
}

func structValue(v any) reflect.Value {
	if v == nil {
		return reflect.Value{}
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return reflect.Value{}
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return rv
}

// plain turns a field's value into what JSON stores plainly: a nullable column's value or nil,
// a pointer's target, a time as RFC 3339. Byte slices are sealed or raw credentials in this
// schema and never plain: they become Hidden.
func plain(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case time.Time:
		if x.IsZero() {
			return nil
		}
		return x.UTC().Format(time.RFC3339)
	case []byte:
		if len(x) == 0 {
			return nil
		}
		return Hidden
	case driver.Valuer:
		rv := reflect.ValueOf(v)
		if rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil
		}
		val, err := x.Value()
		if err != nil {
			return nil
		}
		return plain(val)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil
		}
		return plain(rv.Elem().Interface())
	}
	return v
}

// stamp reads a "…_at" column's Unix milliseconds (the schema's instants) as RFC 3339.
func stamp(name string, v any) any {
	if ms, ok := v.(int64); ok && strings.HasSuffix(name, "_at") {
		return plain(db.Time(ms))
	}
	return v
}

func isZero(v any) bool {
	return v == nil || reflect.ValueOf(v).IsZero()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// snake turns a Go field name into the column-like name entries use: "StartAt" → "start_at",
// "APIKeyID" → "api_key_id", "URL" → "url".
func snake(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Secrets never enter the trail. Two checks, either enough: a field whose name says it holds a
// credential keeps only the fact that it changed, and any value that looks like one (an API
// key, a webhook or payment-provider secret, a password hash, a URL with a password) is hidden
// whatever its field is called. Record applies both to every entry, so no caller can forget.

// secretNames are field names (or, for the words, parts of names) that hold credentials.
var (
	secretNames = []string{"key", "api_key", "secret_key", "private_key", "restricted_key",
		"signing_key", "publishable_key", "smtp_url", "dsn", "credentials", "sealed"}
	secretWords = []string{"password", "secret", "token", "hash", "cipher", "sealed"}
	// secretPrefixes mark credential values wherever they appear in a text: frontdesk's API keys
	// (apk_live_), Standard Webhooks secrets (whsec_), Stripe secret and restricted keys and
	// webhook secrets, argon2 password hashes.
	secretPrefixes = []string{"apk_", "whsec_", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "$argon2"}
)

// secretName reports whether a field called name holds a credential.
func secretName(name string) bool {
	n := strings.ToLower(name)
	if contains(secretNames, n) || strings.HasSuffix(n, "_key") && !strings.HasSuffix(n, "idempotency_key") {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// secretValue reports whether v looks like a credential.
func secretValue(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, p := range secretPrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	if strings.Contains(s, "://") {
		if u, err := url.Parse(strings.TrimSpace(s)); err == nil && u.User != nil {
			if _, has := u.User.Password(); has {
				return true
			}
		}
	}
	return false
}

// cleaned is c with every secret hidden: a credential field's sides become Hidden (an empty
// side stays empty, so "set" and "cleared" still read), and so does any value that looks like
// one.
func cleaned(c Changes) Changes {
	out := make(Changes, len(c))
	for name, v := range c {
		byName := secretName(name)
		for i := range v {
			v[i] = plain(v[i])
			if (byName && !isZero(v[i])) || secretValue(v[i]) {
				v[i] = Hidden
			}
		}
		out[name] = v
	}
	return out
}
