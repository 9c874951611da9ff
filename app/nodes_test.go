package app_test

import (
	"context"
	"io"
	"net"
	stdhttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/tronnode"
)

// Every configured node URL is checked against the registry: an Ethereum
// URL that serves another chain id and a TRON URL whose block 0 is not the
// network's genesis are refused (their peers carry on), /readyz fails
// naming them and the metrics mark them; a network whose every URL is on
// another chain is not active (its orders refused) while the others work.
func TestWrongChainNodesRefused(t *testing.T) {
	eth, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	arb, err := devchain.Start(devchain.Options{ChainID: devchain.ChainIDARB})
	if err != nil {
		t.Fatal(err)
	}
	defer arb.Close()
	right, err := tronnode.Open(tronnode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer right.Close()
	other, err := tronnode.Open(tronnode.Options{Clock: cashier.NewManualClock(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	rightSrv, otherSrv := httptest.NewServer(right.Handler()), httptest.NewServer(other.Handler())
	defer rightSrv.Close()
	defer otherSrv.Close()
	if right.GenesisID() == other.GenesisID() {
		t.Fatal("two stand-ins share a genesis")
	}

	reg := config.DefaultRegistry()
	id, genesis := int64(devchain.ChainIDETH), right.GenesisID()
	if err := config.Apply(reg, config.Override{Networks: []config.NetworkOverride{
		{ChainID: "ETH", EVMChainID: &id}, {ChainID: "TRON", GenesisBlockID: &genesis}}}); err != nil {
		t.Fatal(err)
	}
	start := func(ethURLs, tronURLs string) (*app.Service, string, chan error, func()) {
		cfg := config.Default()
		cfg.Data = t.TempDir()
		cfg.SetNodeURLs(cashier.ChainETH, ethURLs)
		cfg.TRONAPI = tronURLs
		cfg.MetricsAddr = "127.0.0.1:0"
		svc, err := app.New(context.Background(), cfg, app.Options{Registry: reg}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- svc.Serve(ctx, ln) }()
		return svc, "http://" + ln.Addr().String(), served, func() { cancel(); <-served; svc.Close() }
	}

	// Only wrong nodes for Ethereum: the service starts, Ethereum is not
	// active (its orders are refused, naming why), TRON works.
	wrongSvc, wrongBase, _, stopWrong := start(arb.URL, rightSrv.URL)
	body := waitStatus(t, wrongBase, 503)
	if n := networkOf(t, body, "ETH"); n["state"] != "wrong chain" || n["active"] != false || !strings.Contains(n["reason"].(string), "eth_chainId is 412346") {
		t.Fatalf("ETH on only a wrong node: %v", n)
	}
	if n := networkOf(t, body, "TRON"); n["active"] != true {
		t.Fatalf("TRON beside a wrong ETH: %v", n)
	}
	if err := wrongSvc.Inactive(cashier.ChainETH); cashier.ErrorCode(err) != cashier.ENetworkMaintenance || !strings.Contains(err.Error(), "serves another chain") {
		t.Fatalf("ETH order gate: %v", err)
	}
	if err := wrongSvc.Inactive(cashier.ChainTRON); err != nil {
		t.Fatal(err)
	}
	stopWrong()

	// One right and one wrong node per network.
	svc, base, _, stop := start(arb.URL+","+eth.URL, otherSrv.URL+","+rightSrv.URL)
	defer stop()
	head, err := svc.Chains[cashier.ChainETH].Head(context.Background())
	want, _ := eth.Client.BlockNumber(context.Background())
	if err != nil || head.Number < want {
		t.Fatalf("ETH head %+v %v: not from the right chain (at %d)", head, err, want)
	}
	if _, err := svc.Chains[cashier.ChainTRON].Head(context.Background()); err != nil {
		t.Fatal(err)
	}
	body = waitStatus(t, base, 503)
	failed, _ := body["failed"].(map[string]any)
	var wrongETH, wrongTRON bool
	for k, v := range failed {
		msg, _ := v.(string)
		wrongETH = wrongETH || strings.HasPrefix(k, "node ETH ") && strings.Contains(msg, "412346")
		wrongTRON = wrongTRON || strings.HasPrefix(k, "node TRON ") && strings.Contains(msg, other.GenesisID())
	}
	if !wrongETH || !wrongTRON || len(failed) != 2 {
		t.Fatalf("/readyz failed checks %v; want the two wrong nodes only", failed)
	}
	for svc.Ops.MetricsAddr() == "" {
		time.Sleep(10 * time.Millisecond)
	}
	res, err := stdhttp.Get("http://" + svc.Ops.MetricsAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(m), `cashier_chain_node_wrong_chain{chain="ETH",node="`+strings.TrimSuffix(arb.URL, "/")+`"} 1`) ||
		!strings.Contains(string(m), `cashier_chain_node_wrong_chain{chain="ETH",node="`+strings.TrimSuffix(eth.URL, "/")+`"} 0`) ||
		!strings.Contains(string(m), `cashier_chain_node_wrong_chain{chain="TRON",node="`+otherSrv.URL+`"} 1`) {
		t.Fatalf("node metrics:\n%s", grepLines(string(m), "cashier_chain_node"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
