package cashier_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's documentation list names every page under docs/, and its
// first two commands are the sandbox and the test suite, as a newcomer
// types them.
func TestReadmeListsEveryDoc(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, list, ok := strings.Cut(readme, "\n## Documentation\n")
	if !ok {
		t.Fatal("README.md has no Documentation section")
	}
	pages, _ := filepath.Glob("docs/*.md")
	if len(pages) < 10 {
		t.Fatalf("docs: %v", pages)
	}
	for _, p := range pages {
		if !strings.Contains(list, "("+filepath.ToSlash(p)+")") {
			t.Errorf("README.md's documentation list does not link %s", p)
		}
	}
	cmds := regexp.MustCompile("(?s)```sh\n(.*?)\n```").FindAllStringSubmatch(readme, 2)
	if len(cmds) != 2 || cmds[0][1] != "go run ./cmd/cashier sandbox" || cmds[1][1] != "./test.sh" {
		t.Fatalf("README.md's first commands: %q", cmds)
	}
}
