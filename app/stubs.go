package app

import (
	"context"
	"errors"
	"time"

	"frontdesk/db"
)

var errNotYet = errors.New("not available yet")

func runImport(ctx context.Context, env Env, args []string) error  { return errNotYet }
func runOwner(ctx context.Context, env Env, args []string) error   { return errNotYet }
func runWebhook(ctx context.Context, env Env, args []string) error { return errNotYet }
func runBench(ctx context.Context, env Env, args []string) error   { return errNotYet }

func loadDemoIfEmpty(ctx context.Context, d *db.DB, now time.Time) (bool, error) {
	return false, errNotYet
}
