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

// going-live.md is in the order an operator follows (a testnet rehearsal,
// then keys, deploy, register, serve, monitor) and its monitoring section
// names every shipped alert.
func TestGoingLiveOrder(t *testing.T) {
	b, err := os.ReadFile("docs/going-live.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	last := -1
	for _, h := range []string{"## Rehearse on a testnet", "## Install and provision", "## Keys", "## Deploying the contracts",
		"## Registering contracts deployed elsewhere", "## TLS behind a reverse proxy", "## A systemd unit", "## Monitoring"} {
		i := strings.Index(doc, "\n"+h+"\n")
		if i < 0 || i < last {
			t.Fatalf("%q missing or out of order", h)
		}
		last = i
	}
	_, mon, _ := strings.Cut(doc, "\n## Monitoring\n")
	mon, _, _ = strings.Cut(mon, "\n## ")
	rules, err := os.ReadFile("deploy/prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	alerts := regexp.MustCompile(`(?m)^\s*- alert: (\w+)`).FindAllStringSubmatch(string(rules), -1)
	if len(alerts) < 10 {
		t.Fatalf("alerts: %v", alerts)
	}
	for _, a := range alerts {
		if !strings.Contains(mon, "`"+a[1]+"`") {
			t.Errorf("going-live.md's Monitoring does not name the alert %s", a[1])
		}
	}
}
