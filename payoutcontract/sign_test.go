package payoutcontract_test

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/payoutcontract"
)

func sampleBatch() payoutcontract.Batch {
	return payoutcontract.Batch{
		Token:      common.HexToAddress("0xdAC17F958D2ee523a2206206994597C13D831ec7"),
		Recipients: []common.Address{common.HexToAddress("0x1111111111111111111111111111111111111111"), common.HexToAddress("0x2222222222222222222222222222222222222222")},
		Amounts:    []*big.Int{big.NewInt(100_000_000), big.NewInt(2_500_000)},
		TotalFee:   big.NewInt(2_000_000),
		Nonce:      big.NewInt(42),
		Timestamp:  1_763_856_000,
	}
}

// TestDigestMatchesTypedDataHash computes the digests with go-ethereum's
// general EIP-712 implementation from the type strings alone.
func TestDigestMatchesTypedDataHash(t *testing.T) {
	b := sampleBatch()
	from := common.HexToAddress("0x3333333333333333333333333333333333333333")
	d := payoutcontract.Domain{ChainID: big.NewInt(0x2b6653dc), Contract: common.HexToAddress("0x4444444444444444444444444444444444444444")}

	transfers := []any{}
	for i := range b.Recipients {
		transfers = append(transfers, map[string]any{"to": b.Recipients[i].Hex(), "amount": b.Amounts[i].String()})
	}
	shared := []apitypes.Type{
		{Name: "transfers", Type: "Transfer[]"},
		{Name: "totalFee", Type: "uint256"},
		{Name: "nonce", Type: "uint256"},
		{Name: "timestamp", Type: "uint256"},
	}
	typed := func(primary string, fields []apitypes.Type, msg apitypes.TypedDataMessage) apitypes.TypedData {
		return apitypes.TypedData{
			Types: apitypes.Types{
				"EIP712Domain": {
					{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
					{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
				},
				"Transfer": {{Name: "to", Type: "address"}, {Name: "amount", Type: "uint256"}},
				primary:    fields,
			},
			PrimaryType: primary,
			Domain: apitypes.TypedDataDomain{
				Name: "CashierPayout", Version: "5.8.0",
				ChainId: (*math.HexOrDecimal256)(d.ChainID), VerifyingContract: d.Contract.Hex(),
			},
			Message: msg,
		}
	}
	msg := apitypes.TypedDataMessage{
		"token": b.Token.Hex(), "transfers": transfers,
		"totalFee": b.TotalFee.String(), "nonce": b.Nonce.String(), "timestamp": "1763856000",
	}
	want, _, err := apitypes.TypedDataAndHash(typed("PayoutWithBalance",
		append([]apitypes.Type{{Name: "token", Type: "address"}}, shared...), msg))
	if err != nil {
		t.Fatal(err)
	}
	if got := (payoutcontract.BalancePayout{Batch: b}).Digest(d); !bytes.Equal(got[:], want) {
		t.Fatalf("balance digest %x, typed data hash %x", got, want)
	}
	// The type strings the docs and the contract show are EIP-712's
	// encodeType of these types.
	for primary, want := range map[string]string{"PayoutWithBalance": payoutcontract.BalanceType} {
		td := typed(primary, append([]apitypes.Type{{Name: "token", Type: "address"}}, shared...), msg)
		if got := td.EncodeType(primary); string(got) != want {
			t.Fatalf("encodeType %s, want %s", got, want)
		}
	}

	msg["from"] = from.Hex()
	want, _, err = apitypes.TypedDataAndHash(typed("PayoutWithAllowance",
		append([]apitypes.Type{{Name: "token", Type: "address"}, {Name: "from", Type: "address"}}, shared...), msg))
	if err != nil {
		t.Fatal(err)
	}
	if got := (payoutcontract.AllowancePayout{Batch: b, From: from}).Digest(d); !bytes.Equal(got[:], want) {
		t.Fatalf("allowance digest %x, typed data hash %x", got, want)
	}
}

func TestSignRecovers(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	digest := crypto.Keccak256Hash([]byte("payout"))
	for range 20 {
		sig, err := payoutcontract.Sign(digest, key)
		if err != nil {
			t.Fatal(err)
		}
		if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
			t.Fatalf("signature %x: want 65 bytes with v 27/28", sig)
		}
		if s := new(big.Int).SetBytes(sig[32:64]); s.Cmp(new(big.Int).Rsh(crypto.S256().Params().N, 1)) > 0 {
			t.Fatalf("high s in %x", sig)
		}
		who, err := payoutcontract.Signer(digest, sig)
		if err != nil || who != crypto.PubkeyToAddress(key.PublicKey) {
			t.Fatalf("recovered %s (%v)", who, err)
		}
		digest = crypto.Keccak256Hash(digest[:])
	}
	if _, err := payoutcontract.Signer(digest, make([]byte, 64)); err == nil {
		t.Fatal("64-byte signature accepted")
	}
}

func TestValidate(t *testing.T) {
	tooBig := new(big.Int).Lsh(big.NewInt(1), 256)
	cases := map[string]func(b *payoutcontract.Batch){
		"empty":           func(b *payoutcontract.Batch) { b.Recipients, b.Amounts = nil, nil },
		"length mismatch": func(b *payoutcontract.Batch) { b.Amounts = b.Amounts[:1] },
		"too many": func(b *payoutcontract.Batch) {
			for len(b.Recipients) <= payoutcontract.MaxRecipients {
				b.Recipients = append(b.Recipients, b.Recipients[0])
				b.Amounts = append(b.Amounts, b.Amounts[0])
			}
		},
		"zero recipient":  func(b *payoutcontract.Batch) { b.Recipients[0] = common.Address{} },
		"zero amount":     func(b *payoutcontract.Batch) { b.Amounts[1] = new(big.Int) },
		"negative amount": func(b *payoutcontract.Batch) { b.Amounts[1] = big.NewInt(-1) },
		"huge amount":     func(b *payoutcontract.Batch) { b.Amounts[1] = tooBig },
		"nil fee":         func(b *payoutcontract.Batch) { b.TotalFee = nil },
		"negative fee":    func(b *payoutcontract.Batch) { b.TotalFee = big.NewInt(-1) },
		"nil nonce":       func(b *payoutcontract.Batch) { b.Nonce = nil },
	}
	if err := sampleBatch().Validate(); err != nil {
		t.Fatalf("valid batch refused: %v", err)
	}
	for name, mutate := range cases {
		b := sampleBatch()
		mutate(&b)
		if err := b.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := (payoutcontract.BalancePayout{Batch: b}).CallData(make([]byte, 65)); err == nil {
			t.Errorf("%s: call data built", name)
		}
	}
	// A fault of one transfer names it, so that order alone can leave the batch.
	for name, c := range map[string]struct {
		mutate func(b *payoutcontract.Batch)
		index  int
	}{
		"zero recipient": {func(b *payoutcontract.Batch) { b.Recipients[1] = common.Address{} }, 1},
		"zero amount":    {func(b *payoutcontract.Batch) { b.Amounts[0] = new(big.Int) }, 0},
	} {
		b := sampleBatch()
		c.mutate(&b)
		var te *payoutcontract.TransferError
		if err := b.Validate(); !errors.As(err, &te) || te.Index != c.index {
			t.Errorf("%s: %v, want a transfer error naming %d", name, err, c.index)
		}
	}
	if got := sampleBatch().Total(); got.Cmp(big.NewInt(102_500_000)) != 0 {
		t.Fatalf("total %v", got)
	}
}

// TestCallDataRoundTrip decodes the built call data with the contract ABI.
func TestCallDataRoundTrip(t *testing.T) {
	b := sampleBatch()
	sig := bytes.Repeat([]byte{7}, 65)
	from := common.HexToAddress("0x3333333333333333333333333333333333333333")

	data, err := payoutcontract.AllowancePayout{Batch: b, From: from}.CallData(sig)
	if err != nil {
		t.Fatal(err)
	}
	contractABI := payoutABI.GetABI()
	method, err := contractABI.MethodById(data)
	if err != nil || method.Name != "payoutWithAllowance" {
		t.Fatalf("method %v (%v)", method, err)
	}
	args, err := method.Inputs.Unpack(data[4:])
	if err != nil {
		t.Fatal(err)
	}
	if args[0].(common.Address) != b.Token || args[1].(common.Address) != from ||
		len(args[2].([]common.Address)) != 2 || args[3].([]*big.Int)[1].Cmp(b.Amounts[1]) != 0 ||
		args[4].(*big.Int).Cmp(b.TotalFee) != 0 || !bytes.Equal(args[5].([]byte), sig) ||
		args[6].(*big.Int).Cmp(b.Nonce) != 0 || args[7].(*big.Int).Uint64() != b.Timestamp {
		t.Fatalf("decoded %v", args)
	}

	data, err = payoutcontract.BalancePayout{Batch: b}.CallData(sig)
	if err != nil {
		t.Fatal(err)
	}
	if method, err := contractABI.MethodById(data); err != nil || method.Name != "payoutWithBalance" {
		t.Fatalf("method %v (%v)", method, err)
	}
}

func TestDecodeLogSkipsOtherEvents(t *testing.T) {
	transfer := cashier.Log{
		Address: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
		Topics:  [][32]byte{crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)")), {}, {}},
		Data:    make([]byte, 32),
	}
	if _, _, err := payoutcontract.DecodeLog(transfer); !errors.Is(err, payoutcontract.ErrNotPayoutEvent) {
		t.Fatalf("token Transfer: %v", err)
	}
	if _, _, err := payoutcontract.DecodeLog(cashier.Log{}); !errors.Is(err, payoutcontract.ErrNotPayoutEvent) {
		t.Fatalf("anonymous log: %v", err)
	}
	const payout = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	r, err := payoutcontract.DecodeLogs(payout, []cashier.Log{transfer})
	if err != nil || len(r.Batches)+len(r.Transfers) != 0 {
		t.Fatalf("%+v, %v", r, err)
	}
	// A payout event of the payout contract with truncated data is an
	// error, not silently skipped; the same log from another contract is
	// none of the payout contract's business.
	bad := cashier.Log{Address: payout, Topics: [][32]byte{payoutABI.GetABI().Events["PayoutTransfer"].ID, {}, {}}, Data: []byte{1}}
	if _, err := payoutcontract.DecodeLogs(payout, []cashier.Log{bad}); err == nil || errors.Is(err, payoutcontract.ErrNotPayoutEvent) {
		t.Fatalf("truncated PayoutTransfer: %v", err)
	}
	bad.Address = transfer.Address
	if r, err := payoutcontract.DecodeLogs(payout, []cashier.Log{bad, transfer}); err != nil || len(r.Transfers) != 0 {
		t.Fatalf("another contract's malformed log: %+v, %v", r, err)
	}
}

func TestDecodeRevert(t *testing.T) {
	abiErr := payoutABI.GetABI().Errors["InsufficientAllowance"]
	from := common.HexToAddress("0x3333333333333333333333333333333333333333")
	args, err := abiErr.Inputs.Pack(from, big.NewInt(5), big.NewInt(9))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := payoutcontract.DecodeRevert(append(abiErr.ID[:4:4], args...))
	if !ok || r.Name != "InsufficientAllowance" || r.Args["from"] != from ||
		r.Args["available"].(*big.Int).Int64() != 5 || r.Args["required"].(*big.Int).Int64() != 9 {
		t.Fatalf("%+v %v", r, ok)
	}
	if _, ok := payoutcontract.DecodeRevert([]byte{1, 2, 3, 4}); ok {
		t.Fatal("unknown selector decoded")
	}
	notSweeper := factoryABI.GetABI().Errors["NotSweeper"].ID
	if r, ok := payoutcontract.DecodeRevert(notSweeper[:4]); !ok || r.Name != "NotSweeper" {
		t.Fatalf("factory error: %+v %v", r, ok)
	}
}
