package staff

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/app/owner"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func setup(t *testing.T) (*db.DB, Account) {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), "test.db"))
	o, err := owner.Create(context.Background(), d, "ana@example.com", "first password", t0)
	if err != nil {
		t.Fatal(err)
	}
	return d, o
}

// An invitation works once, for seven days by the clock it is given; a wrong token is the
// same not-found as a used or expired one.
func TestInvitationSingleUseSevenDays(t *testing.T) {
	ctx := context.Background()
	d, me := setup(t)
	token, l, err := Invite(ctx, d, me, "Bea@Example.com", RoleReception, 0, t0)
	if err != nil {
		t.Fatal(err)
	}
	if l.Email != "bea@example.com" || !l.ExpiresAt.Equal(t0.Add(7*24*time.Hour)) {
		t.Errorf("got %+v, want bea@example.com until seven days on", l)
	}
	var stored int
	if err := d.Read.QueryRow(`SELECT count(*) FROM staff_links WHERE token_hash = ?`, token).Scan(&stored); err != nil || stored != 0 {
		t.Errorf("the token is stored as given (%d rows, %v); want only its hash", stored, err)
	}
	late := t0.Add(LinkLifetime)
	if _, err := OpenLink(ctx, d, token, late.Add(-time.Millisecond)); err != nil {
		t.Errorf("just before seven days: %v, want the link open", err)
	}
	if _, err := OpenLink(ctx, d, token, late); !errors.Is(err, ErrNotFound) {
		t.Errorf("at seven days: %v, want ErrNotFound", err)
	}
	if _, err := Accept(ctx, d, token, "Bea", "bea password 1", late); !errors.Is(err, ErrNotFound) {
		t.Errorf("accept at seven days: %v, want ErrNotFound", err)
	}
	if _, err := Accept(ctx, d, "x"+token[1:], "Bea", "bea password 1", t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("wrong token: %v, want ErrNotFound", err)
	}
	acc, err := Accept(ctx, d, token, "Bea", "bea password 1", t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if acc.Role != string(RoleReception) || acc.Name != "Bea" || acc.Email != "bea@example.com" {
		t.Errorf("got %+v, want Bea, reception", acc)
	}
	if _, err := Accept(ctx, d, token, "Eve", "eve password 1", t0.Add(2*time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Errorf("second use: %v, want ErrNotFound", err)
	}
	if _, err := owner.Authenticate(ctx, d, "bea@example.com", "bea password 1"); err != nil {
		t.Errorf("sign in with the chosen password: %v", err)
	}
}

// The last active owner can be neither disabled nor demoted: the use case refuses it in its
// transaction, and the trigger refuses any other writer.
func TestLastOwnerKept(t *testing.T) {
	ctx := context.Background()
	d, me := setup(t)
	if _, err := SetDisabled(ctx, d, me, me.ID, true, t0); !errors.Is(err, ErrLastOwner) {
		t.Errorf("disable the last owner: %v, want ErrLastOwner", err)
	}
	if _, err := ChangeRole(ctx, d, me, me.ID, RoleManager, 0, t0); !errors.Is(err, ErrLastOwner) {
		t.Errorf("demote the last owner: %v, want ErrLastOwner", err)
	}
	for _, q := range []string{
		`UPDATE owners SET disabled_at = 1 WHERE id = ?`,
		`UPDATE owners SET role = 'manager' WHERE id = ?`,
		`DELETE FROM owners WHERE id = ?`,
	} {
		if _, err := d.Write.Exec(q, me.ID); err == nil {
			t.Errorf("%s: the database allowed it; want the trigger to refuse", q)
		}
	}
	// With a second owner, either may go.
	token, _, err := Invite(ctx, d, me, "bo@example.com", RoleOwner, 0, t0)
	if err != nil {
		t.Fatal(err)
	}
	bo, err := Accept(ctx, d, token, "Bo", "bo password 12", t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SetDisabled(ctx, d, me, bo.ID, true, t0); err != nil {
		t.Fatal(err)
	}
	// A disabled owner does not count: Ana is the last active one again.
	if _, err := ChangeRole(ctx, d, me, me.ID, RoleManager, 0, t0); !errors.Is(err, ErrLastOwner) {
		t.Errorf("demote the last active owner: %v, want ErrLastOwner", err)
	}
	if _, err := d.Write.Exec(`UPDATE owners SET role = 'reception' WHERE id = ?`, me.ID); err == nil {
		t.Error("the trigger let the last active owner be demoted while another is disabled")
	}
	if _, err := SetDisabled(ctx, d, me, bo.ID, false, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := ChangeRole(ctx, d, me, me.ID, RoleManager, 0, t0); err != nil {
		t.Errorf("demote one of two owners: %v", err)
	}
}

// A manager manages the team but never an owner, and cannot make one.
func TestManagerLeavesOwnersAlone(t *testing.T) {
	ctx := context.Background()
	d, me := setup(t)
	token, _, err := Invite(ctx, d, me, "max@example.com", RoleManager, 0, t0)
	if err != nil {
		t.Fatal(err)
	}
	mgr, err := Accept(ctx, d, token, "Max", "max password 1", t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Invite(ctx, d, mgr, "new@example.com", RoleOwner, 0, t0); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("manager invites an owner: %v, want ErrNotAllowed", err)
	}
	if _, err := SetDisabled(ctx, d, mgr, me.ID, true, t0); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("manager disables an owner: %v, want ErrNotAllowed", err)
	}
	if _, err := ChangeRole(ctx, d, mgr, mgr.ID, RoleOwner, 0, t0); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("manager makes themself an owner: %v, want ErrNotAllowed", err)
	}
	if _, _, err := ResetLink(ctx, d, mgr, me.ID, t0); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("manager resets an owner's password: %v, want ErrNotAllowed", err)
	}
	if _, _, err := Invite(ctx, d, mgr, "rita@example.com", RoleReception, 0, t0); err != nil {
		t.Errorf("manager invites reception: %v", err)
	}
	if _, _, err := Invite(ctx, d, mgr, "pat@example.com", RoleProvider, 0, t0); !errors.Is(err, ErrProviderRequired) {
		t.Errorf("provider without a provider record: %v, want ErrProviderRequired", err)
	}
	if _, _, err := Invite(ctx, d, mgr, "pat@example.com", RoleProvider, 999, t0); !errors.Is(err, ErrProviderRequired) {
		t.Errorf("provider with no such record: %v, want ErrProviderRequired", err)
	}
}

// Every role's permissions, as docs/roles.md's table says.
func TestRolePermissions(t *testing.T) {
	tests := []struct {
		role Role
		may  []Permission
		not  []Permission
	}{
		{RoleOwner, Permissions, nil},
		{RoleManager, []Permission{Team, Catalog, Settings, Refunds}, []Permission{Owners, Credentials, Integrations, Data}},
		{RoleReception, []Permission{Calendar, Book, ClientsEdit, Desk}, []Permission{Catalog, Settings, Integrations, Refunds, Team}},
		{RoleProvider, []Permission{Calendar, Attendance, Clients, OwnHours}, []Permission{Book, ClientsEdit, Desk, Catalog, Team}},
		{Role("boss"), nil, []Permission{SignedIn}},
	}
	for _, tc := range tests {
		for _, p := range tc.may {
			if !Can(tc.role, p) {
				t.Errorf("%s may not %s; want allowed", tc.role, p)
			}
		}
		for _, p := range tc.not {
			if Can(tc.role, p) {
				t.Errorf("%s may %s; want refused", tc.role, p)
			}
		}
	}
}
