package http

import (
	"testing"

	"github.com/stablecashier/cashier"
)

// A network nothing watches (Config.Inactive) is in maintenance on the
// network list and absent from the coin list and the cashier info; the
// others are listed as before.
func TestListsLeaveOutInactiveNetworks(t *testing.T) {
	e := newEnv(t, func(c *Config) {
		c.Inactive = func(ch cashier.Chain) error {
			if ch == cashier.ChainTRON {
				return cashier.Errorf(cashier.ENetworkMaintenance, "network TRON is not active")
			}
			return nil
		}
	})
	r := e.do(request{method: "GET", path: "/admin/api/v2/pub/network/list", apiKey: "-", sigKey: "-"})
	checkEnvelope(t, r, "0")
	status := map[string]any{}
	for _, n := range r.body["data"].([]any) {
		status[n.(map[string]any)["chainId"].(string)] = n.(map[string]any)["status"]
	}
	if status["TRON"] != "maintenance" || status["1"] != "active" || status["42161"] != "active" {
		t.Fatalf("network statuses %v", status)
	}
	r = e.do(request{method: "GET", path: "/admin/api/v2/pub/coin/list", apiKey: "-", sigKey: "-"})
	checkEnvelope(t, r, "0")
	for _, c := range r.body["data"].([]any) {
		ns := c.(map[string]any)["networks"].([]any)
		if len(ns) != 2 {
			t.Fatalf("coin %v: %d networks, want ETH and ARB", c.(map[string]any)["symbol"], len(ns))
		}
		for _, n := range ns {
			if n.(map[string]any)["chainId"] == "TRON" {
				t.Fatalf("coin list offers TRON: %s", r.raw)
			}
		}
	}
	r = e.do(request{method: "GET", path: "/admin/api/v2/pub/cashier/info", query: "cashierId=" + cashierID})
	checkEnvelope(t, r, "0")
	d := r.body["data"].(map[string]any)
	for _, n := range d["supportedNetworks"].([]any) {
		if n.(map[string]any)["chainId"] == "TRON" {
			t.Fatalf("cashier info offers TRON: %s", r.raw)
		}
	}
	for _, c := range d["supportedCoins"].([]any) {
		if c.(map[string]any)["chainId"] == "TRON" {
			t.Fatalf("cashier info offers a TRON coin: %s", r.raw)
		}
	}
}
