package mcp

import (
	"context"
	"fmt"

	"frontdesk/app/clients"
)

var findClientTool = toolSpec{
	name: "find_or_create_client", title: "Find or create the customer", scope: "clients:read", idempotent: true,
	description: "Finds the customer's client record by the email or phone they give you (exact match; phone with " +
		"the country code, e.g. +56912345678) and returns its client_id. When there is none and you pass " +
		"first_name, it creates the client (that needs the clients:write scope too). It never lists or " +
		"reveals other clients, nor any contact detail the customer did not give.",
	input: object(nil,
		stringArg("email", "The customer's email address.", 255),
		stringArg("phone", "The customer's phone, with country code (spaces and dashes are fine).", 40),
		stringArg("first_name", "To create the client when none is found: the customer's first name.", 255),
		stringArg("last_name", "To create the client: the customer's last name.", 255),
	),
}

type findClientArgs struct {
	Email     string `json:"email"`
	Phone     string `json:"phone"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
}

// clientOut shows a client to the assistant: only the name, for greeting and confirming, and
// which of the details the customer gave matched.
type clientOut struct {
	ClientID  int64  `json:"client_id"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name,omitempty"`
	MatchedBy string `json:"matched_by,omitempty"` // email or phone; empty when created
	Created   bool   `json:"created"`
}

func (s *Server) findOrCreateClient(ctx context.Context, c call, in *findClientArgs) (answer, error) {
	var email, phone string
	var err error
	if in.Email, err = text("email", in.Email, 255, false); err != nil {
		return answer{}, err
	}
	if in.Phone, err = text("phone", in.Phone, 40, false); err != nil {
		return answer{}, err
	}
	if in.Email == "" && in.Phone == "" {
		return answer{}, invalid("email", "give the customer's email or phone (or both)")
	}
	if in.Email != "" {
		if email, err = clients.NormalizeEmail(in.Email); err != nil {
			return answer{}, err
		}
	}
	if in.Phone != "" {
		if phone, err = clients.NormalizePhone(in.Phone); err != nil {
			return answer{}, err
		}
	}
	// The one matching rule, the booking site's too: email, then phone, among active clients.
	m, found, err := clients.Find(ctx, s.db.R, email, phone)
	if err != nil {
		return answer{}, err
	}
	if found {
		return clientAnswer(clientOut{ClientID: m.ID, FirstName: m.FirstName, LastName: m.LastName, MatchedBy: m.By}), nil
	}
	by := "email" // what was looked for, for the answer
	switch {
	case phone != "" && email != "":
		by = "email or phone"
	case phone != "":
		by = "phone"
	}
	first, err := text("first_name", in.FirstName, 255, false)
	if err != nil {
		return answer{}, err
	}
	last, err := text("last_name", in.LastName, 255, false)
	if err != nil {
		return answer{}, err
	}
	if first == "" {
		return answer{}, notFound("", "no client has that %s. To create one, call again with first_name (and last_name) as the customer gives them", by)
	}
	if !c.key.Allows("clients:write") {
		return answer{}, &toolError{Kind: kindScope, Message: "no client has that " + by + ", and this API key may not create clients (it lacks the clients:write scope)"}
	}
	// Created through app/clients as /v3 does: the same validation and client.created event.
	input := clients.Input{FirstName: clients.Value(first)}
	if last != "" {
		input.LastName = clients.Value(last)
	}
	if email != "" {
		input.Email = clients.Value(email)
	}
	if phone != "" {
		input.Phone = clients.Value(phone)
	}
	created, err := clients.Create(ctx, s.db, s.now(), input, clients.Options{})
	if err != nil {
		return answer{}, err
	}
	return clientAnswer(clientOut{ClientID: created.ID, FirstName: created.FirstName, LastName: deref(created.LastName), Created: true}), nil
}

func clientAnswer(o clientOut) answer {
	name := o.FirstName
	if o.LastName != "" {
		name += " " + o.LastName
	}
	text := fmt.Sprintf("Found client %d, %s (matched by %s).", o.ClientID, name, o.MatchedBy)
	if o.Created {
		text = fmt.Sprintf("Created client %d, %s.", o.ClientID, name)
	}
	return answer{data: o, text: text}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
