package tronnode_test

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/tron"
	"github.com/stablecashier/cashier/tronnode"
)

var token = bindings.NewTestTronUSDT()

type fixture struct {
	t      *testing.T
	clock  *cashier.ManualClock
	node   *tronnode.Node
	srv    *httptest.Server
	owner  tron.Address
	sender *ecdsa.PrivateKey
	token  tron.Address
}

func key(t *testing.T, h string) *ecdsa.PrivateKey {
	k, err := crypto.HexToECDSA(h)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func newFixture(t *testing.T, opts tronnode.Options) *fixture {
	t.Helper()
	f := &fixture{
		t:      t,
		clock:  cashier.NewManualClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)),
		owner:  tron.KeyAddress(key(t, "1111111111111111111111111111111111111111111111111111111111111111")),
		sender: key(t, "2222222222222222222222222222222222222222222222222222222222222222"),
	}
	opts.Clock = f.clock
	var err error
	if f.node, err = tronnode.Open(opts); err != nil {
		t.Fatal(err)
	}
	f.srv = httptest.NewServer(f.node.Handler())
	t.Cleanup(func() { f.srv.Close(); f.node.Close() })
	if err := f.node.Fund(tron.KeyAddress(f.sender), 500_000_000); err != nil {
		t.Fatal(err)
	}
	code := append(hexutil.MustDecode(bindings.TestTronUSDTMetaData.Bin), token.PackConstructor("Tether USD", "USDT")...)
	f.clock.Advance(3 * time.Second) // the block Deploy makes is due
	if f.token, err = f.node.Deploy(f.owner, code, "TestTronUSDT"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.node.Exec(f.owner, f.token, token.PackMint(tron.KeyAddress(f.sender).EVM(), big.NewInt(1_000_000))); err != nil {
		t.Fatal(err)
	}
	f.produce()
	return f
}

func (f *fixture) produce() uint64 {
	f.t.Helper()
	f.clock.Advance(3 * time.Second)
	n, err := f.node.ProduceBlock()
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

// post sends a request and decodes the answer into a generic map.
func (f *fixture) post(path string, body any) map[string]any {
	f.t.Helper()
	var out map[string]any
	f.postInto(path, body, &out)
	return out
}

func (f *fixture) postInto(path string, body, out any) {
	f.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(f.srv.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		f.t.Fatalf("%s: HTTP %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		f.t.Fatalf("%s: %v", path, err)
	}
}

// build asks the node for a transfer transaction from the sender.
func (f *fixture) build(amount int64, feeLimit int64) map[string]any {
	f.t.Helper()
	ext := f.post("/wallet/triggersmartcontract", map[string]any{
		"owner_address":     tron.KeyAddress(f.sender).Hex(),
		"contract_address":  f.token.Hex(),
		"function_selector": "transfer(address,uint256)",
		"parameter":         hex.EncodeToString(token.PackTransfer(f.owner.EVM(), big.NewInt(amount))[4:]),
		"fee_limit":         feeLimit,
	})
	if ext["result"].(map[string]any)["result"] != true {
		f.t.Fatalf("triggersmartcontract: %v", ext)
	}
	return ext["transaction"].(map[string]any)
}

func sign(t *testing.T, tx map[string]any, k *ecdsa.PrivateKey) {
	id, _ := hex.DecodeString(tx["txID"].(string))
	sig, err := tron.Sign([32]byte(id), k)
	if err != nil {
		t.Fatal(err)
	}
	tx["signature"] = []string{hex.EncodeToString(sig)}
}

func (f *fixture) broadcast(tx map[string]any) (code, message string) {
	f.t.Helper()
	res := f.post("/wallet/broadcasttransaction", tx)
	code, _ = res["code"].(string)
	if m, ok := res["message"].(string); ok {
		b, err := hex.DecodeString(m)
		if err != nil {
			f.t.Fatalf("message %q is not hex", m)
		}
		message = string(b)
	}
	if (res["result"] == true) != (code == "SUCCESS") {
		f.t.Fatalf("result and code disagree: %v", res)
	}
	return code, message
}

func TestBroadcastChecks(t *testing.T) {
	f := newFixture(t, tronnode.Options{})
	other := key(t, "3333333333333333333333333333333333333333333333333333333333333333")

	tx := f.build(1, 10_000_000)
	sign(t, tx, other)
	if code, msg := f.broadcast(tx); code != "SIGERROR" || !strings.Contains(msg, "signature") {
		t.Errorf("foreign signature: %s %q", code, msg)
	}

	tx = f.build(2, 10_000_000)
	sign(t, tx, f.sender)
	sig := tx["signature"].([]string)
	bad, _ := hex.DecodeString(sig[0])
	bad[10] ^= 1
	tx["signature"] = []string{hex.EncodeToString(bad)}
	if code, _ := f.broadcast(tx); code != "SIGERROR" {
		t.Errorf("corrupted signature: %s", code)
	}

	// The node hashes raw_data as submitted, not the client's txID or
	// raw_data_hex: a changed fee_limit voids the signature.
	tx = f.build(3, 10_000_000)
	sign(t, tx, f.sender)
	tx["raw_data"].(map[string]any)["fee_limit"] = 20_000_000
	if code, _ := f.broadcast(tx); code != "SIGERROR" {
		t.Errorf("raw_data changed after signing: %s", code)
	}

	tx = f.build(4, 10_000_000)
	sign(t, tx, f.sender)
	// java-tron also takes v = 27/28.
	s, _ := hex.DecodeString(tx["signature"].([]string)[0])
	s[64] += 27
	tx["signature"] = []string{hex.EncodeToString(s)}
	if code, msg := f.broadcast(tx); code != "SUCCESS" {
		t.Fatalf("good transaction: %s %q", code, msg)
	}
	if code, msg := f.broadcast(tx); code != "DUP_TRANSACTION_ERROR" || msg != "Dup transaction." {
		t.Errorf("second broadcast: %s %q", code, msg)
	}

	tx = f.build(5, 10_000_000)
	tx["raw_data"].(map[string]any)["ref_block_hash"] = "0000000000000000"
	sign(t, tx, f.sender)
	if code, _ := f.broadcast(tx); code != "TAPOS_ERROR" {
		t.Errorf("unknown reference block: %s", code)
	}

	tx = f.build(6, 10_000_000)
	sign(t, tx, f.sender)
	f.clock.Advance(61 * time.Second)
	if code, _ := f.broadcast(tx); code != "TRANSACTION_EXPIRATION_ERROR" {
		t.Errorf("expired: %s", code)
	}

	// A signature by an account that never received TRX.
	stranger := key(t, "4444444444444444444444444444444444444444444444444444444444444444")
	ext := f.post("/wallet/triggersmartcontract", map[string]any{
		"owner_address":    tron.KeyAddress(stranger).Hex(),
		"contract_address": f.token.Hex(),
		"data":             hex.EncodeToString(token.PackTransfer(f.owner.EVM(), big.NewInt(1))),
		"fee_limit":        1_000_000,
	})
	tx = ext["transaction"].(map[string]any)
	sign(t, tx, stranger)
	if code, msg := f.broadcast(tx); code != "CONTRACT_VALIDATE_ERROR" || !strings.Contains(msg, "no OwnerAccount") {
		t.Errorf("unactivated owner: %s %q", code, msg)
	}
}

func TestExecutionOutcomesAndFees(t *testing.T) {
	f := newFixture(t, tronnode.Options{})
	before := f.node.Balance(tron.KeyAddress(f.sender))

	ok := f.build(400_000, 50_000_000)
	sign(t, ok, f.sender)
	revert := f.build(5_000_000, 50_000_000) // more than the balance after ok
	sign(t, revert, f.sender)
	starved := f.build(1, 1_000) // 10 energy
	sign(t, starved, f.sender)
	for _, tx := range []map[string]any{ok, revert, starved} {
		if code, msg := f.broadcast(tx); code != "SUCCESS" {
			t.Fatalf("broadcast: %s %q", code, msg)
		}
	}
	block := f.produce()

	var infos []map[string]any
	f.postInto("/wallet/gettransactioninfobyblocknum", map[string]any{"num": block}, &infos)
	if len(infos) != 3 {
		t.Fatalf("%d infos in block %d, want 3", len(infos), block)
	}
	want := []struct {
		id, receipt, result string
	}{{ok["txID"].(string), "SUCCESS", ""}, {revert["txID"].(string), "REVERT", "FAILED"}, {starved["txID"].(string), "OUT_OF_ENERGY", "FAILED"}}
	var fees int64
	for i, w := range want {
		info := infos[i]
		rc := info["receipt"].(map[string]any)
		if info["id"] != w.id || rc["result"] != w.receipt || (info["result"] != nil && info["result"] != w.result) || (info["result"] == nil && w.result != "") {
			t.Errorf("info %d: %v", i, info)
		}
		energy := int64(rc["energy_usage_total"].(float64))
		energyFee := int64(rc["energy_fee"].(float64))
		if energyFee != energy*100 {
			t.Errorf("info %d: energy fee %d for %d energy at 100 sun", i, energyFee, energy)
		}
		fees += int64(info["fee"].(float64))
	}
	if infos[0]["log"] == nil || infos[1]["log"] != nil {
		t.Errorf("logs: success %v, revert %v", infos[0]["log"], infos[1]["log"])
	}
	// OUT_OF_ENERGY burns the whole fee limit.
	if e := infos[2]["receipt"].(map[string]any)["energy_fee"].(float64); e != 1_000 {
		t.Errorf("out of energy burned %v sun, want the fee limit 1000", e)
	}
	if spent := before - f.node.Balance(tron.KeyAddress(f.sender)); spent != fees {
		t.Errorf("sender lost %d sun, infos charge %d", spent, fees)
	}
	// The first 600 bytes a day are free, the rest is burned at 1000 sun/byte.
	if infos[0]["receipt"].(map[string]any)["net_usage"] == nil || infos[2]["receipt"].(map[string]any)["net_fee"] == nil {
		t.Errorf("bandwidth: first %v, third %v", infos[0]["receipt"], infos[2]["receipt"])
	}
	out, err := f.node.Call(f.owner, f.token, token.PackBalanceOf(f.owner.EVM()))
	if err != nil || new(big.Int).SetBytes(out).Int64() != 400_000 {
		t.Errorf("recipient balance %x, %v", out, err)
	}
}

// The stand-in's JSON carries the fields, and formats, of java-tron's
// published examples (tronprotocol/documentation-en, docs/api/http/...).
func TestResponseShapes(t *testing.T) {
	f := newFixture(t, tronnode.Options{})
	tx := f.build(7, 50_000_000)
	sign(t, tx, f.sender)
	f.broadcast(tx)
	block := f.produce()

	hex40 := regexp.MustCompile(`^[0-9a-f]{40}$`)
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	addr41 := regexp.MustCompile(`^41[0-9a-f]{40}$`)

	// block-and-tx-query/gettransactioninfobyid.md
	info := f.post("/wallet/gettransactioninfobyid", map[string]any{"value": tx["txID"]})
	assertKeys(t, "info", info, "id", "fee", "blockNumber", "blockTimeStamp", "contractResult", "contract_address", "receipt", "log")
	assertKeys(t, "receipt", info["receipt"].(map[string]any), "energy_fee", "energy_usage_total", "net_usage", "result")
	lg := info["log"].([]any)[0].(map[string]any)
	if !hex40.MatchString(lg["address"].(string)) || !addr41.MatchString(info["contract_address"].(string)) {
		t.Errorf("log address %v, contract_address %v", lg["address"], info["contract_address"])
	}
	for _, tp := range lg["topics"].([]any) {
		if !hex64.MatchString(tp.(string)) {
			t.Errorf("topic %v", tp)
		}
	}
	if empty := f.post("/wallet/gettransactioninfobyid", map[string]any{"value": strings.Repeat("ab", 32)}); len(empty) != 0 {
		t.Errorf("unknown id: %v, want {}", empty)
	}

	// block-and-tx-query/getblockbynum.md
	b := f.post("/wallet/getblockbynum", map[string]any{"num": block})
	assertKeys(t, "block", b, "blockID", "block_header", "transactions")
	hdr := b["block_header"].(map[string]any)
	assertKeys(t, "block_header", hdr, "raw_data", "witness_signature")
	raw := hdr["raw_data"].(map[string]any)
	assertKeys(t, "block raw_data", raw, "number", "txTrieRoot", "witness_address", "parentHash", "version", "timestamp")
	id, _ := hex.DecodeString(b["blockID"].(string))
	if binary.BigEndian.Uint64(id[:8]) != block {
		t.Errorf("blockID %s does not start with the number %d", b["blockID"], block)
	}
	parent := f.post("/wallet/getblockbynum", map[string]any{"num": block - 1})
	if raw["parentHash"] != parent["blockID"] {
		t.Errorf("parentHash %v, parent id %v", raw["parentHash"], parent["blockID"])
	}
	btx := b["transactions"].([]any)[0].(map[string]any)
	assertKeys(t, "block transaction", btx, "ret", "signature", "txID", "raw_data", "raw_data_hex")
	if btx["txID"] != tx["txID"] || btx["raw_data_hex"] != tx["raw_data_hex"] {
		t.Errorf("block holds %v, sent %v", btx["txID"], tx["txID"])
	}
	if len(f.post("/wallet/getblockbynum", map[string]any{"num": block + 1})) != 0 {
		t.Error("future block is not {}")
	}

	// smart-contract/triggersmartcontract.md: the raw_data of a TRC20
	// transfer and its hex agree, and the txID is their sha256.
	built := f.build(8, 100_000_000)
	assertKeys(t, "transaction", built, "visible", "txID", "raw_data", "raw_data_hex")
	rd := built["raw_data"].(map[string]any)
	assertKeys(t, "raw_data", rd, "contract", "ref_block_bytes", "ref_block_hash", "expiration", "fee_limit", "timestamp")
	rawPB, _ := hex.DecodeString(built["raw_data_hex"].(string))
	r, err := tron.UnmarshalRawData(rawPB)
	if err != nil {
		t.Fatal(err)
	}
	if sum := r.TxID(); hex.EncodeToString(sum[:]) != built["txID"] {
		t.Error("txID is not sha256(raw_data_hex)")
	}
	if r.Expiration-f.clock.Now().UnixMilli() != 60_000 || r.FeeLimit != 100_000_000 {
		t.Errorf("expiration in %d ms, fee_limit %d", r.Expiration-f.clock.Now().UnixMilli(), r.FeeLimit)
	}

	// smart-contract/triggerconstantcontract.md, including a revert.
	c := f.post("/wallet/triggerconstantcontract", map[string]any{
		"owner_address":     f.owner.Hex(),
		"contract_address":  f.token.Hex(),
		"function_selector": "balanceOf(address)",
		"parameter":         hex.EncodeToString(token.PackBalanceOf(tron.KeyAddress(f.sender).EVM())[4:]),
	})
	assertKeys(t, "constant", c, "result", "energy_used", "constant_result", "transaction")
	if got := c["constant_result"].([]any)[0]; got != hex.EncodeToString(common32(1_000_000-7)) {
		t.Errorf("balanceOf = %v", got)
	}
	rev := f.post("/wallet/triggerconstantcontract", map[string]any{
		"owner_address":    f.owner.Hex(),
		"contract_address": f.token.Hex(),
		"data":             hex.EncodeToString(token.PackTransfer(f.owner.EVM(), big.NewInt(1000))),
	})
	msg, _ := hex.DecodeString(rev["result"].(map[string]any)["message"].(string))
	if rev["result"].(map[string]any)["result"] != true || string(msg) != "REVERT opcode executed" ||
		rev["transaction"].(map[string]any)["ret"].([]any)[0].(map[string]any)["ret"] != "FAILED" {
		t.Errorf("reverting constant call: %v", rev)
	}
	missing := f.post("/wallet/triggerconstantcontract", map[string]any{
		"owner_address": f.owner.Hex(), "contract_address": f.owner.Hex(), "data": "",
	})
	if missing["result"].(map[string]any)["code"] != "CONTRACT_VALIDATE_ERROR" {
		t.Errorf("call to an account without code: %v", missing)
	}

	// account/getaccountresource.md and getaccount.
	res := f.post("/wallet/getaccountresource", map[string]any{"address": tron.KeyAddress(f.sender).Hex()})
	assertKeys(t, "resource", res, "freeNetUsed", "freeNetLimit", "TotalNetLimit", "TotalEnergyLimit")
	if len(f.post("/wallet/getaccount", map[string]any{"address": tron.KeyAddress(key(t, "99"+strings.Repeat("0", 62))).Hex()})) != 0 {
		t.Error("unknown account is not {}")
	}

	// visible=true turns addresses into base58, log addresses included.
	vis := f.post("/wallet/gettransactioninfobyid", map[string]any{"value": tx["txID"], "visible": true})
	if vis["log"].([]any)[0].(map[string]any)["address"] != f.token.String() || vis["contract_address"] != f.token.String() {
		t.Errorf("visible info: %v", vis)
	}
	var bad map[string]any
	f.postInto("/wallet/getaccount", map[string]any{"address": "zz"}, &bad)
	if _, ok := bad["Error"]; !ok {
		t.Errorf("malformed address: %v, want {\"Error\": ...}", bad)
	}
}

func common32(v int64) []byte {
	b := make([]byte, 32)
	big.NewInt(v).FillBytes(b)
	return b
}

func assertKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	var missing []string
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		have := make([]string, 0, len(m))
		for k := range m {
			have = append(have, k)
		}
		sort.Strings(have)
		t.Errorf("%s lacks %v (has %v)", what, missing, have)
	}
}

// Deploy puts the contract where TRON would: keccak256(txID ‖ 0x41‖owner).
func TestDeployAddress(t *testing.T) {
	f := newFixture(t, tronnode.Options{})
	var infos []map[string]any
	f.postInto("/wallet/gettransactioninfobyblocknum", map[string]any{"num": 1}, &infos)
	if len(infos) != 1 {
		t.Fatalf("block 1 has %d infos", len(infos))
	}
	id, _ := hex.DecodeString(infos[0]["id"].(string))
	want := tron.Address(crypto.Keccak256(append(id, f.owner.Bytes21()...))[12:])
	if want != f.token || infos[0]["contract_address"] != f.token.Hex() {
		t.Errorf("token at %s, info says %v, TRON rule gives %s", f.token, infos[0]["contract_address"], want)
	}
}

func TestBlockInterval(t *testing.T) {
	node, err := tronnode.Open(tronnode.Options{BlockInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	srv := httptest.NewServer(node.Handler())
	defer srv.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Post(srv.URL+"/wallet/getnowblock", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		var b struct {
			BlockHeader struct {
				RawData struct {
					Number    uint64 `json:"number"`
					Timestamp int64  `json:"timestamp"`
				} `json:"raw_data"`
			} `json:"block_header"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&b)
		resp.Body.Close()
		if b.BlockHeader.RawData.Number >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d blocks after 5 s", b.BlockHeader.RawData.Number)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A torn last journal line (a crash mid-write) is dropped; the node opens
// with every complete entry.
func TestJournalTornWrite(t *testing.T) {
	dir := t.TempDir()
	f := newFixture(t, tronnode.Options{Dir: dir})
	head := f.produce()
	f.srv.Close()
	if err := f.node.Close(); err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(filepath.Join(dir, "chain.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fh.WriteString(`{"block":{"time":`)
	fh.Close()

	node, err := tronnode.Open(tronnode.Options{Dir: dir, Clock: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	n, err := node.ProduceBlock()
	if err != nil || n != head+1 {
		t.Fatalf("next block %d, %v; want %d", n, err, head+1)
	}
	out, err := node.Call(f.owner, f.token, token.PackBalanceOf(tron.KeyAddress(f.sender).EVM()))
	if err != nil || new(big.Int).SetBytes(out).Int64() != 1_000_000 {
		t.Errorf("balance after reopen %x, %v", out, err)
	}
}

// Clients that speak base58 ("visible": true, as TronWeb does) build, sign
// and broadcast the same way.
func TestVisibleRoundTrip(t *testing.T) {
	f := newFixture(t, tronnode.Options{})
	ext := f.post("/wallet/triggersmartcontract", map[string]any{
		"owner_address":     tron.KeyAddress(f.sender).String(),
		"contract_address":  f.token.String(),
		"function_selector": "transfer(address,uint256)",
		"parameter":         hex.EncodeToString(token.PackTransfer(f.owner.EVM(), big.NewInt(9))[4:]),
		"fee_limit":         50_000_000,
		"visible":           true,
	})
	tx := ext["transaction"].(map[string]any)
	value := tx["raw_data"].(map[string]any)["contract"].([]any)[0].(map[string]any)["parameter"].(map[string]any)["value"].(map[string]any)
	if value["owner_address"] != tron.KeyAddress(f.sender).String() || tx["visible"] != true {
		t.Fatalf("visible transaction: %v", tx)
	}
	sign(t, tx, f.sender)
	res := f.post("/wallet/broadcasttransaction", tx)
	if res["result"] != true {
		t.Fatalf("broadcast: %v", res)
	}
	f.produce()
	info := f.post("/wallet/gettransactioninfobyid", map[string]any{"value": tx["txID"]})
	if info["receipt"].(map[string]any)["result"] != "SUCCESS" {
		t.Errorf("info %v", info)
	}
	// A hex address with visible=true is refused, as java-tron does.
	bad := f.post("/wallet/triggersmartcontract", map[string]any{
		"owner_address": tron.KeyAddress(f.sender).Hex(), "contract_address": f.token.String(), "data": "", "visible": true,
	})
	if bad["result"].(map[string]any)["result"] == true {
		t.Errorf("mixed address forms accepted: %v", bad)
	}
}

// The deposit factory works on the stand-in when built with the stand-in's
// CREATE2 prefix, and fails as it should with TRON's 0x41, which only the
// real TVM computes.
func TestDepositFactoryCreate2Prefix(t *testing.T) {
	factoryABI := bindings.NewDepositFactory()
	for _, tc := range []struct {
		prefix byte
		swept  bool
	}{{tronnode.Create2Prefix, true}, {0x41, false}} {
		f := newFixture(t, tronnode.Options{})
		sweeper, vault := tron.KeyAddress(f.sender), tron.KeyAddress(key(t, "5555555555555555555555555555555555555555555555555555555555555555"))
		code := append(hexutil.MustDecode(bindings.DepositFactoryMetaData.Bin),
			factoryABI.PackConstructor(f.owner.EVM(), sweeper.EVM(), vault.EVM(), [1]byte{tc.prefix})...)
		f.clock.Advance(3 * time.Second)
		factory, err := f.node.Deploy(f.owner, code, "DepositFactory")
		if err != nil {
			t.Fatal(err)
		}
		salt := [32]byte(crypto.Keccak256([]byte("order-1")))
		out, err := f.node.Call(f.owner, factory, factoryABI.PackAddressOf(salt))
		if err != nil {
			t.Fatal(err)
		}
		deposit, _ := factoryABI.UnpackAddressOf(out)
		// A customer pays the deposit address before anything is deployed there.
		if _, err := f.node.Exec(f.owner, f.token, token.PackMint(deposit, big.NewInt(250))); err != nil {
			t.Fatal(err)
		}
		id, err := f.node.Exec(sweeper, factory, factoryABI.PackSweep(f.token.EVM(), [][32]byte{salt}))
		if err != nil {
			t.Fatal(err)
		}
		f.produce()
		info := f.post("/wallet/gettransactioninfobyid", map[string]any{"value": id})
		got := info["receipt"].(map[string]any)["result"] == "SUCCESS"
		out, _ = f.node.Call(f.owner, f.token, token.PackBalanceOf(vault.EVM()))
		if got != tc.swept || (new(big.Int).SetBytes(out).Int64() == 250) != tc.swept {
			t.Errorf("prefix %#x: sweep %v, vault balance %x; want swept=%v", tc.prefix, info["receipt"], out, tc.swept)
		}
	}
}

// Blocks are stamped with the clock, never ahead of it, however fast
// they are produced: several within one moment all carry that moment.
func TestBlocksStampedWithTheClock(t *testing.T) {
	f := newFixture(t, tronnode.Options{})
	for i := 0; i < 4; i++ {
		if _, err := f.node.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
		b := f.post("/wallet/getnowblock", map[string]any{})
		raw := b["block_header"].(map[string]any)["raw_data"].(map[string]any)
		if ts := int64(raw["timestamp"].(float64)); ts != f.clock.Now().UnixMilli() {
			t.Fatalf("block %v stamped %d, the clock says %d", raw["number"], ts, f.clock.Now().UnixMilli())
		}
		f.clock.Advance(time.Second)
	}
}
