package catalog

import (
	"database/sql"
	"strings"

	"frontdesk/app/clients"
)

// A provider is a person the business reaches: an email address (where their booking and agenda
// emails go, docs/messages.md) and a phone number. Both are read by the rules clients' are, so
// a number is stored the same way whoever it belongs to; the admin's form and the importer
// check them here.

// Texts of a provider's contact problems (fieldTexts gives their catalog messages).
const (
	providerEmailText  = "Enter an email address like name@example.com."
	providerPhoneText  = "Enter the number in international form with the country code, like +56 9 1234 5678."
	providerNotifyText = "Enter the provider's email address to email them about their bookings."
	providerAgendaText = "Enter a time like 07:00 (or 7:00 am), or leave it empty for no daily agenda."
)

// ProviderContact is a provider's email and phone as they are stored: the email trimmed and
// lower-cased, the phone in E.164 ("" for none).
type ProviderContact struct {
	Email, Phone string
}

// CheckProviderContact reads a provider's email and phone; a phone written without "+" is read
// as it is dialled in country (their main location's, ISO 3166-1 alpha-2), as the booking site
// reads a client's (clients.NormalizePhoneIn). problems maps "email" and "phone" to what is
// wrong with them; it is empty when both are fine.
func CheckProviderContact(email, phone, country string) (ProviderContact, map[string]string) {
	var out ProviderContact
	problems := map[string]string{}
	if email = strings.TrimSpace(email); email != "" {
		e, err := clients.NormalizeEmail(email)
		if err != nil || len(e) > MaxName {
			problems["email"] = providerEmailText
		}
		out.Email = e
	}
	if phone = strings.TrimSpace(phone); phone != "" {
		p, err := clients.NormalizePhoneIn(phone, country)
		if err != nil {
			problems["phone"] = providerPhoneText
		}
		out.Phone = p
	}
	return out, problems
}

// agendaMinute is the stored agenda time: minutes after midnight, or NULL for no agenda.
func agendaMinute(m int64, ok bool) sql.NullInt64 { return sql.NullInt64{Int64: m, Valid: ok} }
