package tron_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/tron"
)

func TestBalanceAndAllowance(t *testing.T) {
	c := newChain(t, "", nil)
	c.setup(1_000 * 1_000_000)
	spender := c.recipient()
	c.exec(tron.KeyAddress(c.sender), usdt.PackApprove(spender.EVM(), big.NewInt(250_000_000)))

	cl := c.client(nil)
	sender := tron.KeyAddress(c.sender).String()
	bal, err := cl.TokenBalance(ctx, c.token.String(), sender)
	if err != nil {
		t.Fatal(err)
	}
	if bal.Cmp(big.NewInt(1_000_000_000)) != 0 {
		t.Errorf("balance %s, want 1000000000", bal)
	}
	allow, err := cl.Allowance(ctx, c.token.String(), sender, spender.String())
	if err != nil {
		t.Fatal(err)
	}
	if allow.Cmp(big.NewInt(250_000_000)) != 0 {
		t.Errorf("allowance %s, want 250000000", allow)
	}
	zero, err := cl.TokenBalance(ctx, c.token.String(), spender.String())
	if err != nil || zero.Sign() != 0 {
		t.Errorf("spender balance %v, %v; want 0", zero, err)
	}
	if _, err := cl.TokenBalance(ctx, tron.KeyAddress(c.sender).String(), sender); err == nil {
		t.Error("balanceOf on an account without code succeeded")
	}
}

func TestSignedTransferReceiptAndLogs(t *testing.T) {
	c := newChain(t, "", nil)
	c.setup(500_000_000)
	cl := c.client(nil)
	to := c.recipient()
	before := c.node.Balance(cl.From())
	startBlock := c.produce()

	txID, err := cl.SendCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(to.EVM(), big.NewInt(123_450_000))})
	if err != nil {
		t.Fatal(err)
	}
	if len(txID) != 64 || strings.ToLower(txID) != txID {
		t.Fatalf("tx hash %q is not bare lowercase hex", txID)
	}
	if r, err := cl.Receipt(ctx, txID); err != nil || r != nil {
		t.Fatalf("receipt before inclusion = %+v, %v; want nil, nil", r, err)
	}
	block := c.produce()

	r, err := cl.Receipt(ctx, txID)
	if err != nil {
		t.Fatal(err)
	}
	// TestTronUSDT's transfer returns false like TRON's USDT; the
	// transaction still succeeds.
	if r == nil || !r.Success || r.BlockNumber != block || r.TxHash != txID {
		t.Fatalf("receipt %+v", r)
	}
	if r.GasUsed == 0 || r.Fee.Sign() <= 0 {
		t.Errorf("receipt energy %d fee %s: want both positive", r.GasUsed, r.Fee)
	}
	if spent := before - c.node.Balance(cl.From()); big.NewInt(spent).Cmp(r.Fee) != 0 {
		t.Errorf("sender paid %d sun, receipt fee %s", spent, r.Fee)
	}
	ref, err := cl.BlockByNumber(ctx, block)
	if err != nil || r.BlockHash != ref.Hash {
		t.Fatalf("receipt block hash %s, block %+v, %v", r.BlockHash, ref, err)
	}
	if len(r.Logs) != 1 || r.Logs[0].Address != c.token.String() || r.Logs[0].Topics[0] != [32]byte(crypto.Keccak256([]byte("Transfer(address,address,uint256)"))) {
		t.Fatalf("receipt logs %+v", r.Logs)
	}

	head, err := cl.Head(ctx)
	if err != nil || head.Number != block || head.Hash != ref.Hash {
		t.Fatalf("head %+v, %v", head, err)
	}
	transfers, err := cl.TransferLogs(ctx, c.token.String(), []string{to.String()}, startBlock, head.Number)
	if err != nil {
		t.Fatal(err)
	}
	want := cashier.Transfer{
		Chain: cashier.ChainTRON, Token: c.token.String(),
		From: tron.KeyAddress(c.sender).String(), To: to.String(), Amount: big.NewInt(123_450_000),
		TxHash: txID, LogIndex: 0, BlockNumber: block, BlockHash: ref.Hash, BlockTime: ref.Time,
	}
	if len(transfers) != 1 || !sameTransfer(transfers[0], want) {
		t.Fatalf("TransferLogs = %+v\nwant %+v", transfers, want)
	}
	if !strings.HasPrefix(transfers[0].From, "T") || !strings.HasPrefix(transfers[0].To, "T") {
		t.Errorf("addresses not base58: %s → %s", transfers[0].From, transfers[0].To)
	}
	// The mint to the sender happened earlier and is not to a watched address.
	other, err := cl.TransferLogs(ctx, c.token.String(), []string{c.owner.String()}, 0, head.Number)
	if err != nil || len(other) != 0 {
		t.Errorf("unwatched TransferLogs = %+v, %v", other, err)
	}
	mints, err := cl.TransferLogs(ctx, c.token.String(), []string{tron.KeyAddress(c.sender).String()}, 0, head.Number)
	if err != nil || len(mints) != 1 || mints[0].From != (tron.Address{}).String() {
		t.Errorf("mint TransferLogs = %+v, %v", mints, err)
	}

	bal, err := cl.TokenBalance(ctx, c.token.String(), to.String())
	if err != nil || bal.Cmp(big.NewInt(123_450_000)) != 0 {
		t.Errorf("recipient balance %v, %v", bal, err)
	}
}

func sameTransfer(a, b cashier.Transfer) bool {
	return a.Chain == b.Chain && a.Token == b.Token && a.From == b.From && a.To == b.To &&
		a.Amount.Cmp(b.Amount) == 0 && a.TxHash == b.TxHash && a.LogIndex == b.LogIndex &&
		a.BlockNumber == b.BlockNumber && a.BlockHash == b.BlockHash && a.BlockTime.Equal(b.BlockTime)
}

// tamper rewrites the node's answer to triggersmartcontract and counts
// broadcasts.
func tamper(edit func(tx map[string]any), broadcasts *atomic.Int32) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/wallet/broadcasttransaction":
				broadcasts.Add(1)
			case "/wallet/triggersmartcontract":
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				var ext map[string]any
				if err := json.Unmarshal(rec.Body.Bytes(), &ext); err != nil {
					panic(err)
				}
				edit(ext["transaction"].(map[string]any))
				_ = json.NewEncoder(w).Encode(ext)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func TestNodeSuppliedTxIDMismatchRefused(t *testing.T) {
	var broadcasts atomic.Int32
	c := newChain(t, "", tamper(func(tx map[string]any) {
		id := tx["txID"].(string)
		tx["txID"] = "00" + id[2:]
	}, &broadcasts))
	c.setup(100_000_000)
	_, err := c.client(nil).SendCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(c.owner.EVM(), big.NewInt(1))})
	if !errors.Is(err, tron.ErrTxIDMismatch) {
		t.Fatalf("SendCall error %v, want ErrTxIDMismatch", err)
	}
	if broadcasts.Load() != 0 {
		t.Error("a transaction with a mismatching id was broadcast")
	}
}

// A node that builds something else and hashes it honestly is caught by
// decoding raw_data_hex, or by comparing it with the raw_data JSON the node
// would re-encode on broadcast.
func TestNodeSuppliedOtherTransactionRefused(t *testing.T) {
	thief := tron.KeyAddress(mustKey(t, "7777777777777777777777777777777777777777777777777777777777777777"))
	rehash := func(edit func(r *tron.RawData)) func(tx map[string]any) {
		return func(tx map[string]any) {
			raw, _ := hex.DecodeString(tx["raw_data_hex"].(string))
			r, err := tron.UnmarshalRawData(raw)
			if err != nil {
				panic(err)
			}
			edit(r)
			id := r.TxID()
			tx["raw_data_hex"] = hex.EncodeToString(r.Marshal())
			tx["txID"] = hex.EncodeToString(id[:])
		}
	}
	editCall := func(edit func(c *tron.TriggerCall)) func(r *tron.RawData) {
		return func(r *tron.RawData) {
			c, _ := tron.UnmarshalTriggerCall(r.Contract.Value)
			edit(c)
			r.Contract.Value = c.Marshal()
		}
	}
	for name, edit := range map[string]func(tx map[string]any){
		"other recipient": rehash(editCall(func(c *tron.TriggerCall) { c.Data = usdt.PackTransfer(thief.EVM(), big.NewInt(1)) })),
		"other contract":  rehash(editCall(func(c *tron.TriggerCall) { c.Contract = thief })),
		"call value":      rehash(editCall(func(c *tron.TriggerCall) { c.CallValue = 1 })),
		"fee limit":       rehash(func(r *tron.RawData) { r.FeeLimit = tron.MaxFeeLimit }),
		"far expiration":  rehash(func(r *tron.RawData) { r.Expiration += 48 * 3600 * 1000 }),
		"memo":            rehash(func(r *tron.RawData) { r.Data = []byte("x") }),
		"permission":      rehash(func(r *tron.RawData) { r.Contract.PermissionID = 2 }),
		"json differs": func(tx map[string]any) {
			tx["raw_data"].(map[string]any)["fee_limit"] = 1
		},
	} {
		t.Run(name, func(t *testing.T) {
			var broadcasts atomic.Int32
			c := newChain(t, "", tamper(edit, &broadcasts))
			c.setup(100_000_000)
			_, err := c.client(nil).SendCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(c.owner.EVM(), big.NewInt(1))})
			if !errors.Is(err, tron.ErrTxMismatch) {
				t.Fatalf("SendCall error %v, want ErrTxMismatch", err)
			}
			if broadcasts.Load() != 0 {
				t.Error("the altered transaction was broadcast")
			}
		})
	}
}

func TestSendCallRefusesUnaffordable(t *testing.T) {
	c := newChain(t, "", nil)
	c.setup(100_000_000)
	transfer := cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(c.owner.EVM(), big.NewInt(1))}

	// 1 TRX buys 10 000 energy at 100 sun; a first transfer to a new
	// holder needs more.
	_, err := c.client(func(cfg *tron.Config) { cfg.FeeLimit = 1 * trx }).SendCall(ctx, transfer)
	if !errors.Is(err, tron.ErrFeeLimit) {
		t.Errorf("low fee limit: %v, want ErrFeeLimit", err)
	}

	poor := mustKey(t, "5555555555555555555555555555555555555555555555555555555555555555")
	if err := c.node.Fund(tron.KeyAddress(poor), 100); err != nil {
		t.Fatal(err)
	}
	c.exec(c.owner, usdt.PackMint(tron.KeyAddress(poor).EVM(), big.NewInt(5)))
	_, err = c.client(func(cfg *tron.Config) { cfg.Key = poor }).SendCall(ctx, transfer)
	if !errors.Is(err, tron.ErrInsufficientTRX) {
		t.Errorf("poor sender: %v, want ErrInsufficientTRX", err)
	}
	unfunded := mustKey(t, "6666666666666666666666666666666666666666666666666666666666666666")
	_, err = c.client(func(cfg *tron.Config) { cfg.Key = unfunded }).SendCall(ctx, transfer)
	if !errors.Is(err, tron.ErrInsufficientTRX) {
		t.Errorf("unactivated sender: %v, want ErrInsufficientTRX", err)
	}

	// A transfer beyond the token balance reverts in the estimate and is
	// never sent.
	_, err = c.client(nil).SendCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(c.owner.EVM(), big.NewInt(100_000_001))})
	if !errors.Is(err, tron.ErrReverted) {
		t.Errorf("overdraft: %v, want ErrReverted", err)
	}
	if _, err := c.client(func(cfg *tron.Config) { cfg.Key = nil }).SendCall(ctx, transfer); !errors.Is(err, tron.ErrNoKey) {
		t.Errorf("read-only client: %v, want ErrNoKey", err)
	}
}

// The client moves past a failing node to the next and sends the API key.
func TestFailoverAndAPIKey(t *testing.T) {
	var keys atomic.Int32
	c := newChain(t, "", func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("TRON-PRO-API-KEY") == "secret" {
				keys.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	})
	c.setup(1)
	var down atomic.Int32
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		down.Add(1)
		http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
	}))
	defer broken.Close()
	cl := c.client(func(cfg *tron.Config) { cfg.URLs = []string{broken.URL, c.srv.URL}; cfg.APIKey = "secret" })
	head, err := cl.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if head.Number == 0 || down.Load() != 1 || keys.Load() != 1 {
		t.Errorf("head %d, broken node hit %d times, key seen %d times", head.Number, down.Load(), keys.Load())
	}
	// A malformed request is not retried: the node answered.
	var calls atomic.Int32
	errSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = io.WriteString(w, `{"Error":"class java.lang.NullPointerException : null"}`)
	}))
	defer errSrv.Close()
	cl2 := c.client(func(cfg *tron.Config) { cfg.URLs = []string{errSrv.URL} })
	if _, err := cl2.Head(ctx); err == nil || calls.Load() != 1 {
		t.Errorf("node error: %v after %d calls, want an error after 1", err, calls.Load())
	}
}

func TestRestartKeepsState(t *testing.T) {
	dir := t.TempDir()
	c := newChain(t, dir, nil)
	c.setup(300_000_000)
	cl := c.client(nil)
	to := c.recipient()
	txID, err := cl.SendCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(to.EVM(), big.NewInt(42_000_000))})
	if err != nil {
		t.Fatal(err)
	}
	c.produce()
	head1, _ := cl.Head(ctx)
	r1, err := cl.Receipt(ctx, txID)
	if err != nil || r1 == nil {
		t.Fatalf("receipt %v, %v", r1, err)
	}
	trx1 := c.node.Balance(cl.From())
	c.close()

	c.open(dir, nil)
	cl = c.client(nil)
	head2, err := cl.Head(ctx)
	if err != nil || head2 != head1 {
		t.Fatalf("head after restart %+v, %v; before %+v", head2, err, head1)
	}
	r2, err := cl.Receipt(ctx, txID)
	if err != nil || r2 == nil || r2.BlockHash != r1.BlockHash || r2.Fee.Cmp(r1.Fee) != 0 || len(r2.Logs) != 1 {
		t.Fatalf("receipt after restart %+v, %v; before %+v", r2, err, r1)
	}
	bal, err := cl.TokenBalance(ctx, c.token.String(), to.String())
	if err != nil || bal.Cmp(big.NewInt(42_000_000)) != 0 {
		t.Errorf("token balance after restart %v, %v", bal, err)
	}
	if got := c.node.Balance(cl.From()); got != trx1 {
		t.Errorf("TRX after restart %d, before %d", got, trx1)
	}
	// The chain goes on from where it was.
	if _, err := cl.SendCall(ctx, cashier.Call{To: c.token.String(), Data: usdt.PackTransfer(to.EVM(), big.NewInt(1))}); err != nil {
		t.Fatal(err)
	}
	if n := c.produce(); n != head1.Number+1 {
		t.Errorf("next block %d, want %d", n, head1.Number+1)
	}
	bal, _ = cl.TokenBalance(ctx, c.token.String(), to.String())
	if bal.Cmp(big.NewInt(42_000_001)) != 0 {
		t.Errorf("balance after second transfer %s", bal)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []tron.Config{
		{},
		{URLs: []string{"ftp://node"}},
		{URLs: []string{"http://node"}, FeeLimit: tron.MaxFeeLimit + 1},
		{URLs: []string{"http://node"}, FeeLimit: -1},
	} {
		if _, err := tron.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
