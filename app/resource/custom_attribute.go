package resource

import (
	"database/sql"

	"frontdesk/db"
)

// CustomAttributeTemplate is the Connect v3 CustomAttributeTemplate: a company-level client
// field definition.
type CustomAttributeTemplate struct {
	ID                  int64               `json:"id"`
	Name                string              `json:"name"`
	Datatype            string              `json:"datatype"`
	Order               int64               `json:"order"`
	Description         *string             `json:"description"`
	Mandatory           bool                `json:"mandatory"`
	AttributeGroup      *AttributeGroup     `json:"attribute_group"`
	AttributeCategories []AttributeCategory `json:"attribute_categories"`
}

// AttributeGroup groups templates for display.
type AttributeGroup struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Order int64  `json:"order"`
}

// AttributeCategory is one option of a categoric template.
type AttributeCategory struct {
	ID       int64  `json:"id"`
	Category string `json:"category"`
	Order    int64  `json:"order"`
}

// NewCustomAttributeTemplate builds a template from its row, its group (null when ungrouped)
// and its options.
func NewCustomAttributeTemplate(a db.CustomAttribute, groupName sql.NullString, groupOrder sql.NullInt64, options []db.AttributeOption) CustomAttributeTemplate {
	out := CustomAttributeTemplate{
		ID: a.ID, Name: a.Name, Datatype: a.Datatype, Order: a.SortOrder, Description: NullString(a.Description),
		Mandatory: a.Mandatory, AttributeCategories: make([]AttributeCategory, 0, len(options)),
	}
	if a.GroupID.Valid && groupName.Valid {
		out.AttributeGroup = &AttributeGroup{ID: a.GroupID.Int64, Name: groupName.String, Order: groupOrder.Int64}
	}
	for _, o := range options {
		out.AttributeCategories = append(out.AttributeCategories, AttributeCategory{ID: o.ID, Category: o.Label, Order: o.SortOrder})
	}
	return out
}
