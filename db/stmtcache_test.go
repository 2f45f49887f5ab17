package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestStmtCache: statements are prepared once and reused on both pools; a statement first seen
// inside a transaction runs unprepared there and is prepared once the transaction is over;
// errors still surface; and transactions, single writes and reads mixed from many goroutines
// neither deadlock nor see wrong results.
func TestStmtCache(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	if err := d.InTx(ctx, func(q *Queries) error {
		_, err := q.CreateCompany(ctx, CreateCompanyParams{Name: "Shop", Currency: "CLP", SlotStepMin: 15, MaxAdvanceDays: 90,
			CanEdit: true, CanCancel: true, PaymentExpiryMin: 15, Language: "en", Clock: "24h", CreatedAt: 1, UpdatedAt: 1})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if d.writeStmts.lookup(createCompany) == nil {
		t.Fatal("a statement run inside a transaction was not prepared after it")
	}
	if _, err := d.R.GetCompany(ctx); err != nil {
		t.Fatal(err)
	}
	if d.R.db.(*stmtCache).lookup(getCompany) == nil {
		t.Fatal("a read was not prepared")
	}
	// A failing statement reports its error and is not cached.
	if _, err := d.R.db.QueryContext(ctx, "SELECT nope FROM nowhere"); err == nil {
		t.Fatal("got no error for a bad statement")
	}
	if d.R.db.(*stmtCache).lookup("SELECT nope FROM nowhere") != nil {
		t.Fatal("a bad statement was cached")
	}

	done := make(chan error, 1)
	go func() {
		var wg sync.WaitGroup
		errs := make(chan error, 60)
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch i % 3 {
				case 0:
					errs <- d.InTx(ctx, func(q *Queries) error {
						c, err := q.GetCompany(ctx)
						if err != nil {
							return err
						}
						c.Name = fmt.Sprintf("Shop %d", i)
						return q.UpdateCompany(ctx, UpdateCompanyParams{Name: c.Name, Currency: c.Currency, SlotStepMin: c.SlotStepMin,
							MinNoticeMin: c.MinNoticeMin, MaxAdvanceDays: c.MaxAdvanceDays, CanEdit: c.CanEdit, CanCancel: c.CanCancel,
							EditLockMin: c.EditLockMin, MaxChanges: c.MaxChanges, OnlinePayments: c.OnlinePayments,
							PaymentExpiryMin: c.PaymentExpiryMin, Language: c.Language, Clock: c.Clock, UpdatedAt: int64(i), ID: c.ID})
					})
				case 1:
					_, err := d.W.CountCompanies(ctx)
					errs <- err
				default:
					n, err := d.R.CountCompanies(ctx)
					if err == nil && n != 1 {
						err = fmt.Errorf("got %d companies, want 1", n)
					}
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		var all []error
		for err := range errs {
			all = append(all, err)
		}
		done <- errors.Join(all...)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("mixed transactions, writes and reads did not finish in 30 s (deadlock?)")
	}
}

// TestStmtCacheRepeatsInOneTransaction: a statement a transaction runs again (an import's
// rows) is prepared on the transaction once and reused, and still gives the right answers and
// errors; after the transaction the pool's cache has it as usual.
func TestStmtCacheRepeatsInOneTransaction(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	const bad = "SELECT nope FROM nowhere WHERE 1 = ?"
	if err := d.InTx(ctx, func(q *Queries) error {
		ts := q.db.(*txStmts)
		for i := range 5 {
			if _, err := q.CreateCompany(ctx, CreateCompanyParams{Name: fmt.Sprintf("Shop %d", i), Currency: "CLP", SlotStepMin: 15, MaxAdvanceDays: 90,
				CanEdit: true, CanCancel: true, PaymentExpiryMin: 15, Language: "en", Clock: "24h", CreatedAt: 1, UpdatedAt: 1}); err != nil {
				return err
			}
			if want := i >= 1; (ts.local[createCompany] != nil) != want {
				return fmt.Errorf("after run %d: prepared on the transaction %v, want %v", i+1, ts.local[createCompany] != nil, want)
			}
		}
		n, err := q.CountCompanies(ctx)
		if err != nil || n != 5 {
			return fmt.Errorf("got %d companies (%v), want 5", n, err)
		}
		for range 3 {
			if _, err := ts.QueryContext(ctx, bad, 1); err == nil {
				return errors.New("a bad statement run again gave no error")
			}
		}
		if ts.local[bad] != nil {
			return errors.New("a bad statement was prepared")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if d.writeStmts.lookup(createCompany) == nil {
		t.Fatal("a statement run inside a transaction was not prepared after it")
	}
	if n, err := d.R.CountCompanies(ctx); err != nil || n != 5 {
		t.Fatalf("got %d companies (%v) after the commit, want 5", n, err)
	}
}
