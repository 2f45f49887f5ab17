package clients

import (
	"context"
	"testing"

	"frontdesk/db"
)

// TestFind: the one matching rule — the oldest active client with the email, else the oldest
// active client with the phone; deactivated clients never; an empty detail is not looked up.
func TestFind(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	for _, s := range []string{
		`INSERT INTO clients (id, first_name, email, phone, active, created_at, updated_at) VALUES
			(2, 'Gone', 'ana@example.com', '+56911111111', 0, 0, 0),
			(3, 'Ana', 'ana@example.com', NULL, 1, 0, 0),
			(4, 'Ana Two', 'ana@example.com', '+56922222222', 1, 0, 0),
			(5, 'Bea', NULL, '+56922222222', 1, 0, 0)`,
	} {
		if _, err := d.Write.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		email, phone string
		id           int64
		by           string
	}{
		{"ana@example.com", "+56922222222", 3, "email"},    // the email first, the oldest active
		{"nobody@example.com", "+56922222222", 4, "phone"}, // then the phone
		{"", "+56922222222", 4, "phone"},
		{"", "+56911111111", 0, ""}, // deactivated
		{"", "", 0, ""},
	} {
		m, ok, err := Find(ctx, d.R, c.email, c.phone)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (c.id != 0) || m.ID != c.id || m.By != c.by {
			t.Errorf("Find(%q, %q) = %+v, %v; want client %d by %q", c.email, c.phone, m, ok, c.id, c.by)
		}
	}
}

// TestFindOrCreate: a match is used as it is, but for the answers to custom attributes it has
// not given yet; nobody matching makes a new client; inside a caller's transaction
// (db.WithTx) a client created a moment before is found, so one visitor is one client.
func TestFindOrCreate(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	if _, err := d.Write.Exec(`UPDATE clients SET email = 'maria@example.com' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	in := Input{FirstName: Value("Someone"), Email: Value("maria@example.com"), Phone: Value("+56933333333"),
		CustomAttributes: []AttributeValue{{ID: 1, Value: str("Pia")}, {ID: 2, Value: str("Straight")}}}
	id, err := FindOrCreate(ctx, d, testNow, in)
	if err != nil || id != 1 {
		t.Fatalf("FindOrCreate of Maria's email: %d, %v; want client 1", id, err)
	}
	c, err := Load(ctx, d.R, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.FirstName != "Maria" || len(c.CustomAttributes) != 2 {
		t.Errorf("the match became %+v; want Maria with the Stylist answer added and her Hair type kept", c)
	}
	for _, a := range c.CustomAttributes {
		if a.ID == 2 && (a.Value == nil || *a.Value != "Curly") {
			t.Errorf("an answer the client had was changed to %v", a.Value)
		}
	}
	in.Email = Value("new@example.com")
	in.Phone = Value("+56944444444")
	var first, second int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		jctx := db.WithTx(ctx, q)
		var err error
		if first, err = FindOrCreate(jctx, d, testNow, in); err != nil {
			return err
		}
		second, err = FindOrCreate(jctx, d, testNow, in)
		return err
	})
	if err != nil || first == 1 || first != second {
		t.Errorf("a new visitor twice in one transaction: clients %d and %d (%v), want one new client", first, second, err)
	}
}
