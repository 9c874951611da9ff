package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/sandbox"
)

// deployOut is what `contract deploy` prints.
type deployOut struct {
	DryRun                bool   `json:"dryRun"`
	ContractID            string `json:"contractId"`
	MerchantID            string `json:"merchantId"`
	PayoutContract        string `json:"payoutContract"`
	DepositFactory        string `json:"depositFactory"`
	DepositImplementation string `json:"depositImplementation"`
	Owner, Executor       string
	Signer, FeeAddress    string
	Sweeper, Deployer     string
	TotalFee              string `json:"totalFee"`
	Transactions          []struct {
		Contract, Address, TxID string
		Nonce, GasUsed, Gas     uint64
		GasLimit                uint64
		MaxCost                 string
	} `json:"transactions"`
}

// deployRig is what the contract deploy tests start from: the binary's dev
// chains (a world of chains only), a client of the ETH chain, and an
// initialised data directory of its own with a registry of the chains and
// one merchant.
type deployRig struct {
	info          *sandbox.Info
	eth           *sandbox.Network
	ec            *ethclient.Client
	data, regPath string
	m             map[string]string // merchant create's output: merchantId, apiKey, secretKey
}

// usdtOf reads holder's balance of the chain's USDT.
func (r *deployRig) usdtOf(t *testing.T, ctx context.Context, holder string) *big.Int {
	t.Helper()
	usdt := common.HexToAddress(r.eth.Tokens["USDT"])
	out, err := r.ec.CallContract(ctx, ethCallMsg(usdt, bindings.NewTestUSDC().PackBalanceOf(common.HexToAddress(holder))), nil)
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

// waitPaid waits until payout orderNo is SUCCESS and returns it.
func waitPaid(t *testing.T, ctx context.Context, api *client.Client, orderNo string) *client.Payout {
	t.Helper()
	var p *client.Payout
	waitFor(t, "payout "+orderNo, 90*time.Second, func() bool {
		var err error
		p, err = api.PayoutDetail(ctx, orderNo)
		return err == nil && p.Status == "SUCCESS"
	})
	return p
}

func newDeployRig(t *testing.T, shop string) *deployRig {
	t.Helper()
	info := newWorld(t, worldOpts{ChainsOnly: true}).Info
	r := &deployRig{info: info, eth: info.Networks["ETH"], data: t.TempDir()}
	var err error
	if r.ec, err = ethclient.Dial(r.eth.RPCURL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.ec.Close)
	r.regPath = writeRegistry(t, r.data, info, 1)
	if out, err := exec.Command(binary, "init", "--data", r.data).CombinedOutput(); err != nil {
		t.Fatalf("init: %v %s", err, out)
	}
	r.m = cli(t, "merchant", "create", "--data", r.data, "--name", shop)
	return r
}

// An operator deploys a merchant's contracts to a network with the real
// binary: a dry run prices both creations and sends nothing; the deploy
// sends them from the executor key, registers the pair to the merchant
// (the same on-chain proof as contract create), and a payout is then paid
// through the deployed contract. TRON and bad input are refused.
func TestContractDeployOnTheBinary(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := newDeployRig(t, "Deployed Shop")
	info, eth, ec, data, regPath, m := r.info, r.eth, r.ec, r.data, r.regPath, r.m
	merchant := m["merchantId"]
	executor := cli(t, "key", "generate", "--data", data, "--chain", "ETH", "--role", "executor")["address"]
	cli(t, "key", "generate", "--data", data, "--chain", "ETH", "--role", "sweeper")

	deploy := func(args ...string) (*deployOut, string, error) {
		cmd := exec.Command(binary, append([]string{"contract", "deploy", "--data", data, "--registry", regPath}, args...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if err != nil {
			return nil, errOut.String(), err
		}
		var d deployOut
		dec := json.NewDecoder(&out)
		if err := dec.Decode(&d); err != nil || dec.More() {
			t.Fatalf("contract deploy %v printed %q, not one JSON object: %v", args, out.String(), err)
		}
		return &d, errOut.String(), nil
	}
	nonce := func(addr string) uint64 {
		n, err := ec.NonceAt(ctx, common.HexToAddress(addr), nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	owner := info.Wallets["customer"].EVMAddress // the merchant's own wallet owns the contracts

	// Refusals change nothing.
	for _, bad := range [][]string{
		{"--chain", "TRON", "--merchant", merchant, "--owner", owner, "--tron-api", info.Networks["TRON"].RPCURL},
		{"--chain", "ETH", "--merchant", merchant, "--rpc", eth.RPCURL},
		{"--chain", "ETH", "--merchant", merchant, "--owner", "0x1234", "--rpc", eth.RPCURL},
		{"--chain", "ETH", "--merchant", "m_nobody", "--owner", owner, "--rpc", eth.RPCURL},
		{"--chain", "ETH", "--merchant", merchant, "--owner", owner}, // no node
	} {
		if _, stderr, err := deploy(bad...); err == nil {
			t.Fatalf("contract deploy %v succeeded", bad)
		} else if bad[1] == "TRON" && !strings.Contains(stderr, "TRON is not supported") {
			t.Fatalf("TRON refusal: %s", stderr)
		}
	}

	// A dry run from another account (--key-file): priced, nothing sent.
	roleKey := filepath.Join(t.TempDir(), "deployer.hex")
	if err := os.WriteFile(roleKey, []byte(info.Roles["owner"].PrivateKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deployer := info.Roles["owner"].EVMAddress
	before, execBefore := nonce(deployer), nonce(executor)
	dry, stderr, err := deploy("--chain", "ETH", "--merchant", merchant, "--owner", owner, "--rpc", eth.RPCURL, "--key-file", roleKey, "--dry-run")
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, stderr)
	}
	if !dry.DryRun || !strings.EqualFold(dry.Deployer, deployer) || len(dry.Transactions) != 2 || dry.ContractID != "" {
		t.Fatalf("dry run printed %+v", dry)
	}
	for i, tx := range dry.Transactions {
		if tx.Gas < 100_000 || tx.GasLimit < tx.Gas || tx.MaxCost == "" || tx.TxID != "" || tx.Nonce != before+uint64(i) {
			t.Fatalf("dry-run transaction %d: %+v (nonce %d)", i, tx, before)
		}
	}
	if !strings.EqualFold(dry.PayoutContract, crypto.CreateAddress(common.HexToAddress(deployer), before).Hex()) {
		t.Fatalf("dry run predicts %s", dry.PayoutContract)
	}
	time.Sleep(2 * time.Second) // a block or two: anything sent would be mined
	if nonce(deployer) != before || nonce(executor) != execBefore {
		t.Fatal("the dry run sent a transaction")
	}
	if code, _ := ec.CodeAt(ctx, common.HexToAddress(dry.PayoutContract), nil); len(code) != 0 {
		t.Fatal("the dry run deployed the payout contract")
	}

	// The executor needs gas: the operator funds it, then deploys from it.
	send := func(key string, to common.Address, value *big.Int, payload []byte) {
		t.Helper()
		sendAndWait(t, ctx, ec, eth.ChainID, key, to, value, payload)
	}
	send(info.Roles["owner"].PrivateKey, common.HexToAddress(executor), new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether)), nil)

	d, stderr, err := deploy("--chain", "ETH", "--merchant", merchant, "--owner", owner, "--rpc", eth.RPCURL)
	if err != nil {
		t.Fatalf("deploy: %v\n%s", err, stderr)
	}
	if d.DryRun || d.ContractID == "" || d.MerchantID != merchant || !strings.EqualFold(d.Deployer, executor) || !strings.EqualFold(d.Executor, executor) ||
		!strings.EqualFold(d.FeeAddress, executor) || !strings.EqualFold(d.Owner, owner) || len(d.Transactions) != 2 {
		t.Fatalf("deploy printed %+v", d)
	}
	signer := cli(t, "key", "signer", "--data", data, "--merchant", merchant, "--chain", "ETH")["address"]
	if !strings.EqualFold(d.Signer, signer) {
		t.Fatalf("deployed with signer %s, the merchant's is %s", d.Signer, signer)
	}
	for i, want := range []string{d.PayoutContract, d.DepositFactory} {
		tx := d.Transactions[i]
		r, err := ec.TransactionReceipt(ctx, common.HexToHash(tx.TxID))
		if err != nil || r.Status != types.ReceiptStatusSuccessful || !strings.EqualFold(r.ContractAddress.Hex(), want) || r.GasUsed != tx.GasUsed {
			t.Fatalf("transaction %d %+v: receipt %+v, %v", i, tx, r, err)
		}
	}
	// The chain holds what the output says: roles read back from the contracts.
	pc := bindings.NewCashierPayout()
	read := func(to string, in []byte) common.Address {
		t.Helper()
		a := common.HexToAddress(to)
		out, err := ec.CallContract(ctx, ethCallMsg(a, in), nil)
		if err != nil || len(out) != 32 {
			t.Fatalf("read %s: %x %v", to, out, err)
		}
		return common.BytesToAddress(out)
	}
	if read(d.PayoutContract, pc.PackOwner()) != common.HexToAddress(owner) || read(d.PayoutContract, pc.PackExecutor()) != common.HexToAddress(executor) ||
		read(d.DepositFactory, bindings.NewDepositFactory().PackVault()) != common.HexToAddress(d.PayoutContract) {
		t.Fatal("the deployed contracts do not name the printed roles")
	}
	// Registered once: a second registration of the same address is refused.
	if out, err := exec.Command(binary, "contract", "create", "--data", data, "--registry", regPath, "--eth-rpc", eth.RPCURL,
		"--merchant", merchant, "--chain", "ETH", "--address", d.PayoutContract).CombinedOutput(); err == nil || !strings.Contains(string(out), "registered") {
		t.Fatalf("registering the deployed contract again: %v %s", err, out)
	}

	// The merchant funds its contract and a payout is paid through it.
	usdt := common.HexToAddress(eth.Tokens["USDT"])
	token := bindings.NewTestUSDC()
	send(info.Wallets["customer"].PrivateKey, usdt, nil, token.PackTransfer(common.HexToAddress(d.PayoutContract), big.NewInt(100_000_000)))
	cli(t, "payout", "policy", "--data", data, "--merchant", merchant, "--mode", "never")
	usdtOf := func(holder string) *big.Int { return r.usdtOf(t, ctx, holder) }
	contractBefore, feeBefore := usdtOf(d.PayoutContract), usdtOf(d.FeeAddress)
	// Gas recovery: the batch fee also carries the gas, priced with the dev
	// chain's ETH/USD feed.
	srv, base := serveWith(t, binary, []string{"CASHIER_REGISTRY=" + regPath, "CASHIER_ETH_RPC=" + eth.RPCURL, "CASHIER_PAYOUT_WINDOW=200ms",
		"CASHIER_GAS_POLICY=ETH=fee+gas", "CASHIER_GAS_PRICE=ETH=feed:" + eth.PriceFeed}, data)
	defer srv.stop(t)
	recipient := common.HexToAddress("0x00000000000000000000000000000000000d3910")
	api := client.New(base, m["apiKey"], m["secretKey"])
	if _, err := api.CreatePayout(ctx, client.PayoutRequest{ContractID: d.ContractID, OrderNo: "DEPLOYED-1", Recipient: recipient.Hex(),
		Amount: "12.5", Symbol: "USDT", PayoutType: 1}); err != nil {
		t.Fatal(err)
	}
	p := waitPaid(t, ctx, api, "DEPLOYED-1")
	if got := usdtOf(recipient.Hex()); got.Cmp(big.NewInt(12_500_000)) != 0 {
		t.Fatalf("recipient holds %s base units after payout %+v", got, p)
	}
	// fee+gas: the contract paid the amount, the fee and exactly the gas
	// share the detail reports, all of it beyond the amount to the fee address.
	units := func(s string) *big.Int {
		t.Helper()
		v, err := cashier.ParseAmount(s, 6)
		if err != nil {
			t.Fatalf("amount %q: %v", s, err)
		}
		return v
	}
	fee, gas := units(p.Fee), units(p.GasAmount)
	if fee.Sign() <= 0 || gas.Sign() <= 0 {
		t.Fatalf("fee+gas payout reports fee %q and gasAmount %q", p.Fee, p.GasAmount)
	}
	t.Logf("fee %s, gasAmount %s USDT", p.Fee, p.GasAmount)
	paidOut := new(big.Int).Sub(contractBefore, usdtOf(d.PayoutContract))
	if want := new(big.Int).Add(big.NewInt(12_500_000), new(big.Int).Add(fee, gas)); paidOut.Cmp(want) != 0 {
		t.Fatalf("the contract paid %s base units; amount + fee %s + gasAmount %s = %s", paidOut, p.Fee, p.GasAmount, want)
	}
	if got := new(big.Int).Sub(usdtOf(d.FeeAddress), feeBefore); got.Cmp(new(big.Int).Add(fee, gas)) != 0 {
		t.Fatalf("the fee address received %s base units, want fee + gasAmount", got)
	}
	if r, err := ec.TransactionReceipt(ctx, common.HexToHash(p.TxID)); err != nil || r.Logs[0] == nil || !strings.EqualFold(r.Logs[len(r.Logs)-1].Address.Hex(), d.PayoutContract) {
		t.Fatalf("payout %s not sent through the deployed contract: %v", p.TxID, err)
	}
}

func ethCallMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}
