package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/payments"
	"frontdesk/app/resource"
)

// Gift cards and memberships (docs/payments.md), additions to Connect v3: a gift card's balance
// by its code, the memberships, a client's memberships. Reads only.

// getGiftCard answers GET /v3/gift_cards/{code}: the card, its balance and whether it can pay.
// The code is typed as people type it (any case, with or without dashes).
func (a *API) getGiftCard(w http.ResponseWriter, r *http.Request) {
	card, err := payments.GiftCardByCode(r.Context(), a.db.R, a.now(), chi.URLParam(r, "code"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, card)
}

// listMemberships answers GET /v3/memberships: every membership, newest first.
func (a *API) listMemberships(w http.ResponseWriter, r *http.Request) {
	a.writeMemberships(w, r, 0)
}

// listClientMemberships answers GET /v3/clients/{id}/memberships: the client's memberships,
// newest first.
func (a *API) listClientMemberships(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "client")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.writeMemberships(w, r, id)
}

func (a *API) writeMemberships(w http.ResponseWriter, r *http.Request, clientID int64) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, total, err := payments.ListMemberships(r.Context(), a.db.R, clientID, p.Limit(), p.Offset())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resource.List[resource.Membership]{Data: rows, Pagination: p.Pagination(total)})
}
