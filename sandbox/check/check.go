// Package check is the acceptance check of a running sandbox. It talks to
// the sandbox only over the network, the way any outside script would: the
// merchant API through the Go SDK, the dev chains through the project's own
// chain clients. It pays collection orders with real token transfers,
// creates payout orders, runs 100-recipient payout batches through the
// payout contract in both modes as the executor would, and makes sure the
// contract refuses what it must refuse.
package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

// Decimals of every sandbox test token, as of the real USDT and USDC.
const Decimals = 6

// Run checks the sandbox described by info. It prints one line per step to
// out and returns an error naming the first step that failed. What later
// checks need (the orders and payout recipients it made) is written to
// dataDir, together with the transaction journals of the accounts it sends
// from.
func Run(ctx context.Context, info *sandbox.Info, dataDir string, out io.Writer) error {
	r, err := newRun(info, dataDir, out)
	if err != nil {
		return err
	}
	defer r.close()
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"collection on ETH paid by a token transfer, read back through the chain client", func(ctx context.Context) error { return r.collection(ctx, cashier.ChainETH) }},
		{"collection on TRON paid by a token transfer, read back through the chain client", func(ctx context.Context) error { return r.collection(ctx, cashier.ChainTRON) }},
		{"payout orders through the API (accepted, the allowance-mode one paid; refused 000403, 000307, 000308)", r.payoutOrders},
		{"balance-mode batch of 100 recipients on ETH", r.balanceBatch},
		{"allowance-mode batch of 100 recipients on TRON", r.allowanceBatch},
		{"replayed nonce refused", r.replayedNonce},
		{"wrong signer refused", r.wrongSigner},
		{"non-executor caller refused", r.notExecutor},
		{"balance mode beyond the contract balance refused", r.contractShort},
		{"allowance mode beyond the wallet balance refused", r.walletShort},
	}
	for _, s := range steps {
		if err := r.step(ctx, s.name, s.fn); err != nil {
			return err
		}
	}
	return r.rec.write(filepath.Join(dataDir, RecordFile))
}

// Resumed checks that a restarted sandbox kept what Run left: the merchant
// answers with the same credentials and knows the collection orders, and
// every payout recipient still holds what it was paid.
func Resumed(ctx context.Context, info *sandbox.Info, dataDir string, out io.Writer) error {
	rec, err := ReadRecord(filepath.Join(dataDir, RecordFile))
	if err != nil {
		return fmt.Errorf("resumed: %w (run the full check first)", err)
	}
	r, err := newRun(info, dataDir, out)
	if err != nil {
		return err
	}
	defer r.close()
	if err := r.step(ctx, "same merchant credentials", func(context.Context) error {
		if info.MerchantID != rec.MerchantID || info.APIKey != rec.APIKey {
			return fmt.Errorf("merchant %s / key %s, was %s / %s", info.MerchantID, info.APIKey, rec.MerchantID, rec.APIKey)
		}
		return nil
	}); err != nil {
		return err
	}
	if err := r.step(ctx, "collection orders still known to the API", func(ctx context.Context) error {
		for _, c := range rec.Collections {
			d, err := r.api.CollectionDetail(ctx, c.OrderNo)
			if err != nil {
				return fmt.Errorf("%s: %w", c.OrderNo, err)
			}
			if d.DepositAddress != c.DepositAddress || d.ChainID != c.Chain {
				return fmt.Errorf("%s: deposit %s on %s, was %s on %s", c.OrderNo, d.DepositAddress, d.ChainID, c.DepositAddress, c.Chain)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return r.step(ctx, "payout recipients' balances kept", func(ctx context.Context) error {
		for _, p := range rec.Paid {
			n := r.nets[cashier.Chain(p.Chain)]
			want, ok := new(big.Int).SetString(p.Amount, 10)
			if !ok {
				return fmt.Errorf("record: bad amount %q", p.Amount)
			}
			if err := n.expectBalance(ctx, p.Token, p.Holder, want); err != nil {
				return err
			}
		}
		return nil
	})
}

// run is the state of one check.
type run struct {
	info    *sandbox.Info
	dataDir string
	out     io.Writer
	api     *client.Client
	nets    map[cashier.Chain]*network
	rec     *Record

	// The balance-mode batch, kept for the replay.
	lastBatch cashier.Call
}

func newRun(info *sandbox.Info, dataDir string, out io.Writer) (*run, error) {
	r := &run{
		info: info, dataDir: dataDir, out: out,
		api:  client.New(info.BaseURL, info.APIKey, info.SecretKey),
		nets: map[cashier.Chain]*network{},
		rec:  &Record{MerchantID: info.MerchantID, APIKey: info.APIKey},
	}
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		n, err := newNetwork(c, info.Networks[string(c)], filepath.Join(dataDir, "check", "journal"))
		if err != nil {
			r.close()
			return nil, err
		}
		r.nets[c] = n
	}
	return r, nil
}

func (r *run) close() {
	for _, n := range r.nets {
		n.close()
	}
}

func (r *run) step(ctx context.Context, name string, fn func(context.Context) error) error {
	start := time.Now()
	if err := fn(ctx); err != nil {
		fmt.Fprintf(r.out, "FAIL %s: %v\n", name, err)
		return fmt.Errorf("%s: %w", name, err)
	}
	fmt.Fprintf(r.out, "ok   %s (%s)\n", name, time.Since(start).Round(time.Millisecond))
	return nil
}

// network is one dev chain as the check sees it: a read-only chain client,
// and sending clients per key opened on demand.
type network struct {
	chain    cashier.Chain
	info     *sandbox.Network
	read     cashier.ChainClient
	journals string
	senders  map[common.Address]cashier.ChainClient
	closers  []func()
}

func newNetwork(c cashier.Chain, info *sandbox.Network, journals string) (*network, error) {
	if info == nil {
		return nil, fmt.Errorf("sandbox.json describes no %s network", c)
	}
	n := &network{chain: c, info: info, journals: journals, senders: map[common.Address]cashier.ChainClient{}}
	rc, err := n.dial(nil)
	if err != nil {
		return nil, err
	}
	n.read = rc
	return n, nil
}

// sender returns a client that sends as w.
func (n *network) sender(w *sandbox.Wallet) (cashier.ChainClient, error) {
	a := common.HexToAddress(w.EVMAddress)
	if c, ok := n.senders[a]; ok {
		return c, nil
	}
	c, err := n.dial(w)
	if err != nil {
		return nil, err
	}
	n.senders[a] = c
	return c, nil
}

func (n *network) dial(w *sandbox.Wallet) (cashier.ChainClient, error) {
	if n.chain == cashier.ChainTRON {
		cfg := tron.Config{URLs: []string{n.info.RPCURL}}
		if w != nil {
			k, err := w.Key()
			if err != nil {
				return nil, err
			}
			cfg.Key = k
		}
		return tron.New(cfg)
	}
	cfg := evm.Config{Chain: n.chain, ChainID: n.info.ChainID, URLs: []string{n.info.RPCURL}}
	if w != nil {
		k, err := w.Key()
		if err != nil {
			return nil, err
		}
		j, err := evm.OpenFileJournal(n.journals, n.info.ChainID, w.EVMAddress)
		if err != nil {
			return nil, err
		}
		n.closers = append(n.closers, func() { j.Close() })
		cfg.Key, cfg.Journal = k, j
	}
	c, err := evm.New(cfg)
	if err != nil {
		return nil, err
	}
	n.closers = append(n.closers, c.Close)
	return c, nil
}

func (n *network) close() {
	for i := len(n.closers) - 1; i >= 0; i-- {
		n.closers[i]()
	}
}

// walletAddr is w's address on this network.
func (n *network) walletAddr(w *sandbox.Wallet) string {
	if n.chain == cashier.ChainTRON {
		return w.TRONAddress
	}
	return w.EVMAddress
}

func (n *network) token(symbol string) (string, error) {
	t := n.info.Tokens[symbol]
	if t == "" {
		return "", fmt.Errorf("no %s token on %s", symbol, n.chain)
	}
	return t, nil
}

// send sends call as w and waits for its receipt.
func (n *network) send(ctx context.Context, w *sandbox.Wallet, call cashier.Call) (*cashier.Receipt, error) {
	c, err := n.sender(w)
	if err != nil {
		return nil, err
	}
	h, err := c.SendCall(ctx, call)
	// The sandbox's service signs payouts with the same executor key, so
	// it can take the nonce this client was about to use; such a send was
	// refused whole and may go again with the next nonce.
	for try := 0; errors.Is(err, evm.ErrNonceUsed) && try < 3; try++ {
		h, err = c.SendCall(ctx, call)
	}
	if err != nil {
		return nil, err
	}
	if ec, ok := c.(*evm.Client); ok {
		// Waiting through the sender settles the send in its journal, so a
		// later run does not broadcast it again.
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		st, err := ec.Wait(ctx, h, 100*time.Millisecond)
		if err != nil {
			return nil, err
		}
		if st.State != evm.SendConfirmed {
			return nil, fmt.Errorf("send %s ended %s", h, st.State)
		}
		return st.Receipt, nil
	}
	return n.wait(ctx, h)
}

// wait polls for the receipt of h: the EVM dev chains mine at once, the
// TRON stand-in every block interval.
func (n *network) wait(ctx context.Context, h string) (*cashier.Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		rc, err := n.read.Receipt(ctx, h)
		if err != nil {
			return nil, err
		}
		if rc != nil {
			return rc, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no receipt of %s: %w", h, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (n *network) balance(ctx context.Context, token, holder string) (*big.Int, error) {
	return n.read.TokenBalance(ctx, token, holder)
}

func (n *network) expectBalance(ctx context.Context, token, holder string, want *big.Int) error {
	got, err := n.balance(ctx, token, holder)
	if err != nil {
		return err
	}
	if got.Cmp(want) != 0 {
		return fmt.Errorf("%s holds %s base units of %s on %s, want %s", holder, got, token, n.chain, want)
	}
	return nil
}

// sameAddress compares two addresses in a network's text form (EVM
// checksums may differ in case).
func sameAddress(a, b string) bool { return strings.EqualFold(a, b) }
