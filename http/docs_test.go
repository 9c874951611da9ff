package http

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestErrorTableIsDocumented keeps docs/api.md's table equal to errorTable.
func TestErrorTableIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for code, w := range errorTable {
		row := fmt.Sprintf("| %s | %s | %s | %d |", code, w.order, w.config, w.status)
		norm := strings.ReplaceAll(doc, "*", "")
		if !strings.Contains(norm, row) {
			t.Errorf("docs/api.md lacks the row %q", row)
		}
	}
}
