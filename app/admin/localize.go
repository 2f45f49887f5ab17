package admin

import (
	"context"
	"net/http"

	"frontdesk/app/locale"
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
