package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os/user"
	"strconv"

	"frontdesk/app/activity"
	"frontdesk/app/clients"
)

const clientUsage = `Usage: frontdesk client <subcommand> ID [flags]

  export ID         print everything stored about client ID as one JSON document
  erase ID --yes    erase client ID's personal data for good (refused while the client has a
                    booking in progress or upcoming: cancel those first)

Every subcommand takes --data DIR (env FRONTDESK_DATA). See docs/data.md.`

// runClient is `frontdesk client …`: a client's data, exported or erased.
func runClient(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, clientUsage)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	sub, args := args[0], args[1:]
	if sub != "export" && sub != "erase" {
		return usagef("unknown subcommand %q (want export or erase)", sub)
	}
	fs := newFlagSet("client "+sub, "ID [--data DIR]", env)
	data := dataFlag(fs, env)
	yes := fs.Bool("yes", false, "confirm the erasure (erase only)")
	// The id comes first, flags after it, as the usage shows.
	var idArg string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		idArg, args = args[0], args[1:]
	}
	if err := fs.parse(args); err != nil {
		return err
	}
	if idArg == "" && fs.NArg() > 0 {
		idArg = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	id, err := strconv.ParseInt(idArg, 10, 64)
	if err != nil || id <= 0 {
		return usagef("client ID must be a positive number")
	}
	if sub == "erase" && !*yes {
		return usagef("erase removes the client's personal data for good: add --yes to confirm")
	}
	d, err := openData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	if sub == "export" {
		x, err := clients.ExportClient(ctx, d, env.Now(), id)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	label := "cli"
	if u, err := user.Current(); err == nil {
		label = u.Username
	}
	ctx = activity.WithActor(ctx, activity.Actor{Kind: activity.KindCLI, Label: label})
	e, err := clients.Erase(ctx, d, env.Now(), id)
	if err != nil {
		return err
	}
	if e.Already {
		fmt.Fprintf(env.Stdout, "client %d was already erased\n", id)
		return nil
	}
	fmt.Fprintf(env.Stdout, "client %d erased (%d pending messages dropped)\n", id, e.DroppedMessages)
	if e.WALKept {
		fmt.Fprintln(env.Stderr, "note: a reader kept the WAL from being scrubbed; its old pages go when the WAL is next reset (docs/data.md)")
	}
	return nil
}
