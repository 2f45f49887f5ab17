package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"frontdesk/app/clients"
	"frontdesk/app/resource"
	"frontdesk/db"
)

func (a *API) listClients(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	total, err := a.db.R.CountClients(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ListClients(ctx, db.ListClientsParams{Limit: p.Limit(), Offset: p.Offset()})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	values, err := a.db.R.ListClientAttributeValuesFor(ctx, idsOf(rows, func(c db.Client) int64 { return c.ID }))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	byClient := map[int64][]resource.CustomAttribute{}
	for _, v := range values {
		byClient[v.ClientID] = append(byClient[v.ClientID], resource.NewCustomAttribute(v.AttributeID, v.Name, v.Datatype, v.Value))
	}
	out := resource.List[resource.Client]{Data: make([]resource.Client, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, c := range rows {
		out.Data = append(out.Data, resource.NewClient(c, byClient[c.ID]))
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) createClient(w http.ResponseWriter, r *http.Request) {
	in, err := decodeClient(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	c, err := clients.Create(r.Context(), a.db, a.now(), in, clients.Options{})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, c)
}

func (a *API) getClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	c, err := clients.Load(r.Context(), a.db.R, id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func (a *API) updateClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	in, err := decodeClient(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	c, err := clients.Update(r.Context(), a.db, a.now(), id, in, clients.Options{})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func (a *API) deactivateClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	if _, err := clients.Deactivate(r.Context(), a.db, a.now(), id); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// listClientCustomAttributes answers one entry per template, value null where the client has
// none, so a client sees every field it could fill.
func (a *API) listClientCustomAttributes(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	if _, err := a.db.R.GetClient(ctx, id); err != nil {
		if db.IsNotFound(err) {
			err = notFound("client")
		}
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ListClientCustomAttributes(ctx, id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]resource.CustomAttribute, 0, len(rows))
	for _, v := range rows {
		out = append(out, resource.NewCustomAttribute(v.ID, v.Name, v.Datatype, v.Value))
	}
	writeJSON(w, http.StatusOK, out)
}

// clientBody is the JSON a client create or update may carry: the fields of the reference's
// CreateClientRequest / UpdateClientRequest. Anything else in the body is ignored.
type clientBody struct {
	FirstName            Opt[string]                `json:"first_name"`
	LastName             Opt[string]                `json:"last_name"`
	Email                Opt[string]                `json:"email"`
	IdentificationNumber Opt[string]                `json:"identification_number"`
	Phone                Opt[string]                `json:"phone"`
	Address              Opt[string]                `json:"address"`
	District             Opt[string]                `json:"district"`
	City                 Opt[string]                `json:"city"`
	Region               Opt[string]                `json:"region"`
	Age                  Opt[int64]                 `json:"age"`
	Gender               Opt[int64]                 `json:"gender"`
	BirthDay             Opt[int64]                 `json:"birth_day"`
	BirthMonth           Opt[int64]                 `json:"birth_month"`
	BirthYear            Opt[int64]                 `json:"birth_year"`
	CustomAttributes     Opt[[]customAttributeBody] `json:"custom_attributes"`
}

// customAttributeBody is one {id, value}; the value may be a JSON string, number or boolean
// (stored as text) or null (clears it).
type customAttributeBody struct {
	ID    Opt[int64]      `json:"id"`
	Value json.RawMessage `json:"value"`
}

func decodeClient(r *http.Request) (clients.Input, error) {
	raw, err := readBody(r)
	if err != nil {
		return clients.Input{}, err
	}
	var b clientBody
	if err := decodeObject(raw, &b); err != nil {
		return clients.Input{}, err
	}
	in := clients.Input{
		FirstName: field(b.FirstName), LastName: field(b.LastName), Email: field(b.Email),
		IdentificationNumber: field(b.IdentificationNumber), Phone: field(b.Phone), Address: field(b.Address),
		District: field(b.District), City: field(b.City), Region: field(b.Region), Age: field(b.Age),
		Gender: field(b.Gender), BirthDay: field(b.BirthDay), BirthMonth: field(b.BirthMonth), BirthYear: field(b.BirthYear),
	}
	for i, a := range b.CustomAttributes.V {
		if !a.ID.Set || a.ID.Null {
			return clients.Input{}, unprocessable(fmt.Sprintf("custom_attributes[%d].id", i), "is required")
		}
		value, err := attributeText(a.Value)
		if err != nil {
			return clients.Input{}, unprocessable(fmt.Sprintf("custom_attributes.%d", a.ID.V), err.Error())
		}
		in.CustomAttributes = append(in.CustomAttributes, clients.AttributeValue{ID: a.ID.V, Value: value})
	}
	return in, nil
}

func field[T any](o Opt[T]) clients.Field[T] {
	return clients.Field[T]{Set: o.Set, Null: o.Null, V: o.V}
}

// attributeText turns a JSON value into the text the attribute is validated and stored as.
func attributeText(raw json.RawMessage) (*string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("value is required")
	}
	var s string
	switch raw[0] {
	case 'n':
		return nil, nil
	case '"':
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("value must be a string, number or boolean")
		}
	case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		s = string(raw)
	default:
		return nil, fmt.Errorf("value must be a string, number or boolean")
	}
	return &s, nil
}

// eraseClient is a frontdesk addition: it erases the client's personal data for good
// (clients.Erase) and answers the erased client. Erasing an erased client answers it again.
func (a *API) eraseClient(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := readIgnoredBody(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	e, err := clients.Erase(r.Context(), a.db, a.now(), id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, e.Client)
}
