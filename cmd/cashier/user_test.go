package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/dashboard"
)

func TestUserCreate(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	getenv := func(k string) string { return map[string]string{"CASHIER_DATA": data}[k] }
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"merchant", "create", "--name", "Users"}, getenv, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	json.Unmarshal(out.Bytes(), &m)

	// Generated one-time password, printed once.
	out.Reset()
	if err := run(ctx, []string{"user", "create", "--email", "Owner@Shop.example", "--merchant", m["merchantId"], "--role", "owner"}, getenv, &out, &errOut); err != nil {
		t.Fatalf("user create: %v %s", err, errOut.String())
	}
	var u dashboard.CreatedUser
	if err := json.Unmarshal(out.Bytes(), &u); err != nil || u.Email != "owner@shop.example" || u.Role != "owner" || len(u.Password) != 20 {
		t.Fatalf("printed %q", out.String())
	}
	// Operator with the password from stdin: nothing printed about it.
	stdin = strings.NewReader("a long operator password\n")
	out.Reset()
	if err := run(ctx, []string{"user", "create", "--email", "ops@service.example", "--operator", "--password-stdin"}, getenv, &out, &errOut); err != nil {
		t.Fatalf("operator: %v", err)
	}
	if strings.Contains(out.String(), "password") {
		t.Fatalf("printed a password given on stdin: %q", out.String())
	}

	cfg := config.Default()
	cfg.Data = data
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for email, pw := range map[string]string{"owner@shop.example": u.Password, "ops@service.example": "a long operator password"} {
		usr, err := st.UserByEmail(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := dashboard.CheckPassword(usr.PasswordHash, pw); !ok {
			t.Errorf("%s: stored hash does not match the password", email)
		}
	}
	if es, _ := st.Audit(ctx, cashier.AuditFilter{}); len(es) != 2 || es[0].Action != "user.create" {
		t.Fatalf("audit: %+v", es)
	}

	bad := [][]string{
		{"user", "create", "--email", "x@shop.example", "--merchant", m["merchantId"], "--role", "admin"},
		{"user", "create", "--email", "x@shop.example", "--merchant", "m_nobody", "--role", "viewer"},
		{"user", "create", "--email", "not an email", "--merchant", m["merchantId"], "--role", "viewer"},
		{"user", "create", "--email", "x@shop.example", "--role", "viewer"},
		{"user", "create", "--email", "x@shop.example", "--operator", "--merchant", m["merchantId"]},
		{"user", "create", "--email", "owner@shop.example", "--merchant", m["merchantId"], "--role", "viewer"},
	}
	for _, args := range bad {
		out.Reset()
		if err := run(ctx, args, getenv, &out, &errOut); err == nil || out.Len() != 0 {
			t.Errorf("%q: err %v, printed %q", args, err, out.String())
		}
	}
	stdin = strings.NewReader("short\n")
	if err := run(ctx, []string{"user", "create", "--email", "y@shop.example", "--operator", "--password-stdin"}, getenv, &out, &errOut); err == nil {
		t.Error("a short password was accepted")
	}
	if users, _ := st.Users(ctx, m["merchantId"]); len(users) != 1 {
		t.Fatalf("refused commands created users: %+v", users)
	}
}
