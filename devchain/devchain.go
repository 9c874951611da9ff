// Package devchain runs an in-process Ethereum development chain: a real
// go-ethereum node with an HTTP JSON-RPC endpoint on 127.0.0.1 whose blocks
// are produced on demand (one block as soon as transactions arrive) or on a
// fixed period. Tests use it instead of mocks, and the sandbox mode of the
// service runs one per EVM network.
package devchain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"
)

// Chain ids of the development networks. They differ from every public
// network so a key or transaction can never be replayed between a dev chain
// and a real one; 412346 is the id Arbitrum's own dev node uses.
// ChainIDBSC is the sandbox's BNB-Smart-Chain-like network (18-decimal
// tokens), 56 followed by 1337.
const (
	ChainIDETH = 1337
	ChainIDARB = 412346
	ChainIDBSC = 561337
)

// FaucetKey is the private key of the account every dev chain prefunds with
// FaucetBalance. It is the widely known first development key of the common
// Ethereum toolchains; it must never hold value on a public network.
const FaucetKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

// FaucetBalance is the faucet's genesis balance: one billion ether.
var FaucetBalance = new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(params.Ether))

// Options configures a dev chain.
type Options struct {
	ChainID uint64 // default ChainIDETH
	// Port of the HTTP JSON-RPC endpoint on 127.0.0.1; 0 picks a free port.
	Port int
	// DataDir keeps the chain on disk so it survives a restart with the same
	// directory and the same options; "" keeps everything in memory.
	DataDir string
	// Period between blocks; 0 produces a block as soon as transactions
	// arrive (and otherwise only on Commit).
	Period time.Duration
	// Alloc prefunds accounts (wei) besides the faucet.
	Alloc map[common.Address]*big.Int
	// GasLimit of blocks; default 30,000,000.
	GasLimit uint64
	// OnDemand, with a Period, also produces a block as soon as
	// transactions arrive: sends are mined at once while the head still
	// advances on the period (confirmations grow without traffic).
	OnDemand bool
	// WallClock stamps every block with the wall clock, never ahead of
	// it: block timestamps are whole seconds and must grow, so a block is
	// sealed only once the clock has passed its parent's second (a send
	// waits up to a second; a period tick within the head's second makes
	// no block). Without it a burst of blocks runs the chain's time ahead
	// of the clock by a second per block, which receivers comparing a
	// webhook's blockTime with their own clock misjudge. A head already
	// ahead (a chain kept from before) is not waited for: its blocks go on
	// a second apart until the clock catches up.
	WallClock bool
}

// Chain is a running dev chain.
type Chain struct {
	URL     string            // HTTP JSON-RPC endpoint
	WSURL   string            // the same endpoint over WebSocket (eth_subscribe)
	Client  *ethclient.Client // connected to URL
	ChainID *big.Int
	Faucet  *ecdsa.PrivateKey // prefunded key, see FaucetKey
	Signer  types.Signer      // signer of ChainID on the chain's rules

	node   *node.Node
	eth    *eth.Ethereum
	beacon *catalyst.SimulatedBeacon
	minTip *big.Int   // the block builder's minimum tip
	wall   bool       // Options.WallClock
	mine   sync.Mutex // block production and pool syncs are not reentrant
	send   sync.Mutex // serialises nonce reads and sends of Transact
	stop   chan struct{}
	done   chan struct{}
	closed sync.Once
}

// ChainConfig returns the protocol rules of a dev chain: every fork up to and
// including Osaka from genesis, and nothing later. go-ethereum's own dev
// configuration also enables the unreleased fork after Osaka, which changes
// gas costs (ERC20 transfers cost about three times as much), so gas measured
// on it would not match Ethereum or Arbitrum today.
func ChainConfig(chainID uint64) *params.ChainConfig {
	cfg := *params.AllDevChainProtocolChanges
	cfg.ChainID = new(big.Int).SetUint64(chainID)
	cfg.BogotaTime = nil
	cfg.AmsterdamTime = nil
	cfg.UBTTime = nil
	return &cfg
}

// Genesis returns the genesis block of a dev chain for opts.
func Genesis(opts Options) *core.Genesis {
	opts = withDefaults(opts)
	alloc := core.SystemContractAllocs()
	faucet, _ := crypto.HexToECDSA(FaucetKey)
	alloc[crypto.PubkeyToAddress(faucet.PublicKey)] = types.Account{Balance: FaucetBalance}
	for a, wei := range opts.Alloc {
		alloc[a] = types.Account{Balance: new(big.Int).Set(wei)}
	}
	return &core.Genesis{
		Config:     ChainConfig(opts.ChainID),
		GasLimit:   opts.GasLimit,
		BaseFee:    big.NewInt(params.InitialBaseFee),
		Difficulty: common.Big0,
		Alloc:      alloc,
		// A fixed timestamp keeps the genesis hash stable across restarts.
		Timestamp: 1_700_000_000,
	}
}

func withDefaults(opts Options) Options {
	if opts.ChainID == 0 {
		opts.ChainID = ChainIDETH
	}
	if opts.GasLimit == 0 {
		opts.GasLimit = 30_000_000
	}
	return opts
}

// Start starts a dev chain and returns once its RPC endpoint answers.
func Start(opts Options) (*Chain, error) {
	opts = withDefaults(opts)
	nodeConf := node.Config{
		Name:             "devchain",
		DataDir:          opts.DataDir,
		HTTPHost:         "127.0.0.1",
		HTTPPort:         opts.Port,
		HTTPModules:      []string{"eth", "net", "web3", "txpool", "dev"},
		HTTPVirtualHosts: []string{"localhost", "127.0.0.1"},
		HTTPTimeouts:     rpc.DefaultHTTPTimeouts,
		// WebSocket on the same port (same host and port share one
		// listener), so the service can follow new heads as they are made.
		WSHost:    "127.0.0.1",
		WSPort:    opts.Port,
		WSModules: []string{"eth", "net", "web3"},
		WSOrigins: []string{"*"},
		P2P:       p2p.Config{NoDiscovery: true, MaxPeers: 0, ListenAddr: ""},
		Logger:    log.NewLogger(log.DiscardHandler()),
	}
	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, fmt.Errorf("devchain: node: %w", err)
	}
	ethConf := ethconfig.Defaults
	ethConf.Genesis = Genesis(opts)
	ethConf.NetworkId = opts.ChainID
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	// A dev chain is small: scanning blocks for logs is fast and avoids
	// waiting for the background log index.
	ethConf.LogNoHistory = true
	ethConf.DatabaseCache = 32
	ethConf.TrieCleanCache = 16
	ethConf.TrieDirtyCache = 16
	ethConf.SnapshotCache = 16
	ethConf.Miner.GasCeil = opts.GasLimit
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("devchain: eth: %w", err)
	}
	fs := filters.NewFilterSystem(backend.APIBackend, filters.Config{LogQueryLimit: ethConf.LogQueryLimit})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(fs)}})
	if err := stack.Start(); err != nil {
		stack.Close()
		return nil, fmt.Errorf("devchain: start: %w", err)
	}
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("devchain: beacon: %w", err)
	}
	url := stack.HTTPEndpoint()
	client, err := ethclient.Dial(url)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("devchain: dial: %w", err)
	}
	faucet, _ := crypto.HexToECDSA(FaucetKey)
	cid := new(big.Int).SetUint64(opts.ChainID)
	c := &Chain{
		URL:     url,
		WSURL:   stack.WSEndpoint(),
		Client:  client,
		ChainID: cid,
		Faucet:  faucet,
		Signer:  types.LatestSignerForChainID(cid),
		node:    stack,
		eth:     backend,
		beacon:  beacon,
		minTip:  ethConf.Miner.GasPrice,
		wall:    opts.WallClock,
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go c.produce(opts.Period, opts.OnDemand)
	return c, nil
}

// produce makes blocks: on every period tick, or, with period 0, whenever
// transactions enter the pool. Unlike go-ethereum's own on-demand loop it
// does not keep sealing empty blocks while the pool holds a transaction the
// block builder will not take (a fee cap under the base fee): such a
// transaction stays pending, as it would on a real network, until it is
// replaced or the base fee falls.
func (c *Chain) produce(period time.Duration, onDemand bool) {
	defer close(c.done)
	newTxs := make(chan core.NewTxsEvent, 16)
	sub := c.eth.TxPool().SubscribeTransactions(newTxs, true)
	defer sub.Unsubscribe()
	var tick, recheck <-chan time.Time
	if period > 0 {
		t := time.NewTicker(period)
		defer t.Stop()
		tick = t.C
	}
	if period == 0 || onDemand {
		// A safety net under the event-driven path: a transaction whose
		// event was seen while the pool could not yet report it (a Sync
		// superseded by another, a promotion still under way) would
		// otherwise wait for the next transaction to arrive.
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		recheck = t.C
	}
	sealIncludable := func() {
		// Seal while the builder has includable transactions, e.g. a
		// burst larger than a block or ones that arrived while sealing.
		for i := 0; i < 64 && c.includable(); i++ {
			c.Commit()
		}
	}
	for {
		select {
		case <-c.stop:
			return
		case <-sub.Err():
			return
		case <-tick:
			if !c.wall || c.sealableNow() {
				c.Commit()
			}
		case <-recheck:
			sealIncludable()
		case <-newTxs:
			if period > 0 && !onDemand {
				continue
			}
		drain:
			for {
				select {
				case <-newTxs:
				default:
					break drain
				}
			}
			sealIncludable()
		}
	}
}

// includable reports whether the pool holds a transaction the next block
// would take.
func (c *Chain) includable() bool {
	// The pool answers only the latest of concurrent Sync calls; every
	// caller (sealing included) therefore holds the mining lock.
	c.mine.Lock()
	defer c.mine.Unlock()
	if err := c.eth.TxPool().Sync(); err != nil {
		return false
	}
	head := c.eth.BlockChain().CurrentBlock()
	baseFee := head.BaseFee
	if cfg := c.eth.BlockChain().Config(); cfg.IsLondon(head.Number) {
		baseFee = eip1559.CalcBaseFee(cfg, head)
	}
	filter := txpool.PendingFilter{MinTip: uint256.MustFromBig(c.minTip)}
	if baseFee != nil {
		filter.BaseFee = uint256.MustFromBig(baseFee)
	}
	pending, _ := c.eth.TxPool().Pending(filter)
	return len(pending) > 0
}

// syncPool waits until the pool has reset to the current head.
func (c *Chain) syncPool() error {
	c.mine.Lock()
	defer c.mine.Unlock()
	return c.eth.TxPool().Sync()
}

// Commit seals a block now with whatever the pool holds and returns its
// hash, once the pool has reset to it (a transaction sent next is judged
// against the new block's state).
func (c *Chain) Commit() common.Hash {
	c.mine.Lock()
	for c.wall && !c.sealableNow() {
		// Another block may be sealed while this one waits: check again.
		c.mine.Unlock()
		time.Sleep(c.untilNextSecond())
		c.mine.Lock()
	}
	defer c.mine.Unlock()
	h := c.beacon.Commit()
	_ = c.eth.TxPool().Sync() // fails only once the pool has stopped
	return h
}

// sealableNow reports whether a block sealed now gets the clock's second:
// the clock has passed the head's second. A head more than a second ahead
// (a chain kept from before) is not waited for.
func (c *Chain) sealableNow() bool {
	head, now := c.eth.BlockChain().CurrentBlock().Time, uint64(time.Now().Unix())
	return now > head || head > now+1
}

// untilNextSecond is the time left until the clock's next whole second.
func (c *Chain) untilNextSecond() time.Duration {
	now := time.Now()
	return now.Truncate(time.Second).Add(time.Second).Sub(now)
}

// Fork rewinds the canonical head to the block parent. Blocks committed
// afterwards build a new branch; once it is longer than the old one the old
// blocks are no longer canonical. The pool must be empty.
func (c *Chain) Fork(parent common.Hash) error {
	c.mine.Lock()
	defer c.mine.Unlock()
	if err := c.beacon.Fork(parent); err != nil {
		return err
	}
	// The pool resets to the new head in the background; until it has,
	// it still counts the abandoned branch's nonces. Wait for it so a
	// transaction sent right after Fork is judged against the new head.
	return c.eth.TxPool().Sync()
}

// AdjustTime seals an empty block whose timestamp is d after its parent's.
func (c *Chain) AdjustTime(d time.Duration) error {
	c.mine.Lock()
	defer c.mine.Unlock()
	return c.beacon.AdjustTime(d)
}

// Close stops block production and the node. A chain with a data directory
// can be started again from it.
func (c *Chain) Close() error {
	var err error
	c.closed.Do(func() {
		close(c.stop)
		<-c.done
		c.Client.Close()
		c.mine.Lock()
		err = errors.Join(c.beacon.Stop(), c.node.Close())
		c.mine.Unlock()
	})
	return err
}

// FaucetAddress is the address of the prefunded faucet account.
func (c *Chain) FaucetAddress() common.Address { return crypto.PubkeyToAddress(c.Faucet.PublicKey) }

// Fund sends wei from the faucet to addr and waits until it is mined.
func (c *Chain) Fund(ctx context.Context, addr common.Address, wei *big.Int) error {
	_, err := c.Transact(ctx, c.Faucet, &addr, wei, nil, 21_000)
	return err
}

// Transact signs a dynamic-fee transaction from key, sends it and waits for
// its receipt. to nil deploys data as contract code. gas 0 estimates.
func (c *Chain) Transact(ctx context.Context, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Receipt, error) {
	// The pending nonce read by SignTx is right only once the previous
	// transaction from the same key is in the pool.
	c.send.Lock()
	tx, err := c.SignTx(ctx, key, to, value, data, gas)
	if err == nil {
		if err = c.Client.SendTransaction(ctx, tx); err != nil {
			err = fmt.Errorf("devchain: send: %w", err)
		}
	}
	c.send.Unlock()
	if err != nil {
		return nil, err
	}
	r, err := WaitMined(ctx, c.Client, tx.Hash())
	if err != nil {
		return nil, err
	}
	// The pool judges new transactions against the state it last reset to,
	// and it resets in the background a moment after the block becomes the
	// head: without this, a transaction spending what this one delivered
	// could be refused for "insufficient funds".
	if err := c.syncPool(); err != nil {
		return nil, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, fmt.Errorf("devchain: transaction %s reverted", tx.Hash())
	}
	return r, nil
}

// SignTx builds and signs a dynamic-fee transaction from key with the next
// pending nonce and fees well above the current base fee.
func (c *Chain) SignTx(ctx context.Context, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Transaction, error) {
	nonce, err := c.Client.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		return nil, fmt.Errorf("devchain: nonce: %w", err)
	}
	return c.SignTxAt(ctx, key, nonce, to, value, data, gas)
}

// SignTxAt is SignTx with the nonce given, for a sender that sends several
// transactions before the first is mined.
func (c *Chain) SignTxAt(ctx context.Context, key *ecdsa.PrivateKey, nonce uint64, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Transaction, error) {
	from := crypto.PubkeyToAddress(key.PublicKey)
	head, err := c.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("devchain: head: %w", err)
	}
	tip := big.NewInt(params.GWei)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	if value == nil {
		value = new(big.Int)
	}
	if gas == 0 {
		msg := ethereum.CallMsg{From: from, To: to, Value: value, Data: data}
		if gas, err = c.Client.EstimateGas(ctx, msg); err != nil {
			return nil, fmt.Errorf("devchain: estimate gas: %w", err)
		}
		gas += gas / 4
	}
	tx := types.NewTx(&types.DynamicFeeTx{
		ChainID:   c.ChainID,
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: feeCap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
	return types.SignTx(tx, c.Signer, key)
}

// Deploy deploys contract creation code (bytecode followed by the encoded
// constructor arguments) from key and returns the contract's address.
func (c *Chain) Deploy(ctx context.Context, key *ecdsa.PrivateKey, code []byte) (common.Address, error) {
	r, err := c.Transact(ctx, key, nil, nil, code, 0)
	if err != nil {
		return common.Address{}, err
	}
	return r.ContractAddress, nil
}
