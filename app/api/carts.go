package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"

	"frontdesk/app/fail"
	"frontdesk/app/payments"
)

// Carts and payment requests: the rules (validation, totals, reservations, expiry) live in
// app/payments; these handlers decode, call it and answer. See docs/api.md, "Carts, payment
// requests and sales".

// cartBody is the body of POST and PATCH /v3/carts. Every field remembers whether it was sent,
// for PATCH's merge; unknown fields (company_id, …) are ignored.
type cartBody struct {
	ClientID   Opt[int64]          `json:"client_id"`
	LocationID Opt[int64]          `json:"location_id"`
	Note       Opt[string]         `json:"note"`
	Items      Opt[[]cartItemBody] `json:"items"`
}

type cartItemBody struct {
	ItemID           int64              `json:"item_id"`
	ItemType         string             `json:"item_type"`
	ItemName         *string            `json:"item_name"`
	ItemUUID         *string            `json:"item_uuid"`
	UnitPrice        decimal            `json:"unit_price"`
	Quantity         int64              `json:"quantity"`
	UnitDiscount     *decimal           `json:"unit_discount"`
	UnitDiscountType *string            `json:"unit_discount_type"`
	Instances        []cartInstanceBody `json:"instances"`
}

type cartInstanceBody struct {
	InstanceType string `json:"instance_type"`
	ReferenceID  *int64 `json:"reference_id"`
	Data         *struct {
		StartTime  *string `json:"start_time"`
		ProviderID *int64  `json:"provider_id"`
		// creative_source is read and dropped: it is always "connect" through the API.
	} `json:"data"`
}

// decimal is a money field: the reference's decimal string, or a bare JSON number, which some
// clients send; either way its text is validated as a decimal by app/payments.
type decimal string

func (d *decimal) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, (*string)(d))
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[string]()}
	}
	*d = decimal(n)
	return nil
}

func (a *API) createCart(w http.ResponseWriter, r *http.Request) {
	var body cartBody
	if err := readCartBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	in, err := body.input(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := payments.CreateCart(r.Context(), a.db, a.now(), in)
	if err != nil {
		a.writeError(w, r, paymentError(err))
		return
	}
	writeJSON(w, http.StatusCreated, v.Resource())
}

func (a *API) getCart(w http.ResponseWriter, r *http.Request) {
	id, err := pathCartID(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := payments.LoadCart(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, paymentError(err))
		return
	}
	writeJSON(w, http.StatusOK, v.Resource())
}

func (a *API) updateCart(w http.ResponseWriter, r *http.Request) {
	id, err := pathCartID(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var body cartBody
	if err := readCartBody(r, &body); err != nil {
		a.writeError(w, r, err)
		return
	}
	ch, err := body.change(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := payments.UpdateCart(r.Context(), a.db, a.now(), id, ch)
	if err != nil {
		a.writeError(w, r, paymentError(err))
		return
	}
	writeJSON(w, http.StatusOK, v.Resource())
}

func (b cartBody) input(ctx context.Context) (payments.CartInput, error) {
	in := payments.CartInput{Note: b.Note.Ptr()}
	var err error
	if in.ClientID, err = positiveRef("client_id", b.ClientID); err != nil {
		return in, err
	}
	if in.LocationID, err = positiveRef("location_id", b.LocationID); err != nil {
		return in, err
	}
	if b.Items.Ptr() == nil {
		return in, unprocessable("items", "at least one item is required")
	}
	in.Items = items(ctx, b.Items.V)
	return in, nil
}

func (b cartBody) change(ctx context.Context) (payments.CartChange, error) {
	ch := payments.CartChange{Note: payments.Optional[string]{Set: b.Note.Set, Value: b.Note.Ptr()}}
	for _, f := range []struct {
		name string
		v    Opt[int64]
		dst  *payments.Optional[int64]
	}{{"client_id", b.ClientID, &ch.ClientID}, {"location_id", b.LocationID, &ch.LocationID}} {
		v, err := positiveRef(f.name, f.v)
		if err != nil {
			return ch, err
		}
		*f.dst = payments.Optional[int64]{Set: f.v.Set, Value: v}
	}
	if b.Items.Set {
		if b.Items.Null {
			return ch, unprocessable("items", "cannot be null")
		}
		list := items(ctx, b.Items.V)
		ch.Items = &list
	}
	return ch, nil
}

// items turns the body's items into payments' input. An instance time that the key sends as the
// location's wall clock (zlocal.go) is marked so: app/payments reads it in the cart's location's
// zone and stores the instant in UTC, the form the payment request books from.
func items(ctx context.Context, in []cartItemBody) []payments.ItemInput {
	out := make([]payments.ItemInput, len(in))
	for i, it := range in {
		out[i] = payments.ItemInput{
			ItemID: it.ItemID, ItemType: it.ItemType, ItemName: it.ItemName, ItemUUID: it.ItemUUID,
			UnitPrice: string(it.UnitPrice), Quantity: it.Quantity, UnitDiscountType: it.UnitDiscountType,
		}
		if it.UnitDiscount != nil {
			s := string(*it.UnitDiscount)
			out[i].UnitDiscount = &s
		}
		for _, inst := range it.Instances {
			x := payments.InstanceInput{InstanceType: inst.InstanceType, ReferenceID: inst.ReferenceID}
			if inst.Data != nil {
				x.StartTime, x.ProviderID = inst.Data.StartTime, inst.Data.ProviderID
				x.StartWall = x.StartTime != nil && wallClock(ctx, *x.StartTime)
			}
			out[i].Instances = append(out[i].Instances, x)
		}
	}
	return out
}

// positiveRef reads an optional id: absent or null is nil; a value must be positive.
func positiveRef(field string, v Opt[int64]) (*int64, error) {
	p := v.Ptr()
	if p != nil && *p < 1 {
		return nil, unprocessable(field, "must be a positive integer")
	}
	return p, nil
}

func readCartBody(r *http.Request, dst any) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	return decodeObject(raw, dst)
}

// pathCartID reads {id}; an id that cannot exist is the reference's cart_not_found.
func pathCartID(r *http.Request) (int64, error) {
	id, err := pathID(r, "cart")
	if err != nil {
		return 0, newError(http.StatusNotFound, "cart_not_found", "")
	}
	return id, nil
}

// paymentError turns app/payments' errors into reference answers: 404 cart_not_found and
// payment_request_not_found (the reference's codes, without a detail), not_found/sale, 422 with
// the refusal's own code (cart_expired, cart_paid, company_payments_disabled,
// payment_request_invalid_status, item_invalid_type, invalid_start_time, booking_already_sold,
// unprocessable_entity) and a detail naming the field, and 409 for a reserved time taken.
// Only what differs from writeError's table is translated here.
func paymentError(err error) error {
	f, ok := fail.As(err)
	switch {
	case !ok:
	case f.Code == fail.CodeNotFound && (f.Reason == "cart" || f.Reason == "payment_request"):
		return newError(http.StatusNotFound, f.Reason+"_not_found", "")
	case f.Code == fail.CodeInvalid && f.Field == "" && f.Reason != "":
		return newError(http.StatusUnprocessableEntity, f.Reason, f.Message)
	}
	return err
}
