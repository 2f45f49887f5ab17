package staff

import "context"

type ctxKey struct{}

// WithAccount returns ctx carrying the signed-in account (app/admin puts it there for every
// request of a signed-in person), for whatever records who did something.
func WithAccount(ctx context.Context, a Account) context.Context {
	return context.WithValue(ctx, ctxKey{}, a)
}

// AccountFrom returns the signed-in account ctx carries: its id, email, name and role.
func AccountFrom(ctx context.Context) (Account, bool) {
	a, ok := ctx.Value(ctxKey{}).(Account)
	return a, ok
}
