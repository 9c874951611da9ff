package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	cashier "github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
)

// env is a dev chain with a 6-decimal test USDC whose owner is the faucet.
type env struct {
	t     *testing.T
	chain *devchain.Chain
	usdc  common.Address
	abi   *bindings.TestUSDC
}

func newEnv(t *testing.T, opts devchain.Options) *env {
	t.Helper()
	ch, err := devchain.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ch.Close() })
	usdc := bindings.NewTestUSDC()
	code := append(common.FromHex(bindings.TestUSDCMetaData.Bin), usdc.PackConstructor("USD Coin", "USDC")...)
	addr, err := ch.Deploy(ctx(t), ch.Faucet, code)
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, chain: ch, usdc: addr, abi: usdc}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// account returns a fresh key funded with one ether and amount test USDC.
func (e *env) account(usdcUnits int64) *ecdsa.PrivateKey {
	e.t.Helper()
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	if err := e.chain.Fund(ctx(e.t), addr, big.NewInt(params.Ether)); err != nil {
		e.t.Fatal(err)
	}
	if usdcUnits > 0 {
		if _, err := e.chain.Transact(ctx(e.t), e.chain.Faucet, &e.usdc, nil, e.abi.PackMint(addr, big.NewInt(usdcUnits)), 0); err != nil {
			e.t.Fatal(err)
		}
	}
	return key
}

// client returns an evm client sending from key with its journal in dir.
func (e *env) client(key *ecdsa.PrivateKey, dir string, tune func(*Config)) *Client {
	e.t.Helper()
	cfg := Config{
		Chain:       cashier.ChainETH,
		ChainID:     e.chain.ChainID.Uint64(),
		URLs:        []string{e.chain.URL},
		BackoffBase: time.Millisecond,
		BackoffMax:  10 * time.Millisecond,
	}
	if key != nil {
		j, err := OpenFileJournal(dir, cfg.ChainID, crypto.PubkeyToAddress(key.PublicKey).Hex())
		if err != nil {
			e.t.Fatal(err)
		}
		e.t.Cleanup(func() { j.Close() })
		cfg.Key, cfg.Journal = key, j
	}
	if tune != nil {
		tune(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(c.Close)
	return c
}

func addrOf(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

func TestERC20TransferLogsBalanceAllowance(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(5_000_000) // 5 USDC
	c := e.client(payer, t.TempDir(), nil)
	watched := common.HexToAddress("0x1111111111111111111111111111111111111111")
	other := common.HexToAddress("0x2222222222222222222222222222222222222222")

	before, err := c.Head(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var sends []string
	for _, tr := range []struct {
		to     common.Address
		amount int64
	}{{watched, 1_250_000}, {other, 1}, {watched, 2_000_000}} {
		h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(tr.to, big.NewInt(tr.amount))})
		if err != nil {
			t.Fatal(err)
		}
		sends = append(sends, h)
	}
	for _, s := range sends {
		st, err := c.Wait(ctx(t), s, 5*time.Millisecond)
		if err != nil || st.State != SendConfirmed || !st.Receipt.Success {
			t.Fatalf("send %s: %+v, %v", s, st, err)
		}
	}
	head, err := c.Head(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	// Lowercase input is accepted and the result is checksummed.
	logs, err := c.TransferLogs(ctx(t), e.usdc.Hex(), []string{lower(watched.Hex())}, before.Number+1, head.Number)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 2 {
		t.Fatalf("got %d transfers to the watched address, want 2: %+v", len(logs), logs)
	}
	for i, want := range []int64{1_250_000, 2_000_000} {
		l := logs[i]
		if l.Amount.Int64() != want || l.To != watched.Hex() || l.From != addrOf(payer).Hex() || l.Token != e.usdc.Hex() || l.Chain != cashier.ChainETH {
			t.Errorf("transfer %d = %+v", i, l)
		}
		if l.TxHash != sends[2*i] || l.BlockHash == "" || l.BlockTime.IsZero() {
			t.Errorf("transfer %d identity = %s/%d in %s at %v; want tx %s", i, l.TxHash, l.LogIndex, l.BlockHash, l.BlockTime, sends[2*i])
		}
	}
	if logs[0].BlockNumber >= logs[1].BlockNumber {
		t.Errorf("transfers out of chain order: %d then %d", logs[0].BlockNumber, logs[1].BlockNumber)
	}
	// Chunking: one block per query gives the same answer.
	small := e.client(nil, "", func(c *Config) { c.LogChunk = 1; c.LogAddressChunk = 1 })
	again, err := small.TransferLogs(ctx(t), e.usdc.Hex(), []string{other.Hex(), watched.Hex()}, before.Number+1, head.Number)
	if err != nil || len(again) != 3 || again[1].To != other.Hex() {
		t.Fatalf("chunked logs = %+v, %v", again, err)
	}

	bal, err := c.TokenBalance(ctx(t), e.usdc.Hex(), watched.Hex())
	if err != nil || bal.Int64() != 3_250_000 {
		t.Fatalf("balance = %v, %v; want 3250000", bal, err)
	}
	bal, err = c.TokenBalance(ctx(t), e.usdc.Hex(), addrOf(payer).Hex())
	if err != nil || bal.Int64() != 5_000_000-3_250_001 {
		t.Fatalf("payer balance = %v, %v", bal, err)
	}

	spender := common.HexToAddress("0x3333333333333333333333333333333333333333")
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackApprove(spender, big.NewInt(777_000))})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := c.Wait(ctx(t), h, 5*time.Millisecond); err != nil || st.State != SendConfirmed {
		t.Fatalf("approve: %+v, %v", st, err)
	}
	allow, err := c.Allowance(ctx(t), e.usdc.Hex(), addrOf(payer).Hex(), spender.Hex())
	if err != nil || allow.Int64() != 777_000 {
		t.Fatalf("allowance = %v, %v; want 777000", allow, err)
	}
	if _, err := c.TokenBalance(ctx(t), watched.Hex(), watched.Hex()); err == nil {
		t.Fatal("balance of a token without code succeeded")
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func TestReceiptAndFee(t *testing.T) {
	e := newEnv(t, devchain.Options{ChainID: devchain.ChainIDARB})
	payer := e.account(10)
	c := e.client(payer, t.TempDir(), func(c *Config) { c.Chain = cashier.ChainARB })
	to := common.HexToAddress("0x4444444444444444444444444444444444444444")
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(10))})
	if err != nil {
		t.Fatal(err)
	}
	r, err := devchain.WaitMined(ctx(t), e.chain.Client, common.HexToHash(h))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Receipt(ctx(t), h)
	if err != nil || got == nil {
		t.Fatalf("receipt = %v, %v", got, err)
	}
	wantFee := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
	if got.TxHash != h || !got.Success || got.BlockNumber != r.BlockNumber.Uint64() || got.Fee.Cmp(wantFee) != 0 || len(got.Logs) != 1 || got.Logs[0].Topics[0] != TransferTopic {
		t.Fatalf("receipt = %+v", got)
	}
	// A hash nobody sent has no receipt yet: (nil, nil).
	none, err := c.Receipt(ctx(t), common.HexToHash("0x01").Hex())
	if none != nil || err != nil {
		t.Fatalf("unknown receipt = %v, %v", none, err)
	}
	// A call that reverts is refused at estimation and spends no nonce.
	if _, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1))}); err == nil {
		t.Fatal("transfer beyond balance was sent")
	}
	if n, _ := e.chain.Client.PendingNonceAt(ctx(t), addrOf(payer)); n != 1 {
		t.Fatalf("nonce after refused call = %d, want 1", n)
	}
}

// TestNonceJournalSurvivesRestart simulates a crash between journaling and
// broadcasting: the journal holds a signed transaction no node has seen.
func TestNonceJournalSurvivesRestart(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(100)
	dir := t.TempDir()
	to := common.HexToAddress("0x5555555555555555555555555555555555555555")
	transfer := cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1)), GasLimit: 100_000}

	first := e.client(payer, dir, nil)
	h0, err := first.SendCall(ctx(t), transfer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitMined(ctx(t), e.chain.Client, common.HexToHash(h0)); err != nil {
		t.Fatal(err)
	}
	// Journal a second transaction (nonce 1) without broadcasting it.
	lost := signed(t, first, payer, 1, transfer)
	if err := first.cfg.Journal.Append(lost); err != nil {
		t.Fatal(err)
	}
	first.Close()
	first.cfg.Journal.(*FileJournal).Close()
	if n, _ := e.chain.Client.PendingNonceAt(ctx(t), addrOf(payer)); n != 1 {
		t.Fatalf("chain pending nonce = %d, want 1 (the lost one is not broadcast)", n)
	}

	second := e.client(payer, dir, nil)
	if err := second.Recover(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if second.nextNonce != 2 {
		t.Fatalf("next nonce after restart = %d, want 2", second.nextNonce)
	}
	// The journaled transaction was re-broadcast and mines under its hash.
	r, err := devchain.WaitMined(ctx(t), e.chain.Client, common.HexToHash(lost.Hash))
	if err != nil || r.Status != 1 {
		t.Fatalf("re-broadcast transaction: %v, %v", r, err)
	}
	// Re-broadcasting again is idempotent: same hash, nothing new.
	if err := second.Recover(ctx(t)); err != nil {
		t.Fatalf("second re-broadcast: %v", err)
	}
	h2, err := second.SendCall(ctx(t), transfer)
	if err != nil {
		t.Fatal(err)
	}
	st, err := second.Wait(ctx(t), h2, 5*time.Millisecond)
	if err != nil || st.State != SendConfirmed || st.Nonce != 2 {
		t.Fatalf("send after restart: %+v, %v", st, err)
	}
	if st, err := second.Check(ctx(t), lost.Hash); err != nil || st.State != SendConfirmed {
		t.Fatalf("recovered send: %+v, %v", st, err)
	}
	bal, _ := second.TokenBalance(ctx(t), e.usdc.Hex(), to.Hex())
	if bal.Int64() != 3 {
		t.Fatalf("recipient got %v, want 3 (one per nonce, none twice)", bal)
	}
	// Checking every send settles the first one too: a third start has
	// nothing to re-broadcast.
	all, err := second.CheckAll(ctx(t))
	if err != nil || len(all) != 1 || all[0].Send != h0 || all[0].State != SendConfirmed {
		t.Fatalf("check all = %+v, %v; want the first send confirmed", all, err)
	}
	unsettled, _ := second.cfg.Journal.Unsettled()
	if len(unsettled) != 0 {
		t.Fatalf("unsettled after confirmation: %+v", unsettled)
	}
}

// signed builds a journal entry for a transaction the client would send.
func signed(t *testing.T, c *Client, key *ecdsa.PrivateKey, nonce uint64, call cashier.Call) JournalEntry {
	t.Helper()
	f, err := c.suggestFees(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress(call.To)
	tx, err := types.SignNewTx(key, c.signer, &types.DynamicFeeTx{ChainID: c.chainID, Nonce: nonce, GasTipCap: f.tip, GasFeeCap: f.cap, Gas: call.GasLimit, To: &to, Data: call.Data})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return JournalEntry{Send: tx.Hash().Hex(), Nonce: nonce, Hash: tx.Hash().Hex(), Raw: raw, TipCap: f.tip, FeeCap: f.cap, Time: c.cfg.Clock.Now()}
}

func TestStuckTransactionIsReplaced(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(100)
	clock := cashier.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	dir := t.TempDir()
	c := e.client(payer, dir, func(c *Config) {
		c.Clock = clock
		c.ReplaceAfter = time.Minute
		c.Confirmations = 2
	})
	head, err := e.chain.Client.HeaderByNumber(ctx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A fee cap a quarter of the base fee: valid, pooled, never mined
	// while the base fee stays above it.
	low := &fees{tip: big.NewInt(2_000_000), cap: new(big.Int).Div(head.BaseFee, big.NewInt(4))}
	to := common.HexToAddress("0x6666666666666666666666666666666666666666")
	send, err := c.send(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(7))}, low)
	if err != nil {
		t.Fatal(err)
	}
	e.chain.Commit()
	st, err := c.Check(ctx(t), send)
	if err != nil || st.State != SendPending || st.Replaced {
		t.Fatalf("before ReplaceAfter: %+v, %v", st, err)
	}
	if r, _ := c.Receipt(ctx(t), send); r != nil {
		t.Fatalf("underpriced transaction was mined: %+v", r)
	}

	clock.Advance(time.Minute)
	st, err = c.Check(ctx(t), send)
	if err != nil || !st.Replaced || len(st.Transactions) != 2 {
		t.Fatalf("after ReplaceAfter: %+v, %v", st, err)
	}
	replacement := st.Transactions[1]
	if _, err := devchain.WaitMined(ctx(t), e.chain.Client, common.HexToHash(replacement)); err != nil {
		t.Fatal(err)
	}
	// One block deep is not two confirmations.
	st, err = c.Check(ctx(t), send)
	if err != nil || st.State != SendMined || st.Confirmations != 1 {
		t.Fatalf("mined: %+v, %v", st, err)
	}
	// Receipt by the original hash finds the replacement.
	r, err := c.Receipt(ctx(t), send)
	if err != nil || r == nil || r.TxHash != replacement || !r.Success {
		t.Fatalf("receipt by original hash = %+v, %v; want replacement %s", r, err, replacement)
	}
	e.chain.Commit()
	st, err = c.Wait(ctx(t), send, 5*time.Millisecond)
	if err != nil || st.State != SendConfirmed || st.Receipt.TxHash != replacement {
		t.Fatalf("confirmed: %+v, %v", st, err)
	}
	// The journal holds both transactions, the replacement with fees at
	// least 13% higher, and the send settled.
	entries, settled := journalRecords(t, dir, c.cfg.ChainID, addrOf(payer).Hex())
	if len(entries) != 2 || entries[1].Send != send || entries[1].Nonce != entries[0].Nonce {
		t.Fatalf("journal = %+v", entries)
	}
	if minCap := c.bump(low.cap); entries[1].FeeCap.Cmp(minCap) < 0 || entries[1].TipCap.Cmp(c.bump(low.tip)) < 0 {
		t.Fatalf("replacement fees %v/%v not bumped enough over %v/%v", entries[1].TipCap, entries[1].FeeCap, low.tip, low.cap)
	}
	if settled[send] != replacement {
		t.Fatalf("journal settles %q, want %s", settled[send], replacement)
	}
	bal, _ := c.TokenBalance(ctx(t), e.usdc.Hex(), to.Hex())
	if bal.Int64() != 7 {
		t.Fatalf("recipient has %v, want 7 (paid once)", bal)
	}
}

func TestFailoverFromDeadURL(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	dead := deadURL(t)
	payer := e.account(10)
	c := e.client(payer, t.TempDir(), func(c *Config) { c.URLs = []string{dead, e.chain.URL} })
	head, err := c.Head(ctx(t))
	if err != nil || head.Number == 0 {
		t.Fatalf("head through failover = %+v, %v", head, err)
	}
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(common.HexToAddress("0x7777777777777777777777777777777777777777"), big.NewInt(10))})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := c.Wait(ctx(t), h, 5*time.Millisecond); err != nil || st.State != SendConfirmed {
		t.Fatalf("send through failover: %+v, %v", st, err)
	}
	// With only dead URLs the call fails after its attempts, promptly.
	only := e.client(nil, "", func(c *Config) { c.URLs = []string{dead}; c.Attempts = 3 })
	begin := time.Now()
	if _, err := only.Head(ctx(t)); err == nil {
		t.Fatal("head from a dead node succeeded")
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Fatalf("failing over took %v", d)
	}
}

// deadURL is an HTTP URL on which nothing listens.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func TestNonCanonical(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	c := e.client(nil, "", nil)
	parent := e.chain.Commit()
	e.chain.Commit()
	head, err := c.Head(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	good, err := c.BlockByNumber(ctx(t), head.Number-1)
	if err != nil {
		t.Fatal(err)
	}
	wrong := cashier.BlockRef{Number: good.Number, Hash: common.HexToHash("0xbad").Hex()}
	future := cashier.BlockRef{Number: head.Number + 5, Hash: head.Hash}
	gone, err := NonCanonical(ctx(t), c, []cashier.BlockRef{good, head, wrong, future})
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 2 || gone[0] != wrong || gone[1] != future {
		t.Fatalf("non-canonical = %+v; want the wrong hash and the future block", gone)
	}
	// A real reorg: fork below the head and outgrow it.
	if err := e.chain.Fork(parent); err != nil {
		t.Fatal(err)
	}
	if err := e.chain.AdjustTime(7 * time.Second); err != nil {
		t.Fatal(err)
	}
	e.chain.Commit()
	gone, err = NonCanonical(ctx(t), c, []cashier.BlockRef{good, head})
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 1 || gone[0] != head {
		t.Fatalf("after reorg non-canonical = %+v; want the old head %+v", gone, head)
	}
}

// TestSendDroppedWhenNonceTakenElsewhere: another transaction of the same
// account (a second process, say) takes the nonce of a stuck send.
func TestSendDroppedWhenNonceTakenElsewhere(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(100)
	clock := cashier.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := e.client(payer, t.TempDir(), func(c *Config) { c.Clock = clock; c.ReplaceAfter = time.Minute })
	head, err := e.chain.Client.HeaderByNumber(ctx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	low := &fees{tip: big.NewInt(2_000_000), cap: new(big.Int).Div(head.BaseFee, big.NewInt(4))}
	to := common.HexToAddress("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	send, err := c.send(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1))}, low)
	if err != nil {
		t.Fatal(err)
	}
	other, err := types.SignNewTx(payer, c.signer, &types.DynamicFeeTx{ChainID: c.chainID, Nonce: 0,
		GasTipCap: big.NewInt(params.GWei), GasFeeCap: new(big.Int).Mul(head.BaseFee, big.NewInt(3)), Gas: 21_000, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.chain.Client.SendTransaction(ctx(t), other); err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitMined(ctx(t), e.chain.Client, other.Hash()); err != nil {
		t.Fatal(err)
	}
	st, err := c.Check(ctx(t), send)
	if err != nil || st.State != SendPending {
		t.Fatalf("first sight of the taken nonce: %+v, %v; want still pending", st, err)
	}
	clock.Advance(time.Minute)
	st, err = c.Check(ctx(t), send)
	if err != nil || st.State != SendDropped || st.Replaced {
		t.Fatalf("after ReplaceAfter: %+v, %v; want dropped", st, err)
	}
	if un, _ := c.cfg.Journal.Unsettled(); len(un) != 0 {
		t.Fatalf("dropped send still unsettled: %+v", un)
	}
	// The next send takes the next free nonce.
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1))})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := c.Wait(ctx(t), h, 5*time.Millisecond); err != nil || st.State != SendConfirmed || st.Nonce != 1 {
		t.Fatalf("next send: %+v, %v", st, err)
	}
}

// TestSendRefusedWhenAnotherProcessTookTheNonce: two clients sign with one
// key (two processes, say). A send whose nonce the other took fails with
// ErrNonceUsed, sends nothing, and the same call goes through next time.
func TestSendRefusedWhenAnotherProcessTookTheNonce(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(100)
	a := e.client(payer, t.TempDir(), nil)
	b := e.client(payer, t.TempDir(), nil)
	to := common.HexToAddress("0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
	call := cashier.Call{To: e.usdc.Hex(), Data: e.abi.PackTransfer(to, big.NewInt(1))}
	first, err := b.SendCall(ctx(t), call) // b learns nonce 0, then expects 1
	if err != nil {
		t.Fatal(err)
	}
	if st, err := b.Wait(ctx(t), first, 5*time.Millisecond); err != nil || st.State != SendConfirmed {
		t.Fatalf("b's first send: %+v, %v", st, err)
	}
	taken, err := a.SendCall(ctx(t), call) // a reads the chain: nonce 1
	if err != nil {
		t.Fatal(err)
	}
	if st, err := a.Wait(ctx(t), taken, 5*time.Millisecond); err != nil || st.State != SendConfirmed || st.Nonce != 1 {
		t.Fatalf("a's send: %+v, %v", st, err)
	}
	if _, err := b.SendCall(ctx(t), call); !errors.Is(err, ErrNonceUsed) {
		t.Fatalf("b's send with the taken nonce: %v, want ErrNonceUsed", err)
	}
	if un, _ := b.cfg.Journal.Unsettled(); len(un) != 0 {
		t.Fatalf("the refused send is still journaled: %+v", un)
	}
	again, err := b.SendCall(ctx(t), call)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := b.Wait(ctx(t), again, 5*time.Millisecond); err != nil || st.State != SendConfirmed || st.Nonce != 2 {
		t.Fatalf("b's send again: %+v, %v", st, err)
	}
	if bal, err := b.TokenBalance(ctx(t), e.usdc.Hex(), to.Hex()); err != nil || bal.Cmp(big.NewInt(3)) != 0 {
		t.Fatalf("recipient holds %v, %v; want 3 (one per send that succeeded)", bal, err)
	}
}

// A call whose gas estimate exceeds its MaxGas is not sent (no nonce, no
// coin spent); under the cap the limit set stops at MaxGas, headroom and
// all, so no call can burn more than its cap.
func TestGasCap(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	payer := e.account(10)
	c := e.client(payer, t.TempDir(), nil)
	to := common.HexToAddress("0x4444444444444444444444444444444444444444")
	data := e.abi.PackTransfer(to, big.NewInt(1))
	before, err := e.chain.Client.BalanceAt(ctx(t), addrOf(payer), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: data, MaxGas: 30_000})
	var gc *cashier.GasCapError
	if !errors.As(err, &gc) || gc.Cap != 30_000 || gc.Estimate <= 30_000 {
		t.Fatalf("send over the cap: %v, want a GasCapError", err)
	}
	after, _ := e.chain.Client.BalanceAt(ctx(t), addrOf(payer), nil)
	if n, _ := e.chain.Client.PendingNonceAt(ctx(t), addrOf(payer)); n != 0 || after.Cmp(before) != 0 {
		t.Fatalf("refused send: nonce %d, balance %s → %s", n, before, after)
	}
	// The estimate fits, its headroom would not: the limit is the cap.
	limit := gc.Estimate + 1
	h, err := c.SendCall(ctx(t), cashier.Call{To: e.usdc.Hex(), Data: data, MaxGas: limit})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitMined(ctx(t), e.chain.Client, common.HexToHash(h)); err != nil {
		t.Fatal(err)
	}
	tx, _, err := e.chain.Client.TransactionByHash(ctx(t), common.HexToHash(h))
	if err != nil || tx.Gas() != limit {
		t.Fatalf("gas limit %d (%v), want the cap %d", tx.Gas(), err, limit)
	}
}
