package main

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// cashier update --allowed-origins sets the origins of browser-created
// orders in their canonical form; a bad origin changes nothing.
func TestCashierUpdateAllowedOrigins(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	do := func(args ...string) (map[string]any, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, append(args, "--data", data), func(string) string { return "" }, &out, &errOut)
		var m map[string]any
		if err == nil {
			if jerr := json.Unmarshal(out.Bytes(), &m); jerr != nil {
				t.Fatalf("%v: %s", jerr, out.String())
			}
		}
		return m, err
	}
	m, err := do("merchant", "create", "--name", "Origins")
	if err != nil {
		t.Fatal(err)
	}
	c, err := do("cashier", "create", "--merchant", m["merchantId"].(string), "--mode", "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	id := c["cashierId"].(string)
	got, err := do("cashier", "update", "--id", id, "--allowed-origins", "https://Shop.example/, http://127.0.0.1:8081")
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"https://shop.example", "http://127.0.0.1:8081"}
	if !reflect.DeepEqual(got["allowedOrigins"], want) {
		t.Fatalf("allowedOrigins %v, want %v", got["allowedOrigins"], want)
	}
	if _, err := do("cashier", "update", "--id", id, "--allowed-origins", "https://shop.example/path"); err == nil {
		t.Fatal("an origin with a path was accepted")
	}
	if _, err := do("cashier", "update", "--id", id); err == nil {
		t.Fatal("update without --allowed-origins was accepted")
	}
	// Read back through a harmless update of the same list.
	again, err := do("cashier", "update", "--id", id, "--allowed-origins", "https://shop.example,http://127.0.0.1:8081")
	if err != nil || !reflect.DeepEqual(again["allowedOrigins"], want) {
		t.Fatalf("after a refused update: %v %v", again, err)
	}
	none, err := do("cashier", "update", "--id", id, "--allowed-origins", "")
	if err != nil || len(none["allowedOrigins"].([]any)) != 0 {
		t.Fatalf("clearing the list: %v %v", none, err)
	}
}
