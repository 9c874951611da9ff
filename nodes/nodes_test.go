package nodes

import (
	"errors"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

func TestPauses(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for h, want := range map[string]time.Duration{"": 0, "3": 3 * time.Second, "junk": 0, "-5": 0, "99999": maxPause,
		"Thu, 01 Jan 2026 00:00:07 GMT": 7 * time.Second} {
		if got := RetryAfter(h, now); got != want {
			t.Errorf("RetryAfter(%q) = %v, want %v", h, got, want)
		}
	}
	msg := `{"Error":"request rate exceeded the allowed_rps(15), and the query server is suspended for 30s"}`
	if got := SuspendedFor(msg); got != 30*time.Second {
		t.Errorf("SuspendedFor = %v", got)
	}
	if got := SuspendedFor("bad gateway"); got != 0 {
		t.Errorf("SuspendedFor(no pause) = %v", got)
	}
}

func TestNodeState(t *testing.T) {
	n := For(cashier.ChainETH, "https://user:key@eth.example/v3/secret")
	if n.Name() != "https://eth.example" {
		t.Fatalf("name %q keeps credentials or path", n.Name())
	}
	if For(cashier.ChainETH, "https://user:key@eth.example/v3/secret") != n {
		t.Fatal("one URL, two records")
	}
	for range downAfter - 1 {
		n.Failed(errors.New("boom"))
	}
	if !n.Up() {
		t.Fatal("down before three failures in a row")
	}
	n.Failed(errors.New("boom"))
	if n.Up() {
		t.Fatal("up after three failures in a row")
	}
	n.Pause(time.Minute, "429")
	st := n.State(time.Now())
	if st.Up || st.Failures != downAfter || st.PausedFor == "" || st.RateLimits != 1 {
		t.Fatalf("state %+v", st)
	}
	n.Succeeded()
	if !n.Up() || n.State(time.Now()).Failures != 0 {
		t.Fatal("a success does not bring the node back")
	}
	n.SetWrongChain("chain id 5, want 1")
	if n.Up() || len(Of(cashier.ChainETH)) == 0 || Of(cashier.ChainETH)[0].WrongChain == "" {
		t.Fatalf("wrong chain not reported: %+v", Of(cashier.ChainETH))
	}
}
