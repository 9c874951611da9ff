package sandbox

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/tron"
	"github.com/stablecashier/cashier/tronnode"
)

// chain is what the sandbox needs of a dev chain to set it up: deploy code,
// send calls as a key, read, and give native coin for fees.
type chain interface {
	deploy(ctx context.Context, from *ecdsa.PrivateKey, code []byte, name string) (common.Address, error)
	exec(ctx context.Context, from *ecdsa.PrivateKey, to common.Address, data []byte) error
	call(ctx context.Context, to common.Address, data []byte) ([]byte, error)
	fund(ctx context.Context, to common.Address) error
	// settle makes queued effects visible (TRON stand-in: produce a block).
	settle(ctx context.Context) error
}

// evmChain sets up a go-ethereum dev chain through its JSON-RPC. Its sends
// are pipelined: each is signed and handed to the node at once, and settle
// (which every read does first) waits until all of them are mined, so a
// setup takes a few blocks rather than one per transaction. That matters:
// a dev chain on the wall clock makes at most one block a second.
type evmChain struct {
	c      *devchain.Chain
	mu     sync.Mutex
	sent   []common.Hash
	nonces map[common.Address]uint64 // the next nonce of each sender
}

// Gas of a pipelined call: it cannot be estimated against a state that
// does not hold the contracts deployed in the same block yet.
const setupCallGas = 300_000

// send signs and sends a transaction from key without waiting for it.
func (e *evmChain) send(ctx context.Context, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Transaction, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	// Nonces are counted here: the node's pending nonce may not count a
	// transaction its pool is still taking in.
	from := crypto.PubkeyToAddress(key.PublicKey)
	if e.nonces == nil {
		e.nonces = map[common.Address]uint64{}
	}
	nonce, ok := e.nonces[from]
	if !ok {
		var err error
		if nonce, err = e.c.Client.PendingNonceAt(ctx, from); err != nil {
			return nil, fmt.Errorf("nonce: %w", err)
		}
	}
	tx, err := e.c.SignTxAt(ctx, key, nonce, to, value, data, gas)
	if err != nil {
		return nil, err
	}
	if err := e.c.Client.SendTransaction(ctx, tx); err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	e.nonces[from] = nonce + 1
	e.sent = append(e.sent, tx.Hash())
	return tx, nil
}

func (e *evmChain) deploy(ctx context.Context, from *ecdsa.PrivateKey, code []byte, _ string) (common.Address, error) {
	// A deployment's gas is estimated: its constructor reads nothing sent
	// before it.
	tx, err := e.send(ctx, from, nil, nil, code, 0)
	if err != nil {
		return common.Address{}, err
	}
	return crypto.CreateAddress(crypto.PubkeyToAddress(from.PublicKey), tx.Nonce()), nil
}

func (e *evmChain) exec(ctx context.Context, from *ecdsa.PrivateKey, to common.Address, data []byte) error {
	_, err := e.send(ctx, from, &to, nil, data, setupCallGas)
	return err
}

func (e *evmChain) call(ctx context.Context, to common.Address, data []byte) ([]byte, error) {
	if err := e.settle(ctx); err != nil {
		return nil, err
	}
	return e.c.Client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
}

// fund gives 100 ether for gas.
func (e *evmChain) fund(ctx context.Context, to common.Address) error {
	_, err := e.send(ctx, e.c.Faucet, &to, new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether)), nil, 21_000)
	return err
}

// settle waits until every transaction sent is mined, and fails on one
// that reverted.
func (e *evmChain) settle(ctx context.Context) error {
	e.mu.Lock()
	sent := e.sent
	e.sent = nil
	e.mu.Unlock()
	for _, h := range sent {
		r, err := devchain.WaitMined(ctx, e.c.Client, h)
		if err != nil {
			return err
		}
		if r.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("setup transaction %s reverted", h.Hex())
		}
	}
	return nil
}

// tronChain sets up the TRON stand-in through its Go API (fee-free system
// transactions, the way a genesis would be prepared).
type tronChain struct{ n *tronnode.Node }

func tronAddr(k *ecdsa.PrivateKey) tron.Address {
	return tron.AddressFromEVM(crypto.PubkeyToAddress(k.PublicKey))
}

func (t tronChain) deploy(_ context.Context, from *ecdsa.PrivateKey, code []byte, name string) (common.Address, error) {
	a, err := t.n.Deploy(tronAddr(from), code, name)
	return a.EVM(), err
}

func (t tronChain) exec(_ context.Context, from *ecdsa.PrivateKey, to common.Address, data []byte) error {
	_, err := t.n.Exec(tronAddr(from), tron.AddressFromEVM(to), data)
	return err
}

func (t tronChain) call(_ context.Context, to common.Address, data []byte) ([]byte, error) {
	return t.n.Call(tron.Address{}, tron.AddressFromEVM(to), data)
}

// fund gives 10,000 TRX for energy and bandwidth.
func (t tronChain) fund(_ context.Context, to common.Address) error {
	return t.n.Fund(tron.AddressFromEVM(to), 10_000_000_000)
}

func (t tronChain) settle(context.Context) error {
	_, err := t.n.ProduceBlock()
	return err
}

// creator deploys the merchant's contracts from the owner's key through
// payoutcontract.Deploy, the code `cashier contract deploy` runs too.
type creator struct {
	ch  chain
	key *ecdsa.PrivateKey
}

func (c creator) Create(ctx context.Context, name string, code []byte) (common.Address, string, error) {
	a, err := c.ch.deploy(ctx, c.key, code, name)
	return a, "", err
}

func (c creator) Call(ctx context.Context, to common.Address, data []byte) ([]byte, error) {
	return c.ch.call(ctx, to, data)
}

// The dev chains' price feed: 3,000 USD per ETH with 8 decimals, as
// Chainlink's ETH/USD feeds answer.
const DemoFeedDecimals = 8

// DemoCoinPrice is the feed's answer, 3000 × 10^8.
func DemoCoinPrice() *big.Int { return big.NewInt(3000_00000000) }

// Demo balances, in whole tokens.
const (
	customerTokens  = 1_000_000
	contractTokens  = 100_000
	allowanceTokens = 100_000
)

// TokenDecimals is the decimals of c's sandbox test tokens: 18 on BNB Smart
// Chain, as its Binance-Peg USDT and USDC, 6 elsewhere.
func TokenDecimals(c cashier.Chain) int {
	if c == cashier.ChainBSC {
		return 18
	}
	return 6
}

// tokens is n whole tokens in c's base units.
func tokens(c cashier.Chain, n int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(TokenDecimals(c))), nil))
}

// tokenKinds picks, per network, test tokens that behave like the real
// ones there: Ethereum USDT returns nothing from transfer, TRON USDT
// returns false on success, the others return true; BNB Smart Chain's
// both have 18 decimals.
func tokenKinds(c cashier.Chain) map[string]func() []byte {
	standard := func(name, symbol string) func() []byte {
		return func() []byte {
			b := bindings.NewTestUSDC()
			return append(common.FromHex(bindings.TestUSDCMetaData.Bin), b.PackConstructor(name, symbol)...)
		}
	}
	usdt := standard("Tether USD", "USDT")
	if c == cashier.ChainBSC {
		peg := func(name, symbol string) func() []byte {
			return func() []byte {
				return append(common.FromHex(bindings.TestPegTokenMetaData.Bin), bindings.NewTestPegToken().PackConstructor(name, symbol)...)
			}
		}
		return map[string]func() []byte{"USDT": peg("Tether USD", "USDT"), "USDC": peg("USD Coin", "USDC")}
	}
	switch c {
	case cashier.ChainETH:
		usdt = func() []byte {
			return append(common.FromHex(bindings.TestUSDTMetaData.Bin), bindings.NewTestUSDT().PackConstructor("Tether USD", "USDT")...)
		}
	case cashier.ChainTRON:
		usdt = func() []byte {
			return append(common.FromHex(bindings.TestTronUSDTMetaData.Bin), bindings.NewTestTronUSDT().PackConstructor("Tether USD", "USDT")...)
		}
	}
	return map[string]func() []byte{"USDT": usdt, "USDC": standard("USD Coin", "USDC")}
}

// setup deploys the tokens, the demo merchant's payout contract and deposit
// factory on one chain, and funds the demo wallets and the contract.
func setup(ctx context.Context, ch chain, c cashier.Chain, prefix byte, roles, wallets map[string]*Wallet) (*Network, error) {
	owner := roles["owner"].MustKey()
	addr := func(w *Wallet) common.Address { return common.HexToAddress(w.EVMAddress) }
	for _, w := range []*Wallet{roles["owner"], roles["executor"], roles["sweeper"], wallets["customer"], wallets["allowance"]} {
		if err := ch.fund(ctx, addr(w)); err != nil {
			return nil, fmt.Errorf("fund %s: %w", w.EVMAddress, err)
		}
	}
	if err := ch.settle(ctx); err != nil {
		return nil, err
	}
	n := &Network{Tokens: map[string]string{}, Create2Prefix: fmt.Sprintf("0x%02x", prefix)}

	d, err := payoutcontract.Deploy(ctx, creator{ch, owner}, payoutcontract.Roles{
		Owner: addr(roles["owner"]), Executor: addr(roles["executor"]), Signer: addr(roles["signer"]), Fee: addr(roles["fee"]),
		Sweeper: addr(roles["sweeper"]), Create2Prefix: prefix,
	})
	if err != nil {
		return nil, err
	}
	payout, factory, impl := d.Payout, d.Factory, d.Implementation

	token := bindings.NewTestUSDC() // every test token shares this ABI
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for symbol, code := range tokenKinds(c) {
		t, err := ch.deploy(ctx, owner, code(), symbol)
		if err != nil {
			return nil, fmt.Errorf("deploy %s: %w", symbol, err)
		}
		steps := []struct {
			from *ecdsa.PrivateKey
			data []byte
		}{
			{owner, token.PackMint(addr(wallets["customer"]), tokens(c, customerTokens))},
			{owner, token.PackMint(payout, tokens(c, contractTokens))},
			{owner, token.PackMint(addr(wallets["allowance"]), tokens(c, allowanceTokens))},
			{wallets["allowance"].MustKey(), token.PackApprove(payout, maxUint)},
		}
		for _, s := range steps {
			if err := ch.exec(ctx, s.from, t, s.data); err != nil {
				return nil, fmt.Errorf("set up %s: %w", symbol, err)
			}
		}
		n.Tokens[symbol] = address.Format(c, t)
	}
	if err := ch.settle(ctx); err != nil {
		return nil, err
	}
	// Check the outcome through a read, since the TRON stand-in's system
	// calls report their result only in the block.
	for symbol, t := range n.Tokens {
		ta, err := address.Parse(c, t)
		if err != nil {
			return nil, err
		}
		out, err := ch.call(ctx, ta, token.PackBalanceOf(payout))
		if err != nil {
			return nil, err
		}
		bal, err := token.UnpackBalanceOf(out)
		if err != nil {
			return nil, err
		}
		if bal.Cmp(tokens(c, contractTokens)) != 0 {
			return nil, fmt.Errorf("%s: payout contract holds %s base units after setup", symbol, bal)
		}
	}
	if c.IsEVM() {
		feed, err := ch.deploy(ctx, owner, append(common.FromHex(bindings.TestPriceFeedMetaData.Bin),
			bindings.NewTestPriceFeed().PackConstructor(DemoFeedDecimals, c.CoinSymbol()+" / USD", DemoCoinPrice())...), "TestPriceFeed")
		if err != nil {
			return nil, fmt.Errorf("deploy price feed: %w", err)
		}
		n.PriceFeed = address.Format(c, feed)
	}
	if err := ch.settle(ctx); err != nil {
		return nil, err
	}
	n.PayoutContract, n.DepositFactory, n.DepositImplementation = address.Format(c, payout), address.Format(c, factory), address.Format(c, impl)
	return n, nil
}

// deployAll generates the keys and sets up every chain.
func deployAll(ctx context.Context, sb *Sandbox) (*Info, error) {
	info := &Info{ContractIDs: map[string]string{}, Networks: map[string]*Network{},
		Wallets: map[string]*Wallet{}, Roles: map[string]*Wallet{}}
	for _, name := range []string{"owner", "executor", "signer", "sweeper", "fee"} {
		w, err := NewWallet()
		if err != nil {
			return nil, err
		}
		info.Roles[name] = w
	}
	for _, name := range []string{"customer", "allowance"} {
		w, err := NewWallet()
		if err != nil {
			return nil, err
		}
		info.Wallets[name] = w
	}
	if err := deployMissing(ctx, sb, info); err != nil {
		return nil, err
	}
	return info, nil
}

// deployMissing sets up every sandbox network info does not describe yet.
func deployMissing(ctx context.Context, sb *Sandbox, info *Info) error {
	type net struct {
		chain  cashier.Chain
		ch     chain
		id     uint64
		prefix byte
	}
	nets := []net{}
	for _, e := range evmDevChains {
		nets = append(nets, net{e.chain, &evmChain{c: *sb.evm(e.chain)}, e.id, 0xff})
	}
	nets = append(nets, net{cashier.ChainTRON, tronChain{sb.TRON}, tronnode.ChainID, tronnode.Create2Prefix})
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, c := range nets {
		if info.Networks[string(c.chain)] != nil {
			continue
		}
		// The chains are set up side by side: each stamps its blocks
		// with the wall clock, a second apart (devchain.Options.WallClock),
		// so one after the other would add their waits.
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := setup(ctx, c.ch, c.chain, c.prefix, info.Roles, info.Wallets)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("sandbox: set up %s: %w", c.chain, err))
				return
			}
			n.ChainID = c.id
			info.Networks[string(c.chain)] = n
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}
