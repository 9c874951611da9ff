package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKeyCommands(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	getenv := func(k string) string { return map[string]string{"CASHIER_DATA": data}[k] }
	runJSON := func(args ...string) (map[string]any, error) {
		var out, errOut bytes.Buffer
		if err := run(ctx, args, getenv, &out, &errOut); err != nil {
			return nil, err
		}
		var m map[string]any
		return m, json.Unmarshal(out.Bytes(), &m)
	}
	g, err := runJSON("key", "generate", "--chain", "TRON", "--role", "signer")
	if err != nil || !strings.HasPrefix(g["address"].(string), "T") {
		t.Fatalf("generate: %v %v", g, err)
	}
	file := filepath.Join(t.TempDir(), "k")
	// The well-known key 0x…01 has address 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf.
	os.WriteFile(file, []byte("0x0000000000000000000000000000000000000000000000000000000000000001\n"), 0o600)
	i, err := runJSON("key", "import", "--chain", "ETH", "--role", "executor", "--key-file", file)
	if err != nil || i["address"] != "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf" {
		t.Fatalf("import: %v %v", i, err)
	}
	os.WriteFile(file, []byte("not a key"), 0o600)
	for _, bad := range [][]string{
		{"key", "import", "--chain", "ETH", "--role", "executor", "--key-file", file},
		{"key", "import", "--chain", "ETH", "--role", "executor"},
		{"key", "generate", "--chain", "SOL", "--role", "signer"},
		{"key", "generate", "--chain", "ETH", "--role", "owner"},
	} {
		if _, err := runJSON(bad...); err == nil {
			t.Fatalf("%q succeeded", bad)
		}
	}
	l, err := runJSON("key", "list")
	if err != nil {
		t.Fatal(err)
	}
	keys := l["keys"].([]any)
	if len(keys) != 2 || keys[0].(map[string]any)["address"] != g["address"] || keys[1].(map[string]any)["address"] != i["address"] {
		t.Fatalf("list: %v (the failed import must not have replaced the executor key)", l)
	}
}
