package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
)

// run is the whole program; these drive it in-process with their own
// environment and output streams.
func TestRunInProcess(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	env := map[string]string{"CASHIER_DATA": data}
	getenv := func(k string) string { return env[k] }
	var out, errOut bytes.Buffer

	if err := run(ctx, []string{"merchant", "create", "--name", "In Process"}, getenv, &out, &errOut); err != nil {
		t.Fatalf("merchant create: %v\n%s", err, errOut.String())
	}
	var m map[string]string
	if err := json.Unmarshal(out.Bytes(), &m); err != nil || !strings.HasPrefix(m["apiKey"], "pk_") || !strings.HasPrefix(m["secretKey"], "sk_") ||
		!strings.HasPrefix(m["webhookKey"], "whk_") || !strings.HasPrefix(m["merchantId"], "m_") {
		t.Fatalf("merchant create printed %q (%v)", out.String(), err)
	}

	cases := []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"merchant", "create"}, "merchant name"},
		{[]string{"cashier", "create", "--merchant", "m_nobody"}, "m_nobody"},
		{[]string{"contract", "create", "--merchant", m["merchantId"], "--chain", "SOL", "--address", "0x1"}, "SOL"},
		{[]string{"serve", "extra"}, "unexpected arguments"},
		{[]string{"serve", "--mode", "staging"}, "mode must be one of"},
	}
	for _, c := range cases {
		out.Reset()
		err := run(ctx, c.args, getenv, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run %q: %v, want an error mentioning %q", c.args, err, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("run %q printed %q on stdout despite failing", c.args, out.String())
		}
	}
	if err := run(ctx, []string{"serve", "-h"}, getenv, &out, &errOut); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("serve -h: %v", err)
	}
}

// TestOperatorCommandsNeedADatabase: a command that works on existing data,
// pointed at a directory without a database (a mistyped --data), refuses
// and leaves the directory as it was: no empty database, no master key.
func TestOperatorCommandsNeedADatabase(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{
		{"payout", "list"},
		{"payout", "approve", "--id", "po_1"},
		{"payout", "refuse", "--id", "po_1", "--reason", "no"},
		{"cashier", "create", "--merchant", "m_1"},
		{"contract", "disable", "--id", "k_1"},
		{"webhook", "log", "--event", "ev_1"},
		{"webhook", "resend", "--event", "ev_1"},
		{"webhook", "test", "--cashier", "c_1"},
		{"collection", "cancel", "--order", "A1", "--merchant", "m_1"},
		{"sweep", "list"},
		{"sweep", "native", "--chain", "ETH"},
	} {
		data := t.TempDir()
		var out, errOut bytes.Buffer
		err := run(ctx, append(args, "--data", data), func(string) string { return "" }, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), "no database") {
			t.Errorf("%q on an empty directory: %v", args, err)
		}
		if entries, _ := os.ReadDir(data); len(entries) != 0 {
			t.Errorf("%q left %d files in the empty directory", args, len(entries))
		}
	}
}
