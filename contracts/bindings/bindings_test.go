package bindings

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/abigen"
)

// artifact is the part of a contracts/build/<Name>.json file the bindings
// are generated from.
type artifact struct {
	ABI json.RawMessage `json:"abi"`
	Bin string          `json:"bin"`
}

// TestBindingsMatchArtifacts regenerates every binding from the committed
// artifacts exactly as generate.sh does (compact ABI, creation code without
// 0x) and fails when a committed binding differs or is missing.
func TestBindingsMatchArtifacts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "build", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no artifacts in contracts/build")
	}
	want := map[string]bool{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var a artifact
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var abiText bytes.Buffer
		if err := json.Compact(&abiText, a.ABI); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		code, err := abigen.BindV2([]string{name}, []string{abiText.String()},
			[]string{strings.TrimPrefix(a.Bin, "0x")}, "bindings", map[string]string{}, map[string]string{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := strings.ToLower(name) + ".gen.go"
		want[out] = true
		committed, err := os.ReadFile(out)
		if err != nil {
			t.Errorf("%s: binding missing (%v); run contracts/generate.sh", name, err)
			continue
		}
		if string(committed) != code {
			t.Errorf("%s: committed binding differs from the artifact; run contracts/generate.sh", out)
		}
	}
	generated, err := filepath.Glob("*.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range generated {
		if !want[g] {
			t.Errorf("%s has no artifact in contracts/build; remove it or run contracts/generate.sh", g)
		}
	}
}
