package payoutcontract_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
)

// releasedForkConfig is the simulated chain's default configuration with
// the unreleased Bogota fork switched off, so the chain runs Osaka rules:
// the default config's extra fork prices token transfers far above what
// mainnet charges.
func releasedForkConfig() *params.ChainConfig {
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	cfg.AmsterdamTime = nil
	cfg.UBTTime = nil
	return &cfg
}

var (
	usdcABI    = bindings.NewTestUSDC()
	payoutABI  = bindings.NewCashierPayout()
	factoryABI = bindings.NewDepositFactory()
	fwdABI     = bindings.NewDepositForwarder()
)

// account is a funded key on the simulated chain.
type account struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newAccount(tb testing.TB) account {
	tb.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		tb.Fatal(err)
	}
	return account{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// chain is a simulated chain with the roles of one merchant's payout
// contract and its test tokens.
type chain struct {
	tb      testing.TB
	sim     *simulated.Backend
	client  simulated.Client
	chainID *big.Int

	owner, executor, signer, fee, holder, stranger account

	payout common.Address
	tokens map[string]common.Address // by contract name
}

// tokenKinds are the three token behaviours every payout path must handle.
var tokenKinds = []string{"TestUSDC", "TestUSDT", "TestTronUSDT"}

func newChain(tb testing.TB) *chain {
	tb.Helper()
	c := &chain{tb: tb, tokens: map[string]common.Address{}}
	for _, a := range []*account{&c.owner, &c.executor, &c.signer, &c.fee, &c.holder, &c.stranger} {
		*a = newAccount(tb)
	}
	eth := new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil)
	alloc := types.GenesisAlloc{}
	for _, a := range []account{c.owner, c.executor, c.holder, c.stranger} {
		alloc[a.addr] = types.Account{Balance: eth}
	}
	c.sim = simulated.NewBackend(alloc, func(_ *node.Config, ec *ethconfig.Config) {
		ec.Genesis.Config = releasedForkConfig()
	})
	tb.Cleanup(func() { c.sim.Close() })
	c.client = c.sim.Client()
	id, err := c.client.ChainID(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	c.chainID = id

	c.payout = c.deploy(c.owner, "CashierPayout",
		payoutABI.PackConstructor(c.owner.addr, c.executor.addr, c.signer.addr, c.fee.addr))
	for _, name := range append(tokenKinds, "TestFailingToken") {
		c.tokens[name] = c.deploy(c.owner, name, usdcABI.PackConstructor(name, name))
	}
	return c
}

// as returns a view of c that reports failures to tb, for subtests.
func (c *chain) as(tb testing.TB) *chain {
	cc := *c
	cc.tb = tb
	return &cc
}

// bytecode returns the creation code of a contract from its binding.
func bytecode(tb testing.TB, name string) []byte {
	tb.Helper()
	var meta string
	switch name {
	case "CashierPayout":
		meta = bindings.CashierPayoutMetaData.Bin
	case "DepositFactory":
		meta = bindings.DepositFactoryMetaData.Bin
	case "TestUSDC":
		meta = bindings.TestUSDCMetaData.Bin
	case "TestUSDT":
		meta = bindings.TestUSDTMetaData.Bin
	case "TestTronUSDT":
		meta = bindings.TestTronUSDTMetaData.Bin
	case "TestFailingToken":
		meta = bindings.TestFailingTokenMetaData.Bin
	default:
		tb.Fatalf("no bytecode for %s", name)
	}
	return common.FromHex(meta)
}

func (c *chain) deploy(from account, name string, args []byte) common.Address {
	c.tb.Helper()
	code := append(bytecode(c.tb, name), args...)
	rcpt, err := c.send(from, nil, code)
	if err != nil {
		c.tb.Fatalf("deploy %s: %v", name, err)
	}
	return rcpt.ContractAddress
}

// send signs, mines and returns the receipt of a transaction. An error is
// returned when gas estimation fails, which is how a revert shows (with
// its revert data, see revertName); a mined but failed transaction fails
// the test.
func (c *chain) send(from account, to *common.Address, data []byte) (*types.Receipt, error) {
	c.tb.Helper()
	ctx := context.Background()
	msg := ethereum.CallMsg{From: from.addr, To: to, Data: data}
	gas, err := c.client.EstimateGas(ctx, msg)
	if err != nil {
		return nil, err
	}
	nonce, err := c.client.PendingNonceAt(ctx, from.addr)
	if err != nil {
		c.tb.Fatal(err)
	}
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		c.tb.Fatal(err)
	}
	tip := big.NewInt(params.GWei)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx := types.MustSignNewTx(from.key, types.LatestSignerForChainID(c.chainID), &types.DynamicFeeTx{
		ChainID: c.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: to, Data: data,
	})
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		c.tb.Fatal(err)
	}
	c.sim.Commit()
	rcpt, err := c.client.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		c.tb.Fatal(err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		_, callErr := c.client.CallContract(ctx, ethereum.CallMsg{From: from.addr, To: to, Data: data, Gas: gas}, rcpt.BlockNumber)
		c.tb.Fatalf("transaction %s (gas %d, used %d) failed after a successful estimate; replay: %s", tx.Hash(), gas, rcpt.GasUsed, revertName(callErr))
	}
	return rcpt, nil
}

// mustSend is send for transactions that must succeed.
func (c *chain) mustSend(from account, to common.Address, data []byte) *types.Receipt {
	c.tb.Helper()
	rcpt, err := c.send(from, &to, data)
	if err != nil {
		c.tb.Fatalf("transaction to %s: %v", to, err)
	}
	return rcpt
}

// expectRevert sends data and requires it to revert with the named custom
// error.
func (c *chain) expectRevert(from account, to common.Address, data []byte, want string) {
	c.tb.Helper()
	_, err := c.send(from, &to, data)
	if got := revertName(err); got != want {
		c.tb.Fatalf("want revert %s, got %s (%v)", want, got, err)
	}
}

// revertName decodes the custom error carried by an RPC error.
func revertName(err error) string {
	if err == nil {
		return "no revert"
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		return "no revert data"
	}
	s, _ := de.ErrorData().(string)
	data, decErr := hexutil.Decode(s)
	if decErr != nil {
		return "undecodable revert data " + s
	}
	r, ok := payoutcontract.DecodeRevert(data)
	if !ok {
		return "unknown revert " + s
	}
	return r.Name
}

func (c *chain) call(to common.Address, data []byte) []byte {
	c.tb.Helper()
	out, err := c.client.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		c.tb.Fatalf("call %s: %v", to, err)
	}
	return out
}

func (c *chain) balance(token, owner common.Address) *big.Int {
	c.tb.Helper()
	v, err := usdcABI.UnpackBalanceOf(c.call(token, usdcABI.PackBalanceOf(owner)))
	if err != nil {
		c.tb.Fatal(err)
	}
	return v
}

func (c *chain) mint(token, to common.Address, amount *big.Int) {
	c.tb.Helper()
	c.mustSend(c.owner, token, usdcABI.PackMint(to, amount))
}

func (c *chain) approve(from account, token, spender common.Address, amount *big.Int) {
	c.tb.Helper()
	c.mustSend(from, token, usdcABI.PackApprove(spender, amount))
}

// now is the timestamp of the latest block: the clock the contract checks
// signatures against.
func (c *chain) now() uint64 {
	c.tb.Helper()
	head, err := c.client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		c.tb.Fatal(err)
	}
	return head.Time
}

func (c *chain) domain() payoutcontract.Domain {
	return payoutcontract.Domain{ChainID: c.chainID, Contract: c.payout}
}

var nonceSeq int64

// batch returns a payout batch of n fresh recipients, amounts 1..n tokens
// (6 decimals) and a 1-token fee, signed for now.
func (c *chain) batch(token common.Address, n int) payoutcontract.Batch {
	b := payoutcontract.Batch{
		Token:     token,
		TotalFee:  units(1),
		Nonce:     big.NewInt(nonceSeq),
		Timestamp: c.now(),
	}
	nonceSeq++
	for i := range n {
		b.Recipients = append(b.Recipients, newAccount(c.tb).addr)
		b.Amounts = append(b.Amounts, units(int64(i+1)))
	}
	return b
}

// balanceCall is the call data of p signed by key.
func (c *chain) balanceCall(p payoutcontract.BalancePayout, key *ecdsa.PrivateKey) []byte {
	c.tb.Helper()
	sig, err := payoutcontract.Sign(p.Digest(c.domain()), key)
	if err != nil {
		c.tb.Fatal(err)
	}
	return rawBalanceCall(p, sig)
}

func (c *chain) allowanceCall(p payoutcontract.AllowancePayout, key *ecdsa.PrivateKey) []byte {
	c.tb.Helper()
	sig, err := payoutcontract.Sign(p.Digest(c.domain()), key)
	if err != nil {
		c.tb.Fatal(err)
	}
	return rawAllowanceCall(p, sig)
}

// rawBalanceCall packs without the Go-side validation, so the contract's
// own checks can be reached with malformed batches.
func rawBalanceCall(p payoutcontract.BalancePayout, sig []byte) []byte {
	return payoutABI.PackPayoutWithBalance(p.Token, p.Recipients, p.Amounts, p.TotalFee, sig, p.Nonce,
		new(big.Int).SetUint64(p.Timestamp))
}

func rawAllowanceCall(p payoutcontract.AllowancePayout, sig []byte) []byte {
	return payoutABI.PackPayoutWithAllowance(p.Token, p.From, p.Recipients, p.Amounts, p.TotalFee, sig, p.Nonce,
		new(big.Int).SetUint64(p.Timestamp))
}

// units is n whole tokens in base units (6 decimals).
func units(n int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), big.NewInt(1_000_000))
}

func sum(vs ...*big.Int) *big.Int {
	s := new(big.Int)
	for _, v := range vs {
		s.Add(s, v)
	}
	return s
}

func logsOf(contract common.Address, rcpt *types.Receipt) payoutcontract.Receipt {
	var logs []cashier.Log
	for _, l := range rcpt.Logs {
		logs = append(logs, payoutcontract.LogFromTypes(l))
	}
	r, err := payoutcontract.DecodeLogs(contract.Hex(), logs)
	if err != nil {
		panic(err)
	}
	return r
}

func eqAddr(a, b string) bool { return strings.EqualFold(a, b) }
