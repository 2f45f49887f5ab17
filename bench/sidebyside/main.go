// Command sidebyside is the Go half of bench/sidebyside.sh, the side-by-side harness that runs
// frontdesk, PocketBase and a bare chi handler under wrk on one machine (README "Performance",
// "Side by side"). The script builds and starts the servers and stops them; this program
// writes frontdesk's import file, sets PocketBase's bookings collection up, runs the rounds and
// prints the table. It imports nothing of the module: it sees every server from outside.
//
//	sidebyside ports N                 N free loopback ports, one a line
//	sidebyside fixture [flags] FILE    frontdesk's import file for the bench business
//	sidebyside wait URL...             wait until every URL answers
//	sidebyside run [flags]             set PocketBase up, run the rounds, print the results
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "ports":
		err = ports(args)
	case "fixture":
		err = fixtureCmd(args)
	case "wait":
		err = wait(ctx, args)
	case "run":
		err = runCmd(ctx, args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: sidebyside ports N | fixture [flags] FILE | wait URL... | run [flags]")
	os.Exit(2)
}

// ports prints n free loopback TCP ports, holding them all open until every one is chosen so
// that no two are the same.
func ports(args []string) error {
	if len(args) != 1 {
		return errors.New("ports N")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return fmt.Errorf("ports: %q is not a count", args[0])
	}
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		held = append(held, l)
		fmt.Println(l.Addr().(*net.TCPAddr).Port)
	}
	return nil
}

// wait polls every URL until it answers with any HTTP status below 500, for at most a minute.
func wait(ctx context.Context, urls []string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for _, u := range urls {
		for {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode < 500 {
					break
				}
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s did not answer within a minute (last: %v)", u, err)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return nil
}

// intList reads "16,64" or "16 64".
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("no numbers")
	}
	return out, nil
}

// newFlags is a flag set that reports its own errors and stops the program on them.
func newFlags(name string) *flag.FlagSet { return flag.NewFlagSet(name, flag.ExitOnError) }
