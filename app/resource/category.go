package resource

import "frontdesk/db"

// Category is the Connect v3 service Category.
type Category struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Order     int64  `json:"order"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// NewCategory builds the resource.
func NewCategory(c db.Category) Category {
	return Category{ID: c.ID, Name: c.Name, Order: c.SortOrder, CreatedAt: Timestamp(c.CreatedAt), UpdatedAt: Timestamp(c.UpdatedAt)}
}
