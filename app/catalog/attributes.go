package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"frontdesk/db"
)

// Datatypes of custom attribute templates, mirrored by the CHECK on custom_attributes.datatype,
// in the order the form offers them.
var Datatypes = []string{"text", "textarea", "integer", "float", "boolean", "date", "datetime", "categoric", "file"}

// DatatypeCategoric is the datatype whose values are chosen from options.
const DatatypeCategoric = "categoric"

// maxOptions bounds a categoric template's options: a choice list, not a data set.
const maxOptions = 100

// AttributeInput is a custom attribute template as the owner types it. Group is a group's name
// ("" = none; a new name creates the group); Options are a categoric template's choices, one
// per line, in order.
type AttributeInput struct {
	Name        string `form:"name"`
	Datatype    string `form:"datatype"`
	Description string `form:"description"`
	Mandatory   bool   `form:"mandatory"`
	Order       string `form:"order"`
	Group       string `form:"group"`
	Options     string `form:"options"`
}

// NewAttributeInput is the form of a new template.
func NewAttributeInput() AttributeInput { return AttributeInput{Datatype: "text", Order: "0"} }

type attribute struct {
	row     db.UpdateCustomAttributeParams // without GroupID and ID
	group   string
	options []string
}

func (in AttributeInput) check() (attribute, error) {
	p := problems{}
	var a attribute
	a.row.Name = p.name("name", in.Name, true, MaxName)
	a.row.Datatype = in.Datatype
	if !slices.Contains(Datatypes, in.Datatype) {
		p.add("datatype", "Choose a type from the list.")
	}
	if d := p.longText("description", in.Description, maxDescription); d != "" {
		a.row.Description = sql.NullString{String: d, Valid: true}
	}
	a.row.Mandatory = in.Mandatory
	a.row.SortOrder = p.whole("order", in.Order, 0, -1_000_000, 1_000_000)
	a.group = p.name("group", in.Group, false, MaxName)
	if in.Datatype != DatatypeCategoric {
		return a, p.err() // options belong to categoric templates only; others have none
	}
	seen := map[string]bool{}
	for line := range strings.Lines(in.Options) {
		o := p.name("options", line, false, MaxName)
		switch {
		case o == "":
		case seen[strings.ToLower(o)]:
			p.add("options", "“%s” is listed twice.", clip(o))
		default:
			seen[strings.ToLower(o)] = true
			a.options = append(a.options, o)
		}
	}
	switch {
	case len(a.options) == 0:
		p.add("options", "List the choices, one per line.")
	case len(a.options) > maxOptions:
		p.add("options", "Use at most %d choices.", maxOptions)
	}
	return a, p.err()
}

// groupID finds the group named name (ignoring case) or creates it at the end of the groups.
func groupID(ctx context.Context, q *db.Queries, name string) (sql.NullInt64, error) {
	if name == "" {
		return sql.NullInt64{}, nil
	}
	groups, err := q.ListAttributeGroups(ctx)
	if err != nil {
		return sql.NullInt64{}, err
	}
	for _, g := range groups {
		if strings.EqualFold(g.Name, name) {
			return nullID(g.ID), nil
		}
	}
	order, err := q.NextAttributeGroupOrder(ctx)
	if err != nil {
		return sql.NullInt64{}, err
	}
	g, err := q.CreateAttributeGroup(ctx, db.CreateAttributeGroupParams{Name: name, SortOrder: order})
	return nullID(g.ID), err
}

// CreateAttribute stores a new custom attribute template.
func CreateAttribute(ctx context.Context, d *db.DB, in AttributeInput) (int64, error) {
	a, err := in.check()
	if err != nil {
		return 0, err
	}
	var id int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		group, err := groupID(ctx, q, a.group)
		if err != nil {
			return err
		}
		r := a.row
		row, err := q.CreateCustomAttribute(ctx, db.CreateCustomAttributeParams{Name: r.Name, Datatype: r.Datatype, SortOrder: r.SortOrder,
			Description: r.Description, Mandatory: r.Mandatory, GroupID: group})
		if err != nil {
			return err
		}
		id = row.ID
		return syncOptions(ctx, q, id, nil, a.options)
	})
	return id, err
}

// UpdateAttribute saves template id. Clients' values are kept valid: the datatype of a template
// that clients have values for cannot change, and a categoric choice that clients hold cannot be
// removed (values are stored as the choice's text).
func UpdateAttribute(ctx context.Context, d *db.DB, id int64, in AttributeInput) error {
	a, err := in.check()
	if err != nil {
		return err
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetCustomAttribute(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		p := problems{}
		if old.CustomAttribute.Datatype != a.row.Datatype {
			n, err := q.CountAttributeValues(ctx, id)
			if err != nil {
				return err
			}
			if n > 0 {
				p.add("datatype", "%d client(s) have a value for this field, so its type cannot change. Add a new field instead.", n)
			}
		}
		if a.row.Datatype == DatatypeCategoric {
			inUse, err := q.ListAttributeValuesInUse(ctx, id)
			if err != nil {
				return err
			}
			for _, v := range inUse {
				if !slices.ContainsFunc(a.options, func(o string) bool { return strings.EqualFold(o, v.String) }) {
					p.add("options", "“%s” is chosen by clients, so it must stay a choice.", clip(v.String))
				}
			}
		}
		if err := p.err(); err != nil {
			return err
		}
		r := a.row
		if r.GroupID, err = groupID(ctx, q, a.group); err != nil {
			return err
		}
		r.ID = id
		if err := q.UpdateCustomAttribute(ctx, r); err != nil {
			return err
		}
		existing, err := q.ListAttributeOptionsOf(ctx, id)
		if err != nil {
			return err
		}
		return syncOptions(ctx, q, id, existing, a.options)
	})
}

// syncOptions makes template id's options exactly want, in order: options that stay keep their
// id, others are added or removed.
func syncOptions(ctx context.Context, q *db.Queries, id int64, existing []db.AttributeOption, want []string) error {
	kept := map[string]bool{}
	for _, o := range existing {
		i := slices.Index(want, o.Label)
		if i < 0 || kept[o.Label] {
			if err := q.DeleteAttributeOption(ctx, o.ID); err != nil {
				return err
			}
			continue
		}
		kept[o.Label] = true
		if err := q.UpdateAttributeOptionOrder(ctx, db.UpdateAttributeOptionOrderParams{SortOrder: int64(i), ID: o.ID}); err != nil {
			return err
		}
	}
	for i, label := range want {
		if kept[label] {
			continue
		}
		if err := q.CreateAttributeOption(ctx, db.CreateAttributeOptionParams{AttributeID: id, Label: label, SortOrder: int64(i)}); err != nil {
			return err
		}
	}
	return nil
}

// DeleteAttribute removes template id with every client's value for it.
func DeleteAttribute(ctx context.Context, d *db.DB, id int64) error {
	n, err := d.W.DeleteCustomAttribute(ctx, id)
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// EditAttribute returns template id as its form shows it.
func EditAttribute(ctx context.Context, q *db.Queries, id int64) (AttributeInput, error) {
	row, err := q.GetCustomAttribute(ctx, id)
	if db.IsNotFound(err) {
		return AttributeInput{}, ErrNotFound
	}
	if err != nil {
		return AttributeInput{}, err
	}
	options, err := q.ListAttributeOptionsOf(ctx, id)
	if err != nil {
		return AttributeInput{}, err
	}
	a := row.CustomAttribute
	labels := make([]string, len(options))
	for i, o := range options {
		labels[i] = o.Label
	}
	return AttributeInput{
		Name: a.Name, Datatype: a.Datatype, Description: a.Description.String, Mandatory: a.Mandatory,
		Order: strconv.FormatInt(a.SortOrder, 10), Group: row.GroupName.String, Options: strings.Join(labels, "\n"),
	}, nil
}

// AttributeValueCount is how many clients have a value for template id (shown before a delete).
func AttributeValueCount(ctx context.Context, q *db.Queries, id int64) (int64, error) {
	n, err := q.CountAttributeValues(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("count values of attribute %d: %w", id, err)
	}
	return n, nil
}
