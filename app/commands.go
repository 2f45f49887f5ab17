package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"frontdesk/app/apikey"
	"frontdesk/app/mcp/channel"
	"frontdesk/app/resource"
	"frontdesk/db"
)

func runMigrate(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("migrate", "[--data DIR]", env)
	data := dataFlag(fs, env)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 { // `migrate /var/lib/frontdesk` would otherwise create ./data
		return usagef("unexpected argument %q (the data directory is given with --data)", fs.Arg(0))
	}
	unlock, err := lockServe(env, *data, "an upgrade must not change the schema under a running server")
	if err != nil {
		return err
	}
	d, created, err := createData(ctx, env, *data)
	if err != nil {
		unlock(true)
		return err
	}
	defer unlock(false)
	defer d.Close()
	if created {
		fmt.Fprintf(env.Stderr, "created a new database at %s\n", db.Path(*data))
	}
	v, err := d.Version(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "schema version %d\n", v)
	return nil
}

func runBackup(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("backup", "[--data DIR] FILE", env)
	data := dataFlag(fs, env)
	if err := fs.parse(args); err != nil {
		return err
	}
	dest, err := fs.oneArg("destination FILE")
	if err != nil {
		return err
	}
	if dest == "-" { // import reads "-" as standard input; a backup to it would be a file named "-"
		return usagef("backup writes a file (VACUUM INTO, mode 0600), not standard output: give a file name (./- if you mean that name)")
	}
	// A backup copies whatever schema it finds: before an upgrade, that is the point.
	d, err := openExisting(ctx, env, *data, db.IgnorePending)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Backup(ctx, dest); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "backup written to %s\n", dest)
	// An erasure changes the live database only: say so where the copy is made.
	fmt.Fprintln(env.Stderr, "it keeps every client's data as it is now, so a client erased later stays in it: "+
		"delete or rotate copies older than an erasure (docs/data.md, \"Backups and replicas\")")
	return nil
}

const apiKeyUsage = `Usage: frontdesk apikey create|list|revoke [flags]

  create --name NAME (--scopes s1,s2 | --full-access) [--z-means-local] [--mcp]
                               prints only the new key
  list [--json]                never shows keys
  revoke ID`

func runAPIKey(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, apiKeyUsage)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "create":
		fs := newFlagSet("apikey create", "--data DIR --name NAME (--scopes s1,s2 | --full-access) [--z-means-local] [--mcp]", env)
		data := dataFlag(fs, env)
		name := fs.String("name", "", "a name to tell the key apart (required)")
		scopes := fs.String("scopes", "", "comma-separated Connect v3 scopes the key may use (this or --full-access is required)")
		full := fs.Bool("full-access", false, "the key may use every operation (this or --scopes is required)")
		zLocal := fs.Bool("z-means-local", false, "read a Z or +00:00 time in this key's booking and cart writes as the location's wall clock (for Connect v3 clients that send local time that way; see docs/api.md)")
		overMCP := fs.Bool("mcp", false, "allow the key on the MCP endpoint /mcp too (docs/mcp.md)")
		if err := fs.parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usagef("unexpected argument %q", fs.Arg(0))
		}
		if *name == "" {
			return usagef("--name is required")
		}
		scopesSet := fs.isSet("scopes")
		nk := apikey.NewKey{Name: *name, Scopes: *scopes, ZMeansLocal: *zLocal}
		switch {
		case *full && scopesSet:
			return usagef("give either --scopes or --full-access, not both")
		case *full:
			nk.Scopes = apikey.FullAccess
		case !scopesSet:
			return usagef("choose what the key may do: --scopes s1,s2 (known: %s) or --full-access", strings.Join(apikey.Scopes, ","))
		default:
			if _, err := apikey.ParseScopes(*scopes); err != nil {
				return usagef("--scopes: %v", err)
			}
		}
		d, err := openData(ctx, env, *data)
		if err != nil {
			return err
		}
		defer d.Close()
		row, key, err := apikey.Create(ctx, d, nk, env.Now())
		if err != nil {
			return err
		}
		if *overMCP {
			if err := channel.AllowKey(ctx, d, row.ID, true); err != nil {
				return fmt.Errorf("allow the key over MCP: %w (key %d was created without it)", err, row.ID)
			}
		}
		fmt.Fprintln(env.Stdout, key)
		return nil
	case "list":
		fs := newFlagSet("apikey list", "--data DIR [--json]", env)
		data := dataFlag(fs, env)
		asJSON := fs.Bool("json", false, "print JSON")
		if err := fs.parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usagef("unexpected argument %q", fs.Arg(0))
		}
		d, err := openData(ctx, env, *data)
		if err != nil {
			return err
		}
		defer d.Close()
		keys, err := d.R.ListAPIKeys(ctx)
		if err != nil {
			return err
		}
		// scopes is the stored list: names joined by commas, or "*" for full access.
		type row struct {
			ID          int64   `json:"id"`
			Name        string  `json:"name"`
			Prefix      string  `json:"prefix"`
			Scopes      string  `json:"scopes"`
			FullAccess  bool    `json:"full_access"`
			ZMeansLocal bool    `json:"z_means_local"`
			CreatedAt   string  `json:"created_at"`
			LastUsedAt  *string `json:"last_used_at"`
			RevokedAt   *string `json:"revoked_at"`
			MCP         bool    `json:"mcp"` // may be used over /mcp
		}
		rows := make([]row, 0, len(keys))
		for _, k := range keys {
			rows = append(rows, row{k.ID, k.Name, k.Prefix, k.Scopes, k.Scopes == apikey.FullAccess, k.ZMeansLocal,
				resource.Timestamp(k.CreatedAt), resource.NullTimestamp(k.LastUsedAt), resource.NullTimestamp(k.RevokedAt), k.MCPAllowed})
		}
		if *asJSON {
			enc := json.NewEncoder(env.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rows)
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPREFIX\tSCOPES\tZ MEANS LOCAL\tCREATED\tLAST USED\tSTATE\tMCP")
		for _, r := range rows {
			scopes, zLocal, last, state := r.Scopes, "no", "never", "active"
			if r.FullAccess {
				scopes = "* (full access)"
			}
			if r.ZMeansLocal {
				zLocal = "yes"
			}
			if r.LastUsedAt != nil {
				last = *r.LastUsedAt
			}
			if r.RevokedAt != nil {
				state = "revoked " + *r.RevokedAt
			}
			mcpState := "no"
			if r.MCP {
				mcpState = "yes"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Prefix, scopes, zLocal, r.CreatedAt, last, state, mcpState)
		}
		return tw.Flush()
	case "revoke":
		fs := newFlagSet("apikey revoke", "--data DIR ID", env)
		data := dataFlag(fs, env)
		if err := fs.parse(args); err != nil {
			return err
		}
		arg, err := fs.oneArg("key ID")
		if err != nil {
			return err
		}
		id, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || id < 1 {
			return usagef("key ID %q: want a positive integer", arg)
		}
		d, err := openData(ctx, env, *data)
		if err != nil {
			return err
		}
		defer d.Close()
		revoked, err := apikey.Revoke(ctx, d, id, env.Now())
		if err != nil {
			return err
		}
		if !revoked {
			return fmt.Errorf("no active key with id %d", id)
		}
		fmt.Fprintf(env.Stderr, "key %d revoked\n", id)
		return nil
	default:
		return usagef("unknown subcommand %q (want create, list or revoke)", sub)
	}
}
