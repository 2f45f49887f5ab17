package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"frontdesk/app/webhook"
)

const webhookUsage = `Usage: frontdesk webhook <subcommand> [flags]

  create --url URL --events LIST [--description D] [--allow-private]
         [--key-mode standard|secret-text]
                               register a webhook; prints only its signing secret
  list [--json]                id, URL, events, state (and whether paused), last delivery,
                               success rate and the error category of the latest attempt if it
                               failed (never secrets)
  reactivate ID [--replay-missed]
                               resume delivery; optionally queue again what it missed
  rotate-secret ID [--grace 24h]
                               new signing secret (printed); the old one signs alongside it
                               for the grace period
  delete ID                    remove a webhook with its delivery log
  test ID                      queue a webhook.test event for that webhook only; prints the
                               event id (the webhook-id header); the running server sends it

Every subcommand takes --data DIR (env FRONTDESK_DATA). See docs/webhooks.md.`

// runWebhook is `frontdesk webhook …`, the operator's side of docs/webhooks.md. Output meant for
// scripts (a secret, an event id, --json) goes to stdout; messages go to stderr.
func runWebhook(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, webhookUsage)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "create":
		return webhookCreate(ctx, env, args)
	case "list":
		return webhookList(ctx, env, args)
	case "reactivate":
		return webhookReactivate(ctx, env, args)
	case "rotate-secret":
		return webhookRotate(ctx, env, args)
	case "delete":
		return webhookDelete(ctx, env, args)
	case "test":
		return webhookTest(ctx, env, args)
	}
	return usagef("unknown subcommand %q (want create, list, reactivate, rotate-secret, delete or test)", sub)
}

// withManager opens the database for one subcommand.
func withManager(ctx context.Context, env Env, dataDir string, fn func(m *webhook.Manager) error) error {
	d, err := openData(ctx, env, dataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	return fn(webhook.NewManager(d, webhook.ManagerOptions{Now: env.Now, Schedule: envSchedule(env)}))
}

// envSchedule is the retry schedule serve uses by the same environment, for list's countdown.
func envSchedule(env Env) webhook.Schedule {
	if s, err := webhook.ParseSchedule(env.Getenv("FRONTDESK_WEBHOOK_RETRY_SCHEDULE")); err == nil {
		return s
	}
	return webhook.DefaultSchedule()
}

func webhookCreate(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("webhook create", "--data DIR --url URL --events LIST [--description D] [--allow-private] [--key-mode standard|secret-text]", env)
	data := dataFlag(fs, env)
	url := fs.String("url", "", "where to POST events: an absolute http(s) URL (required)")
	events := fs.String("events", "", "comma-separated event types and patterns, e.g. booking.*,client.created or * (required)")
	desc := fs.String("description", "", "a note to tell webhooks apart")
	allowPrivate := fs.Bool("allow-private", false, "accept a loopback, private or link-local address as the URL's host (serve must also run with --webhook-allow-private)")
	keyMode := fs.String("key-mode", webhook.KeyModeStandard, "the signature's HMAC key: standard (the secret's decoded key bytes, as Standard Webhooks libraries verify) or secret-text (the whole secret text, for receivers that use the secret as key literally); see docs/webhooks.md")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *url == "" || *events == "" {
		return usagef("--url and --events are required")
	}
	return withManager(ctx, env, *data, func(m *webhook.Manager) error {
		w, secret, err := m.Create(ctx, webhook.CreateInput{URL: *url, Events: splitList(*events), Description: *desc, AllowPrivate: *allowPrivate, KeyMode: *keyMode})
		if err != nil {
			return explain(err)
		}
		fmt.Fprintln(env.Stdout, secret)
		fmt.Fprintf(env.Stderr, "webhook %d created; the secret above is shown only once\n", w.ID)
		return nil
	})
}

// explain turns a validation failure into a usage error, with a hint where one helps.
func explain(err error) error {
	var fe *webhook.FieldError
	if !errors.As(err, &fe) || fe.Field == "" {
		return err
	}
	if errors.Is(err, webhook.ErrPrivateTarget) {
		return usagef("--url: %v (pass --allow-private, and run serve with --webhook-allow-private, for LAN or local receivers)", err)
	}
	return usagef("--%s: %v", strings.ReplaceAll(fe.Field, "_", "-"), err)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// webhookJSON is one line of `webhook list --json`, a stable shape for scripts.
type webhookJSON struct {
	ID                int64         `json:"id"`
	URL               string        `json:"url"`
	Events            []string      `json:"events"`
	Description       string        `json:"description"`
	KeyMode           string        `json:"key_mode"`
	State             string        `json:"state"`
	DeactivatedReason *string       `json:"deactivated_reason"`
	DeactivatedAt     *string       `json:"deactivated_at"`
	CreatedAt         string        `json:"created_at"`
	LastSuccessAt     *string       `json:"last_success_at"`
	LastDelivery      *deliveryJSON `json:"last_delivery"`
	SuccessRate       *float64      `json:"success_rate"` // over the last sample deliveries; null if none
	Sample            int           `json:"sample"`
	Pending           int           `json:"pending"`
	Failed            int           `json:"failed"`
	Missed            int           `json:"missed"`
	// DrainSeconds estimates how long the pending backlog takes to deliver at the rate of the
	// last five minutes; null when nothing was delivered in that time (no rate to go by).
	DrainSeconds  *int64  `json:"drain_seconds"`
	DeactivatesAt *string `json:"deactivates_at"`
	// PausedAt is when the owner paused the webhook in the admin UI (null: not paused). A paused
	// webhook keeps state "active" and sends nothing; its events wait as pending deliveries.
	PausedAt *string `json:"paused_at"`
	// LastError is why the latest attempt failed; null once an attempt succeeds.
	LastError *lastErrorJSON `json:"last_error"`
}

type lastErrorJSON struct {
	Category string  `json:"category"`
	Message  string  `json:"message"`
	Status   *int    `json:"status"`
	At       *string `json:"at"`
}

type deliveryJSON struct {
	ID         int64   `json:"id"`
	EventID    string  `json:"event_id"`
	EventType  string  `json:"event_type"`
	State      string  `json:"state"`
	Attempts   int     `json:"attempts"`
	LastStatus *int    `json:"last_status"`
	CreatedAt  string  `json:"created_at"`
	LastTry    *string `json:"last_attempt_at"`
}

func toWebhookJSON(o webhook.Overview) webhookJSON {
	j := webhookJSON{
		ID: o.ID, URL: o.URL, Events: o.Events, Description: o.Description, KeyMode: o.KeyMode, State: o.State,
		DeactivatedAt: optTime(o.DeactivatedAt), CreatedAt: stamp(o.CreatedAt), LastSuccessAt: optTime(o.LastSuccessAt),
		Sample: o.Health.Sample, Pending: o.Health.Pending, Failed: o.Health.Failed, Missed: o.Health.Missed,
		DeactivatesAt: optTime(o.Health.DeactivatesAt), PausedAt: optTime(o.PausedAt),
	}
	if o.DeactivatedReason != "" {
		j.DeactivatedReason = &o.DeactivatedReason
	}
	if o.Health.Sample > 0 {
		j.SuccessRate = &o.Health.SuccessRate
	}
	if d, ok := o.Health.DrainIn(); ok {
		secs := int64(d.Round(time.Second) / time.Second)
		j.DrainSeconds = &secs
	}
	if d := o.Health.LastDelivery; d != nil {
		j.LastDelivery = &deliveryJSON{ID: d.ID, EventID: d.EventID, EventType: d.EventType, State: d.State,
			Attempts: d.Attempts, CreatedAt: stamp(d.CreatedAt), LastTry: optTime(d.LastAttemptAt)}
		if d.LastStatus != 0 {
			j.LastDelivery.LastStatus = &d.LastStatus
		}
	}
	return j
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func optTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

func webhookList(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("webhook list", "--data DIR [--json]", env)
	data := dataFlag(fs, env)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return withManager(ctx, env, *data, func(m *webhook.Manager) error {
		hooks, err := m.List(ctx)
		if err != nil {
			return err
		}
		rows := make([]webhookJSON, len(hooks))
		for i, h := range hooks {
			rows[i] = toWebhookJSON(h)
			le, ok, err := m.LastError(ctx, h.ID)
			if err != nil {
				return err
			}
			if ok {
				rows[i].LastError = &lastErrorJSON{Category: le.Category, Message: le.Message, At: optTime(le.At)}
				if le.Status != 0 {
					rows[i].LastError.Status = &le.Status
				}
			}
		}
		if *asJSON {
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rows)
		}
		return printWebhookTable(env.Stdout, rows)
	})
}

func printWebhookTable(w io.Writer, rows []webhookJSON) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tURL\tEVENTS\tKEY MODE\tSTATE\tLAST DELIVERY\tSUCCESS\tBACKLOG\tLAST ERROR")
	for _, r := range rows {
		state := r.State
		if r.DeactivatedReason != nil {
			state += " (" + *r.DeactivatedReason + ")"
		} else if r.PausedAt != nil {
			state += " (paused since " + *r.PausedAt + ")"
		} else if r.DeactivatesAt != nil {
			state += " (failing; deactivates at " + *r.DeactivatesAt + ")"
		}
		last := "none"
		if d := r.LastDelivery; d != nil {
			last = d.CreatedAt + " " + d.EventType + " " + d.State
			if d.LastStatus != nil {
				last += " " + strconv.Itoa(*d.LastStatus)
			}
		}
		rate := "-"
		if r.SuccessRate != nil {
			rate = fmt.Sprintf("%.0f%% of %d", *r.SuccessRate*100, r.Sample)
		}
		lastErr := "-"
		if e := r.LastError; e != nil {
			lastErr = e.Category
			if e.Status != nil {
				lastErr += " " + strconv.Itoa(*e.Status)
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.URL, strings.Join(r.Events, ","), r.KeyMode, state, last, rate, backlog(r), lastErr)
	}
	return tw.Flush()
}

// backlog says how many deliveries wait and, when there is a recent rate, how long they take:
// "0", "1200 (drains in ~4m0s)", "1200 (no recent deliveries)".
func backlog(r webhookJSON) string {
	switch {
	case r.Pending == 0:
		return "0"
	case r.DrainSeconds == nil:
		return fmt.Sprintf("%d (no recent deliveries)", r.Pending)
	}
	return fmt.Sprintf("%d (drains in ~%s)", r.Pending, time.Duration(*r.DrainSeconds)*time.Second)
}

// idCommand parses the flags of a subcommand that takes one webhook ID.
func idCommand(fs *flagSet, args []string) (int64, error) {
	if err := fs.parse(args); err != nil {
		return 0, err
	}
	arg, err := fs.oneArg("webhook ID")
	if err != nil {
		return 0, err
	}
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id < 1 {
		return 0, usagef("webhook ID %q: want a positive integer", arg)
	}
	return id, nil
}

func webhookReactivate(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("webhook reactivate", "--data DIR ID [--replay-missed]", env)
	data := dataFlag(fs, env)
	replay := fs.Bool("replay-missed", false, "also queue again every event it missed while deactivated")
	id, err := idCommand(fs, args)
	if err != nil {
		return err
	}
	return withManager(ctx, env, *data, func(m *webhook.Manager) error {
		res, err := m.Reactivate(ctx, id, *replay)
		if err != nil {
			return err
		}
		switch {
		case res.Reactivated:
			fmt.Fprintf(env.Stderr, "webhook %d reactivated\n", id)
		default:
			fmt.Fprintf(env.Stderr, "webhook %d was already active\n", id)
		}
		if *replay {
			fmt.Fprintf(env.Stderr, "%d missed deliveries queued again\n", res.Replayed)
		}
		return nil
	})
}

func webhookRotate(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("webhook rotate-secret", "--data DIR ID [--grace 24h]", env)
	data := dataFlag(fs, env)
	grace := fs.Duration("grace", webhook.DefaultGrace, "how long the old secret keeps signing alongside the new one (0 stops it at once)")
	id, err := idCommand(fs, args)
	if err != nil {
		return err
	}
	if *grace < 0 || *grace > webhook.MaxGrace {
		return usagef("--grace %s: want 0 to %s", *grace, webhook.MaxGrace)
	}
	return withManager(ctx, env, *data, func(m *webhook.Manager) error {
		secret, err := m.RotateSecret(ctx, id, *grace)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, secret)
		fmt.Fprintf(env.Stderr, "webhook %d has a new secret, shown only once; the old one signs alongside it for %s\n", id, *grace)
		return nil
	})
}

func webhookDelete(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("webhook delete", "--data DIR ID", env)
	data := dataFlag(fs, env)
	id, err := idCommand(fs, args)
	if err != nil {
		return err
	}
	return withManager(ctx, env, *data, func(m *webhook.Manager) error {
		if err := m.Delete(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "webhook %d deleted\n", id)
		return nil
	})
}

func webhookTest(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("webhook test", "--data DIR ID", env)
	data := dataFlag(fs, env)
	id, err := idCommand(fs, args)
	if err != nil {
		return err
	}
	return withManager(ctx, env, *data, func(m *webhook.Manager) error {
		eventID, err := m.SendTest(ctx, id)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, eventID)
		fmt.Fprintf(env.Stderr, "test event queued for webhook %d; the running server delivers it\n", id)
		return nil
	})
}
