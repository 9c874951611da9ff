package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier/clef"
	"github.com/stablecashier/cashier/clef/cleftest"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// Keys outside the service, on the real binaries, as docs/keys.md sets
// them up: the merchant's payout signer and the executor are accounts of a
// real Clef (built from the pinned go-ethereum), the service holds the
// signer's address only. Two contracts are deployed for the merchant and
// only the first is in the rules' list: its payout is signed by Clef
// (typed data and transaction), mined and paid exactly once; the other's
// batch is refused by the rules, never sent, its order waits PROCESSING
// and the service says why, until the operator lists the contract and
// restarts Clef: then it is paid, once.
func TestClefSignsPayoutsOnTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary's dev chains, a Clef and the service")
	}
	clefBin := cleftest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := newDeployRig(t, "Clef Shop")
	info, eth, ec, data, regPath, m := r.info, r.eth, r.ec, r.data, r.regPath, r.m
	merchant := m["merchantId"]
	signerKey, _ := crypto.GenerateKey()
	execKey, _ := crypto.GenerateKey()
	signer, executor := crypto.PubkeyToAddress(signerKey.PublicKey), crypto.PubkeyToAddress(execKey.PublicKey)
	// The operator's Clef: both keys in its keystore, the shipped rules
	// attested, no contract listed yet. The executor's key is never in
	// the service's database.
	cl := cleftest.Start(t, clefBin, []string{hex.EncodeToString(crypto.FromECDSA(signerKey)), hex.EncodeToString(crypto.FromECDSA(execKey))},
		cleftest.Rules(t, eth.ChainID), eth.ChainID)
	clefEnv := []string{"CASHIER_EXECUTOR_CLEF=ETH=" + cl.IPC, "CASHIER_EXECUTOR_CLEF_ACCOUNT=ETH=" + executor.Hex()}
	sweeper := cli(t, "key", "generate", "--data", data, "--chain", "ETH", "--role", "sweeper")["address"]
	if got := cli(t, "key", "import", "--data", data, "--merchant", merchant, "--chain", "ETH", "--role", "signer", "--clef-account", signer.Hex()); !strings.EqualFold(got["address"], signer.Hex()) {
		t.Fatalf("key import --clef-account printed %v", got)
	}
	// A Clef account that is the service's own key is refused, and so is
	// one on TRON (its signer stays a sealed key).
	for _, bad := range []struct{ chain, account, want string }{{"ARB", sweeper, "sweeper"}, {"TRON", signer.Hex(), "sealed key"}} {
		if out, err := exec.Command(binary, "key", "import", "--data", data, "--merchant", merchant, "--chain", bad.chain, "--role", "signer",
			"--clef-account", bad.account).CombinedOutput(); err == nil || !strings.Contains(string(out), bad.want) {
			t.Fatalf("key import --clef-account %s on %s: %v %s", bad.account, bad.chain, err, out)
		}
	}

	send := func(key string, to common.Address, value *big.Int, payload []byte) {
		t.Helper()
		sendAndWait(t, ctx, ec, eth.ChainID, key, to, value, payload)
	}
	send(info.Roles["owner"].PrivateKey, executor, new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether)), nil)
	owner := info.Wallets["customer"].EVMAddress
	// Deployed from another account (Clef's executor signs payout calls
	// only), naming the Clef accounts as executor and signer.
	deployerKey := filepath.Join(t.TempDir(), "deployer.hex")
	if err := os.WriteFile(deployerKey, []byte(info.Roles["owner"].PrivateKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deploy := func() deployOut {
		t.Helper()
		cmd := exec.Command(binary, "contract", "deploy", "--data", data, "--registry", regPath, "--chain", "ETH", "--merchant", merchant,
			"--owner", owner, "--rpc", eth.RPCURL, "--key-file", deployerKey)
		cmd.Env = append(os.Environ(), clefEnv...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("contract deploy: %v\n%s", err, errOut.String())
		}
		var d deployOut
		if err := json.Unmarshal(out.Bytes(), &d); err != nil || !strings.EqualFold(d.Signer, signer.Hex()) || !strings.EqualFold(d.Executor, executor.Hex()) {
			t.Fatalf("contract deploy printed %s (%v): want signer %s, executor %s", out.String(), err, signer, executor)
		}
		return d
	}
	if out, err := exec.Command(binary, "contract", "deploy", "--data", data, "--registry", regPath, "--chain", "ETH", "--merchant", merchant,
		"--owner", owner, "--rpc", eth.RPCURL, "--executor-clef", "ETH="+cl.IPC, "--executor-clef-account", "ETH="+executor.Hex()).CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "held by Clef") {
		t.Fatalf("contract deploy from a Clef executor: %v %s", err, out)
	}
	allowed, other := deploy(), deploy()

	usdt := common.HexToAddress(eth.Tokens["USDT"])
	token := bindings.NewTestUSDC()
	usdtOf := func(holder string) *big.Int { return r.usdtOf(t, ctx, holder) }
	for _, d := range []deployOut{allowed, other} {
		send(info.Wallets["customer"].PrivateKey, usdt, nil, token.PackTransfer(common.HexToAddress(d.PayoutContract), big.NewInt(100_000_000)))
	}
	otherBefore := usdtOf(other.PayoutContract)

	// The operator lists the first contract in the rules and restarts Clef.
	cl.Restart(cleftest.Rules(t, eth.ChainID, common.HexToAddress(allowed.PayoutContract)))

	cli(t, "payout", "policy", "--data", data, "--merchant", merchant, "--mode", "never")
	srv, base := serveWith(t, binary, append([]string{"CASHIER_REGISTRY=" + regPath, "CASHIER_ETH_RPC=" + eth.RPCURL, "CASHIER_PAYOUT_WINDOW=200ms",
		"CASHIER_SIGNER_CLEF=" + cl.IPC}, clefEnv...), data)
	defer srv.stop(t)
	defer func() {
		if t.Failed() {
			t.Logf("serve stderr:\n%s\nclef:\n%s", srv.stderr.String(), cl.Log())
		}
	}()
	api := client.New(base, m["apiKey"], m["secretKey"])
	paid, refused := common.HexToAddress("0x00000000000000000000000000000000000c1ef1"), common.HexToAddress("0x00000000000000000000000000000000000c1ef2")
	nonceBefore, err := ec.NonceAt(ctx, executor, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []client.PayoutRequest{
		{ContractID: other.ContractID, OrderNo: "CLEF-REFUSED", Recipient: refused.Hex(), Amount: "3", Symbol: "USDT", PayoutType: 1},
		{ContractID: allowed.ContractID, OrderNo: "CLEF-1", Recipient: paid.Hex(), Amount: "12.5", Symbol: "USDT", PayoutType: 1},
	} {
		if _, err := api.CreatePayout(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	p := waitPaid(t, ctx, api, "CLEF-1") // signed by Clef
	if got := usdtOf(paid.Hex()); got.Cmp(big.NewInt(12_500_000)) != 0 {
		t.Fatalf("recipient holds %s base units after payout %+v", got, p)
	}
	waitFor(t, "the refusal reported", time.Minute, func() bool {
		return strings.Contains(srv.stderr.String(), "payout batch not signed: its signer refused")
	})
	if r, err := api.PayoutDetail(ctx, "CLEF-REFUSED"); err != nil || r.Status != "PROCESSING" {
		t.Fatalf("the refused batch's order: %+v %v", r, err)
	}
	if !strings.Contains(srv.stderr.String(), "denied") {
		t.Errorf("the service's log does not say Clef denied the batch:\n%s", srv.stderr.String())
	}
	// Nothing else happened on chain: one executor transaction (the paid
	// batch, signed by Clef), the refused contract untouched.
	if n, _ := ec.NonceAt(ctx, executor, nil); n != nonceBefore+1 {
		t.Fatalf("the executor sent %d transactions, want 1", n-nonceBefore)
	}
	if got := usdtOf(refused.Hex()); got.Sign() != 0 || usdtOf(other.PayoutContract).Cmp(otherBefore) != 0 {
		t.Fatalf("the refused batch moved tokens: recipient %s", got)
	}
	audit, err := os.ReadFile(cl.AuditLog)
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{"SignTypedData", "SignTransaction"} {
		if !strings.Contains(string(audit), call) {
			t.Errorf("Clef's audit log has no %s:\n%s", call, audit)
		}
	}

	// The operator lists the second contract, attests the rules and
	// restarts Clef: the waiting batch is signed and paid, once, without
	// restarting the service.
	cl.Restart(cleftest.Rules(t, eth.ChainID, common.HexToAddress(allowed.PayoutContract), common.HexToAddress(other.PayoutContract)))
	waitFor(t, "the batch after the rules allow it", 90*time.Second, func() bool {
		p, err = api.PayoutDetail(ctx, "CLEF-REFUSED")
		return err == nil && p.Status == "SUCCESS"
	})
	time.Sleep(time.Second) // a further round: nothing more is sent
	if got := usdtOf(refused.Hex()); got.Cmp(big.NewInt(3_000_000)) != 0 {
		t.Fatalf("the second recipient holds %s base units", got)
	}
	if got := usdtOf(paid.Hex()); got.Cmp(big.NewInt(12_500_000)) != 0 {
		t.Fatalf("the first recipient holds %s base units", got)
	}
	if n, _ := ec.NonceAt(ctx, executor, nil); n != nonceBefore+2 {
		t.Fatalf("the executor sent %d transactions, want 2", n-nonceBefore)
	}

	// The rules sign executor transactions that are payout calls to a
	// listed contract without coin, nothing else.
	cs, err := clef.Dial(ctx, cl.IPC, executor)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	payoutCall := bindings.NewCashierPayout().PackPayoutWithBalance(usdt, []common.Address{paid}, []*big.Int{big.NewInt(1)}, big.NewInt(0),
		make([]byte, 65), big.NewInt(1), big.NewInt(1))
	listed, unlisted := common.HexToAddress(allowed.PayoutContract), common.HexToAddress("0x00000000000000000000000000000000000c1ef3")
	chainID := new(big.Int).SetUint64(eth.ChainID)
	tx := func(to common.Address, value int64, data []byte) *types.Transaction {
		return types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: 1_000, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(params.GWei),
			Gas: 300_000, To: &to, Value: big.NewInt(value), Data: data})
	}
	if _, err := cs.SignTx(ctx, tx(listed, 0, payoutCall), chainID); err != nil {
		t.Fatalf("Clef refused a payout call to a listed contract: %v", err)
	}
	for name, bad := range map[string]*types.Transaction{
		"to an unlisted address": tx(unlisted, 0, payoutCall),
		"carrying coin":          tx(listed, 1, payoutCall),
		"calling anything else":  tx(listed, 0, token.PackTransfer(paid, big.NewInt(1))),
	} {
		if _, err := cs.SignTx(ctx, bad, chainID); err == nil || !strings.Contains(err.Error(), "denied") {
			t.Errorf("a transaction %s: %v", name, err)
		}
	}
}
