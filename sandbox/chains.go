package sandbox

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/tronnode"
)

// evmDevChains are the EVM dev chains: their chain ids and data directories.
var evmDevChains = []struct {
	chain cashier.Chain
	id    uint64
	dir   string
	name  string
}{
	{cashier.ChainETH, devchain.ChainIDETH, "eth", "Ethereum"},
	{cashier.ChainARB, devchain.ChainIDARB, "arb", "Arbitrum"},
	{cashier.ChainBSC, devchain.ChainIDBSC, "bsc", "BNB Smart Chain"},
}

// sameChains reports whether a and b describe the same chain endpoints.
func sameChains(a, b *Info) bool {
	if len(a.Networks) != len(b.Networks) {
		return false
	}
	for _, c := range a.Chains() {
		na, nb := a.Networks[string(c)], b.Networks[string(c)]
		if na == nil || nb == nil || na.RPCURL != nb.RPCURL || na.PayoutContract != nb.PayoutContract {
			return false
		}
	}
	return true
}

// startChains starts the dev chains on the ports of prev (or new ones),
// deploying on first start, and returns the description with their URLs.
func (sb *Sandbox) startChains(ctx context.Context, opts Options, prev *Info) (*Info, error) {
	data := opts.Config.Data
	port := func(c cashier.Chain) int {
		if prev != nil && prev.Networks[string(c)] != nil {
			return prev.Networks[string(c)].Port
		}
		if opts.FreePorts {
			return 0
		}
		return DefaultPorts[c]
	}
	var err error
	for _, e := range evmDevChains {
		ch, err := devchain.Start(devchain.Options{ChainID: e.id, Port: port(e.chain),
			DataDir: filepath.Join(data, "chains", e.dir), Period: opts.BlockPeriod, OnDemand: true, WallClock: true})
		if err != nil {
			return nil, fmt.Errorf("sandbox: %s dev chain: %w", e.name, err)
		}
		sb.closers = append(sb.closers, ch.Close)
		*sb.evm(e.chain) = ch
	}
	if sb.TRON, err = tronnode.Open(tronnode.Options{Dir: filepath.Join(data, "chains", "tron"), BlockInterval: opts.TRONBlockInterval}); err != nil {
		return nil, fmt.Errorf("sandbox: TRON stand-in: %w", err)
	}
	sb.closers = append(sb.closers, sb.TRON.Close)
	tronLn, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port(cashier.ChainTRON)))
	if err != nil {
		return nil, fmt.Errorf("sandbox: TRON stand-in: %w", err)
	}
	sb.tronSrv = &http.Server{Handler: sb.TRON.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go sb.tronSrv.Serve(tronLn)
	sb.closers = append(sb.closers, sb.tronSrv.Close)
	tronURL := "http://" + tronLn.Addr().String()

	// Deployments: made once, then found again in sandbox.json.
	var info *Info
	if prev != nil {
		cp := *prev
		cp.Networks = map[string]*Network{}
		for k, n := range prev.Networks {
			nn := *n
			cp.Networks[k] = &nn
		}
		info = &cp
		// A sandbox.json written before a network joined the sandbox:
		// set that network up now, beside the others.
		if err := deployMissing(ctx, sb, info); err != nil {
			return nil, err
		}
	} else if info, err = deployAll(ctx, sb); err != nil {
		return nil, err
	}
	for _, e := range evmDevChains {
		ch := *sb.evm(e.chain)
		info.Networks[string(e.chain)].RPCURL, info.Networks[string(e.chain)].Port = ch.URL, portOf(ch.URL)
	}
	info.Networks["TRON"].RPCURL, info.Networks["TRON"].Port = tronURL, portOf(tronURL)
	info.Networks["TRON"].GenesisBlockID = sb.TRON.GenesisID()
	return info, nil
}

func portOf(u string) int {
	_, p, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://"))
	if err != nil {
		return 0
	}
	var n int
	fmt.Sscanf(p, "%d", &n)
	return n
}

// evm is the field holding c's EVM dev chain.
func (sb *Sandbox) evm(c cashier.Chain) **devchain.Chain {
	switch c {
	case cashier.ChainARB:
		return &sb.ARB
	case cashier.ChainBSC:
		return &sb.BSC
	}
	return &sb.ETH
}

// wsURL is the WebSocket form of a dev chain's HTTP endpoint (the same
// host and port).
func wsURL(httpURL string) string {
	return "ws://" + strings.TrimPrefix(strings.TrimPrefix(httpURL, "http://"), "ws://")
}
