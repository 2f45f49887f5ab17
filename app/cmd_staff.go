package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"text/tabwriter"
	"time"

	"frontdesk/app/links"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/db"
)

// runStaff is `frontdesk staff invite|list|role|disable|enable`: the team (docs/roles.md) for
// installations run without a browser at hand. The operator on the machine acts as an owner.
//
//	frontdesk staff invite --data DIR --email rita@example.com --role reception
func runStaff(ctx context.Context, env Env, args []string) error {
	const usage = "Usage: frontdesk staff invite|list|role|disable|enable --data DIR [flags]\n\n" +
		"  invite    --email EMAIL --role ROLE [--provider ID]  print a single-use link (7 days) that\n" +
		"            sets the person's name and password\n" +
		"  list      every account: email, name, role, provider, status\n" +
		"  role      --email EMAIL --role ROLE [--provider ID]  change an account's role\n" +
		"  disable   --email EMAIL  refuse its sign-in and open sessions\n" +
		"  enable    --email EMAIL  let it sign in again\n\n" +
		"Roles: owner, manager, reception, provider (a provider needs --provider, the provider record's id).\n" +
		"The last owner can be neither disabled nor given another role."
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, usage)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "invite", "list", "role", "disable", "enable":
	default:
		return usagef("unknown subcommand %q (want invite, list, role, disable or enable)", sub)
	}
	fs := newFlagSet("staff "+sub, "--data DIR [--email EMAIL] [--role ROLE] [--provider ID]", env)
	data := dataFlag(fs, env)
	var email, roleText, publicURL *string
	var provider *int64
	if sub != "list" {
		email = fs.String("email", "", "the person's email address (required)")
	}
	if sub == "invite" || sub == "role" {
		roleText = fs.String("role", "", "owner, manager, reception or provider (required)")
		provider = fs.Int64("provider", 0, "for --role provider: the provider record's id")
	}
	if sub == "invite" {
		publicURL = fs.String("public-url", env.Getenv("FRONTDESK_PUBLIC_URL"), "the URL the team reaches frontdesk at; the printed link starts with it (env FRONTDESK_PUBLIC_URL)")
	}
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if email != nil {
		if *email == "" {
			return usagef("--email is required")
		}
		if _, err := owner.NormalizeEmail(*email); err != nil {
			return usagef("--email %q: %v", *email, err)
		}
	}
	var role staff.Role
	if roleText != nil {
		var ok bool
		if role, ok = staff.ParseRole(*roleText); !ok {
			return usagef("--role %q: want owner, manager, reception or provider", *roleText)
		}
		if (role == staff.RoleProvider) != (*provider > 0) {
			return usagef("--provider is needed with --role provider, and only with it")
		}
	}
	var base links.Base
	if publicURL != nil && *publicURL != "" {
		var err error
		if base, err = links.Parse(*publicURL); err != nil {
			return usagef("--public-url: %v", err)
		}
	}
	d, err := openData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	now := env.Now()
	switch sub {
	case "list":
		return listStaff(ctx, env, d)
	case "invite":
		token, l, err := staff.Invite(ctx, d, staff.Operator, *email, role, *provider, now)
		if err != nil {
			return staffError(err, *email)
		}
		link := "/join?" + url.Values{"token": {token}}.Encode()
		if base.Configured() {
			link = base.URL("/join", url.Values{"token": {token}})
		} else {
			fmt.Fprintln(env.Stderr, "no --public-url: put the address people reach frontdesk at before the link")
		}
		fmt.Fprintln(env.Stdout, link)
		fmt.Fprintf(env.Stderr, "invitation for %s as %s, valid once until %s\n", l.Email, l.Role, l.ExpiresAt.UTC().Format(time.RFC3339))
		return nil
	}
	acc, err := staff.GetByEmail(ctx, d, *email)
	if err != nil {
		return staffError(err, *email)
	}
	switch sub {
	case "role":
		acc, err = staff.ChangeRole(ctx, d, staff.Operator, acc.ID, role, *provider, now)
	default:
		acc, err = staff.SetDisabled(ctx, d, staff.Operator, acc.ID, sub == "disable", now)
	}
	if err != nil {
		return staffError(err, *email)
	}
	state := "active"
	if acc.Disabled {
		state = "disabled: its open sessions end at their next request"
	}
	fmt.Fprintf(env.Stderr, "%s is %s, %s\n", acc.Email, acc.Role, state)
	return nil
}

func listStaff(ctx context.Context, env Env, d *db.DB) error {
	accounts, err := staff.List(ctx, d)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tROLE\tPROVIDER\tSTATUS")
	for _, a := range accounts {
		provider, status := "-", "active"
		if a.ProviderID != 0 {
			provider = fmt.Sprint(a.ProviderID)
		}
		if a.Disabled {
			status = "disabled"
		}
		name := a.Name
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.Email, name, a.Role, provider, status)
	}
	return tw.Flush()
}

// staffError says a team rule's refusal in the command's words.
func staffError(err error, email string) error {
	switch {
	case errors.Is(err, staff.ErrNotFound):
		return fmt.Errorf("no account with email %s", email)
	case errors.Is(err, staff.ErrEmailTaken):
		return fmt.Errorf("%s already has an account", email)
	case errors.Is(err, staff.ErrProviderRequired):
		return fmt.Errorf("--provider: no provider with that id")
	}
	return err
}
