package i18n

import "context"

type printerKey struct{}

// WithPrinter returns ctx carrying p, for the pages rendered while handling one request.
func WithPrinter(ctx context.Context, p *Printer) context.Context {
	return context.WithValue(ctx, printerKey{}, p)
}

// From returns the printer ctx carries, or an English one with default preferences.
func From(ctx context.Context) *Printer {
	if p, ok := ctx.Value(printerKey{}).(*Printer); ok {
		return p
	}
	return NewPrinter(Default, Prefs{Clock24: true})
}

// T is From(ctx).T: the text for key in the request's language. Templates call it as
// { i18n.T(ctx, "nav.bookings") }.
func T(ctx context.Context, key string, args ...any) string { return From(ctx).T(key, args...) }
