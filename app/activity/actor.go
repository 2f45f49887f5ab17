// Package activity is the activity trail (docs/activity.md): who changed what, when and from
// where. Each surface puts the actor in the request's context (WithActor: the admin's signed-in
// account, the /v3 or MCP key, the booking site's visitor, the CLI's user); the use cases call
// Record inside the transaction of the change they make, so an entry exists exactly when its
// change committed. Reading (List, ForEntity) and pruning (Pruner) are here too.
package activity

import "context"

// Kind is what sort of actor made a change; the values are the CHECK of activity.actor_kind.
type Kind string

const (
	KindOwner  Kind = "owner"   // an account signed in to the admin
	KindAPIKey Kind = "api_key" // a /v3 request with an API key
	KindMCP    Kind = "mcp"     // an MCP tool call with an API key
	KindClient Kind = "client"  // a customer on the booking site or a personal link, known by their client id
	KindSite   Kind = "site"    // the booking site before the visitor is known
	KindCLI    Kind = "cli"     // a command on the server, as an operating-system user
	KindSystem Kind = "system"  // the appliance itself: expiry, waitlist promotion, workers
)

// Kinds are the kinds in the order the Settings → Activity filter lists them.
var Kinds = []Kind{KindOwner, KindAPIKey, KindMCP, KindClient, KindSite, KindCLI, KindSystem}

// Actor is who made a change: a kind, the id of the account, key or client (an operating-system
// user name for the CLI; "" when there is none), and a label a reader recognizes, such as the
// account's email or the key's name.
type Actor struct {
	Kind  Kind
	ID    string
	Label string
}

// System is the appliance acting on its own; what names the job ("waitlist", "expiry").
func System(what string) Actor { return Actor{Kind: KindSystem, Label: what} }

type actorKey struct{}

type ipKey struct{}

// WithActor returns ctx carrying a as the actor of every change made under it.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom is the actor ctx carries; a context no surface marked is the system's.
func ActorFrom(ctx context.Context) Actor {
	if a, ok := ctx.Value(actorKey{}).(Actor); ok && a.Kind != "" {
		return a
	}
	return Actor{Kind: KindSystem}
}

// WithIP returns ctx carrying the client address of the request a change came from, as the
// request middleware resolved it (behind trusted proxies, the address they vouch for).
func WithIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, ipKey{}, ip)
}

func ipFrom(ctx context.Context) string {
	ip, _ := ctx.Value(ipKey{}).(string)
	return ip
}
