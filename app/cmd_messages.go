package app

import (
	"context"
	"fmt"

	"frontdesk/app/messages"
	"frontdesk/app/messages/mailer"
	"frontdesk/app/secrets"
)

const messagesUsage = `Usage: frontdesk messages <subcommand> [flags]

  test --to ADDRESS [--smtp-url URL] [--mail-from "Name <address>"]
                    send a test email now with the stored settings (Settings → Messages),
                    under the same flags serve takes; prints the server's answer

Every subcommand takes --data DIR (env FRONTDESK_DATA). See docs/messages.md.`

// runMessages is `frontdesk messages …`.
func runMessages(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, messagesUsage)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	sub, args := args[0], args[1:]
	if sub != "test" {
		return usagef("unknown subcommand %q (want test)", sub)
	}
	fs := newFlagSet("messages test", "--to ADDRESS [--data DIR] [--smtp-url URL] [--mail-from ADDR]", env)
	data := dataFlag(fs, env)
	to := fs.String("to", "", "where to send the test email")
	smtpURL := fs.String("smtp-url", env.Getenv("FRONTDESK_SMTP_URL"), "mail server, as serve takes it (env FRONTDESK_SMTP_URL)")
	mailFrom := fs.String("mail-from", env.Getenv("FRONTDESK_MAIL_FROM"), "sender, as serve takes it (env FRONTDESK_MAIL_FROM)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *to == "" {
		return usagef("--to ADDRESS is required")
	}
	if _, err := messages.ParseAddress(*to); err != nil {
		return usagef("--to: %v", err)
	}
	var o messages.Override
	if err := parseMessageFlags(&o, *smtpURL, *mailFrom); err != nil {
		return err
	}
	d, err := openData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	box, err := secrets.Load(*data)
	if err != nil {
		return err
	}
	reply, err := mailer.New(d, mailer.Options{Messages: messages.Options{Secrets: box, Override: o}}).SendTest(ctx, *to)
	if err != nil {
		return fmt.Errorf("test email not sent: %w", err)
	}
	fmt.Fprintln(env.Stdout, reply)
	fmt.Fprintf(env.Stderr, "test email to %s accepted by the mail server\n", *to)
	return nil
}
