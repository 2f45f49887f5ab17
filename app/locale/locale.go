// Package locale chooses how texts are written for a reader: the business's language, clock
// and currency from the company row, and an owner's own language where they chose one. Every
// surface that shows text to people (admin, booking site, checkout, emails) gets its
// i18n.Printer here, so the choice is made in one place (docs/i18n.md).
package locale

import (
	"context"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Business is the business's own setting: language, currency and clock.
type Business struct {
	Language string
	Prefs    i18n.Prefs
}

// Load reads the business's setting; an installation without a company row yet gets the
// defaults (English, USD, 24-hour clock), as the schema's column defaults say.
func Load(ctx context.Context, q *db.Queries) (Business, error) {
	row, err := q.CompanyLocale(ctx)
	if db.IsNotFound(err) {
		return Business{Language: i18n.Default, Prefs: i18n.Prefs{Currency: "USD", Clock24: true}}, nil
	}
	if err != nil {
		return Business{}, err
	}
	return Business{Language: row.Language, Prefs: i18n.Prefs{Currency: row.Currency, Clock24: row.Clock != Clock12}}, nil
}

// Clock settings, mirrored by the CHECK on company.clock.
const (
	Clock24 = "24h"
	Clock12 = "12h"
)

// Printer writes for a reader of the business (a client, a visitor of the booking site).
func (b Business) Printer() *i18n.Printer { return i18n.NewPrinter(b.Language, b.Prefs) }

// ForOwner writes for an owner who chose language ("" = the business's).
func (b Business) ForOwner(language string) *i18n.Printer {
	if language == "" || !i18n.Supported(language) {
		return b.Printer()
	}
	return i18n.NewPrinter(language, b.Prefs)
}
