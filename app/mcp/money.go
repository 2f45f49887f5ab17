package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"frontdesk/app/payments"
	"frontdesk/app/resource"
)

// Gift cards and memberships (docs/payments.md): reads only, as GET /v3/gift_cards/{code},
// GET /v3/memberships and GET /v3/clients/{id}/memberships answer them.

var giftCardTool = toolSpec{
	name: "gift_card_balance", title: "A gift card's balance", scope: "sales:read", readOnly: true, idempotent: true,
	description: "Reads a gift card by its code (as the customer reads it out: any case, with or without dashes): " +
		"its value, what is left, its expiry and whether it can pay (status pending, active, expired or void).",
	input: object([]string{"code"},
		stringArg("code", "The card's code, e.g. 7K3M-Q9TX-2HBD-W4PE.", 64),
	),
}

type giftCardArgs struct {
	Code string `json:"code"`
}

func (s *Server) giftCardBalance(ctx context.Context, _ call, in *giftCardArgs) (answer, error) {
	if strings.TrimSpace(in.Code) == "" {
		return answer{}, invalid("code", "is required")
	}
	card, err := payments.GiftCardByCode(ctx, s.db.R, s.now(), in.Code)
	if errors.Is(err, payments.ErrGiftCardNotFound) {
		return answer{}, notFound("code", "no gift card has this code; ask the customer to read it again")
	} else if err != nil {
		return answer{}, err
	}
	text := fmt.Sprintf("Gift card %s (%s): %s left of %s.", card.Code, card.Status, card.Balance, card.Value)
	if card.ExpiresAt != nil {
		text += " Expires " + *card.ExpiresAt + "."
	}
	return answer{data: card, text: text}, nil
}

var membershipsTool = toolSpec{
	name: "list_memberships", title: "List memberships", scope: "sales:read", readOnly: true, idempotent: true,
	description: "Lists the clients' memberships, newest first, with their plan, status and the end of the period paid.",
	input: object(nil,
		intArg("limit", "Most memberships to return (1-100, default 30).", 1, 100),
	),
}

type membershipsArgs struct {
	Limit *int64 `json:"limit"`
}

func (s *Server) listMemberships(ctx context.Context, _ call, in *membershipsArgs) (answer, error) {
	limit := int64(30)
	if in.Limit != nil {
		if limit = *in.Limit; limit < 1 || limit > 100 {
			return answer{}, invalid("limit", "must be between 1 and 100")
		}
	}
	rows, total, err := payments.ListMemberships(ctx, s.db.R, 0, limit, 0)
	if err != nil {
		return answer{}, err
	}
	return answer{data: map[string]any{"memberships": rows, "total": total},
		text: fmt.Sprintf("%d membership(s) in all.", total) + membershipLines(rows)}, nil
}

var clientMembershipsTool = toolSpec{
	name: "client_memberships", title: "A client's memberships", scope: "clients:read", readOnly: true, idempotent: true,
	description: "Lists a client's memberships, newest first, with their plan, status and the end of the period paid.",
	input: object([]string{"client_id"},
		idArg("client_id", "The client, from find_or_create_client."),
	),
}

type clientMembershipsArgs struct {
	ClientID int64 `json:"client_id"`
}

func (s *Server) clientMemberships(ctx context.Context, _ call, in *clientMembershipsArgs) (answer, error) {
	if err := requiredID("client_id", in.ClientID); err != nil {
		return answer{}, err
	}
	rows, _, err := payments.ListMemberships(ctx, s.db.R, in.ClientID, 100, 0)
	if err != nil {
		return answer{}, err // an unknown client is not_found on client_id (toToolError)
	}
	return answer{data: map[string]any{"memberships": rows},
		text: fmt.Sprintf("Client %d has %d membership(s).", in.ClientID, len(rows)) + membershipLines(rows)}, nil
}

// membershipLines writes one line per membership for the model to read.
func membershipLines(rows []resource.Membership) string {
	var b strings.Builder
	for _, m := range rows {
		fmt.Fprintf(&b, "\n- %d: client %d, %s (%s a month), %s", m.ID, m.ClientID, m.Plan.Name, m.Plan.Price, m.Status)
		if m.CurrentPeriodEnd != nil {
			b.WriteString(", paid until " + *m.CurrentPeriodEnd)
		}
	}
	return b.String()
}
