package mcp_test

import (
	"context"
	"strings"
	"testing"

	"frontdesk/app/payments"
)

// A gift card's balance is read by its code as a customer reads it out, with sales:read, never
// naming its buyer; a code that is no card is not_found on code.
func TestGiftCardBalanceTool(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	card, err := payments.SellGiftCardAtDesk(context.Background(), f.db, f.now, payments.GiftCardInput{
		Amount: "20000", BuyerName: "Pedro Soto", BuyerEmail: "pedro@example.com", SendTo: payments.SendToNone,
	}, payments.MethodCash)
	if err != nil {
		t.Fatal(err)
	}
	cs := f.connect(f.newKey("sales:read", true))
	var got struct {
		Code, Status, Balance string
	}
	r := ok(t, cs, "gift_card_balance", map[string]any{"code": strings.ToLower(card.Code)}, &got)
	if got.Code != payments.FormatGiftCode(card.Code) || got.Status != "active" || got.Balance != "20000.0" {
		t.Errorf("got %+v", got)
	}
	if strings.Contains(string(r.data)+r.text, "Pedro") || !strings.Contains(r.text, "20000.0 left") {
		t.Errorf("answer %s / %s", r.data, r.text)
	}
	fails(t, cs, "gift_card_balance", map[string]any{"code": "AAAA-BBBB-CCCC-DDDD"}, "not_found")
	fails(t, f.connect(f.newKey("clients:read", true)), "gift_card_balance", map[string]any{"code": card.Code}, "scope_denied")
}

// The memberships, all or one client's, with their plan and status.
func TestMembershipTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	plan, err := payments.SavePlan(context.Background(), f.db, f.now, 0, payments.PlanInput{Name: "Monthly", Price: "30000",
		DiscountPercent: 10, DiscountServices: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Write.Exec(`INSERT INTO memberships (uuid, plan_id, client_id, status, provider, created_at, updated_at)
		VALUES ('m-1', ?, 1, 'active', 'stripe', 1, 1)`, plan.ID); err != nil {
		t.Fatal(err)
	}
	cs := f.connect(f.fullKey)
	var list struct {
		Memberships []struct {
			ClientID int64  `json:"client_id"`
			Status   string `json:"status"`
			Plan     struct{ Name string }
		}
		Total int64
	}
	ok(t, cs, "list_memberships", map[string]any{}, &list)
	if list.Total != 1 || len(list.Memberships) != 1 || list.Memberships[0].Plan.Name != "Monthly" || list.Memberships[0].Status != "active" {
		t.Errorf("list: %+v", list)
	}
	ok(t, cs, "client_memberships", map[string]any{"client_id": 1}, &list)
	if len(list.Memberships) != 1 || list.Memberships[0].ClientID != 1 {
		t.Errorf("client 1: %+v", list)
	}
	fails(t, cs, "client_memberships", map[string]any{"client_id": 999}, "not_found")
	fails(t, f.connect(f.newKey("clients:read", true)), "list_memberships", map[string]any{}, "scope_denied")
}
