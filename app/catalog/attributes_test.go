package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestAttributes(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	in := AttributeInput{Name: "Hair type", Datatype: DatatypeCategoric, Order: "2", Group: "Profile", Options: "Straight\r\nCurly\n\n  Wavy  \n"}
	id, err := CreateAttribute(ctx, d, in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EditAttribute(ctx, d.R, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Options != "Straight\nCurly\nWavy" || got.Group != "Profile" || got.Order != "2" {
		t.Fatalf("form of the stored template: %+v", got)
	}
	options, err := d.R.ListAttributeOptionsOf(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	curly := options[1].ID

	// A second template joins the same group, whatever the case.
	other, err := CreateAttribute(ctx, d, AttributeInput{Name: "Notes", Datatype: "textarea", Group: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	groups, err := d.R.ListAttributeGroups(ctx)
	if err != nil || len(groups) != 1 {
		t.Errorf("got groups %+v (%v), want one", groups, err)
	}

	// A client picks "Curly".
	if _, err := d.Write.Exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (1, 'Ana', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (1, ?, 'Curly')`, id); err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		name  string
		edit  func(*AttributeInput)
		field string
	}{
		{"removing a choice in use", func(in *AttributeInput) { in.Options = "Straight\nWavy" }, "options"},
		{"changing the type of a template in use", func(in *AttributeInput) { in.Datatype, in.Options = "text", "" }, "datatype"},
		{"a choice twice", func(in *AttributeInput) { in.Options = "Curly\ncurly" }, "options"},
		{"no choices", func(in *AttributeInput) { in.Options = " \n " }, "options"},
		{"unknown type", func(in *AttributeInput) { in.Datatype = "color" }, "datatype"},
		{"no name", func(in *AttributeInput) { in.Name = "" }, "name"},
		{"order not a number", func(in *AttributeInput) { in.Order = "first" }, "order"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			in := got
			tc.edit(&in)
			var inv *Invalid
			if err := UpdateAttribute(ctx, d, id, in); !errors.As(err, &inv) || inv.Fields[tc.field] == "" {
				t.Fatalf("got %v, want a message for %s", err, tc.field)
			}
		})
	}

	got.Options = "Wavy\nCurly\nCoily" // reorder, drop an unused choice, add one
	if err := UpdateAttribute(ctx, d, id, got); err != nil {
		t.Fatal(err)
	}
	options, err = d.R.ListAttributeOptionsOf(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, o := range options {
		labels = append(labels, o.Label)
	}
	if strings.Join(labels, ",") != "Wavy,Curly,Coily" || options[1].ID != curly {
		t.Errorf("got options %v (Curly id %d, was %d), want Wavy,Curly,Coily with Curly kept", labels, options[1].ID, curly)
	}

	if err := DeleteAttribute(ctx, d, other); err != nil {
		t.Fatal(err)
	}
	if err := DeleteAttribute(ctx, d, other); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting twice: got %v, want ErrNotFound", err)
	}
	if err := DeleteAttribute(ctx, d, id); err != nil {
		t.Fatal(err)
	}
	if n, err := d.R.CountAttributeValues(ctx, id); err != nil || n != 0 {
		t.Errorf("got %d values of a deleted template (%v), want them deleted with it", n, err)
	}
}
