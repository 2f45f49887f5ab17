package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"frontdesk/app/payments"
)

// A gift card is read by its code as people type it — its value, balance and status, never its
// buyer's or recipient's details — with the sales:read scope; an unknown code is a 404.
func TestGiftCardByCode(t *testing.T) {
	f := newFixture(t)
	card, err := payments.SellGiftCardAtDesk(context.Background(), f.db, f.now, payments.GiftCardInput{
		Amount: "50000", BuyerName: "Pedro Soto", BuyerEmail: "pedro@example.com", SendTo: payments.SendToNone,
	}, payments.MethodCash)
	if err != nil {
		t.Fatal(err)
	}
	typed := strings.ToLower(card.Code[:8]) + "-" + card.Code[8:]
	resp, raw := f.call("GET", "/v3/gift_cards/"+typed, nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getGiftCard", resp, raw)
	got := decodeAs[struct {
		ID      int64  `json:"id"`
		Code    string `json:"code"`
		Status  string `json:"status"`
		Value   string `json:"value"`
		Balance string `json:"balance"`
	}](t, raw)
	if got.ID != card.ID || got.Code != payments.FormatGiftCode(card.Code) || got.Status != "active" || got.Value != "50000.0" || got.Balance != "50000.0" {
		t.Errorf("got %+v, want the active card of 50000 with all of it left", got)
	}
	if strings.Contains(string(raw), "pedro") || strings.Contains(string(raw), "Pedro") {
		t.Errorf("the card's answer names its buyer: %s", raw)
	}
	resp, raw = f.call("GET", "/v3/gift_cards/AAAA-BBBB-CCCC-DDDD", nil)
	wantError(t, resp, raw, http.StatusNotFound, "not_found", "gift_card")
	resp, raw = f.callWithKey(f.newKey("clients:read"), "GET", "/v3/gift_cards/"+card.Code, nil)
	wantStatus(t, resp, raw, http.StatusForbidden)
}

// The memberships, and one client's, newest first with their plan; a client that does not
// exist is a 404; each list needs its scope.
func TestMembershipsLists(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	plan, err := payments.SavePlan(ctx, f.db, f.now, 0, payments.PlanInput{Name: "Monthly", Price: "30000",
		DiscountPercent: 10, DiscountServices: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	f.exec(`INSERT INTO memberships (uuid, plan_id, client_id, status, provider, current_period_end, created_at, updated_at)
		VALUES ('m-1', ?, 1, 'active', 'stripe', 1767225600000, 1, 1), ('m-2', ?, 2, 'paused', 'stripe', NULL, 2, 2)`, plan.ID, plan.ID)
	f.exec(`UPDATE memberships SET paused_by = 'payment_failed' WHERE uuid = 'm-2'`)
	type membership struct {
		ClientID int64   `json:"client_id"`
		Status   string  `json:"status"`
		PausedBy *string `json:"paused_by"`
		Plan     struct {
			Name            string `json:"name"`
			Price           string `json:"price"`
			DiscountPercent int64  `json:"discount_percent"`
		} `json:"plan"`
		CurrentPeriodEnd *string `json:"current_period_end"`
	}
	type list struct {
		Data []membership `json:"data"`
	}
	resp, raw := f.call("GET", "/v3/memberships", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "listMemberships", resp, raw)
	all := decodeAs[list](t, raw)
	if len(all.Data) != 2 || all.Data[0].ClientID != 2 || all.Data[0].PausedBy == nil || *all.Data[0].PausedBy != "payment_failed" ||
		all.Data[1].Plan.Name != "Monthly" || all.Data[1].Plan.Price != "30000.0" || all.Data[1].Plan.DiscountPercent != 10 ||
		all.Data[1].CurrentPeriodEnd == nil || *all.Data[1].CurrentPeriodEnd != "2026-01-01T00:00:00Z" {
		t.Errorf("got %s", raw)
	}
	resp, raw = f.call("GET", "/v3/clients/1/memberships", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "listClientMemberships", resp, raw)
	if one := decodeAs[list](t, raw); len(one.Data) != 1 || one.Data[0].ClientID != 1 || one.Data[0].Status != "active" {
		t.Errorf("client 1's memberships: %s", raw)
	}
	resp, raw = f.call("GET", "/v3/clients/999/memberships", nil)
	wantError(t, resp, raw, http.StatusNotFound, "not_found", "client")
	resp, raw = f.callWithKey(f.newKey("clients:read"), "GET", "/v3/memberships", nil)
	wantStatus(t, resp, raw, http.StatusForbidden)
}
