package admin

import (
	"context"
	"net/http"
	"strconv"

	"frontdesk/app/booking"
	"frontdesk/app/locale"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

type businessKey struct{}

// localize writes every page in the business's language, currency and clock (public pages
// too: sign-in, setup, checkout). requireOwner then switches to the signed-in owner's own
// language if they chose one (withOwnerLanguage).
func (a *Admin) localize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		biz, err := locale.Load(r.Context(), a.db.R)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		ctx := context.WithValue(r.Context(), businessKey{}, biz)
		next.ServeHTTP(w, r.WithContext(i18n.WithPrinter(ctx, biz.Printer())))
	})
}

// withOwnerLanguage is ctx with the printer of the owner's language ("" = the business's).
func withOwnerLanguage(ctx context.Context, language string) context.Context {
	biz, ok := ctx.Value(businessKey{}).(locale.Business)
	if !ok || language == "" {
		return ctx
	}
	return i18n.WithPrinter(ctx, biz.ForOwner(language))
}

// business is the business's locale setting of the request.
func business(ctx context.Context) locale.Business {
	biz, _ := ctx.Value(businessKey{}).(locale.Business)
	return biz
}

// translate is the request's printer's text for key.
func translate(r *http.Request, key string, args ...any) string {
	return i18n.T(r.Context(), key, args...)
}

// ownerLanguage is the signed-in owner's own language choice ("" = the business's).
func ownerLanguage(ctx context.Context) string {
	o, _ := ownerFrom(ctx)
	return o.Language
}

// bookingStatusName names a booking status (status_id) for the owner, as a label or badge.
func bookingStatusName(ctx context.Context, id int64) string {
	switch id {
	case booking.StatusConfirmed:
		return i18n.T(ctx, "booking.status.confirmed")
	case booking.StatusReserved:
		return i18n.T(ctx, "booking.status.reserved")
	case booking.StatusAttended:
		return i18n.T(ctx, "booking.status.attended")
	case booking.StatusNoShow:
		return i18n.T(ctx, "booking.status.no_show")
	}
	return i18n.T(ctx, "booking.status.cancelled")
}

// bookingStatusOptions are the statuses an owner may give a booking (cancelling has its own
// page).
func bookingStatusOptions(r *http.Request) []ui.Option {
	var out []ui.Option
	for _, id := range []int64{booking.StatusConfirmed, booking.StatusReserved, booking.StatusAttended, booking.StatusNoShow} {
		out = append(out, ui.Option{Value: strconv.FormatInt(id, 10), Label: bookingStatusName(r.Context(), id)})
	}
	return out
}
