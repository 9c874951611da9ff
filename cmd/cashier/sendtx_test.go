package main

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier/devchain"
)

// sendAndWait sends value and payload from the account of the hex key to
// to on the dev chain chainID, as an operator's or customer's wallet
// would, and waits for it to be mined successfully.
func sendAndWait(t *testing.T, ctx context.Context, ec *ethclient.Client, chainID uint64, key string, to common.Address, value *big.Int, payload []byte) {
	t.Helper()
	k, err := crypto.HexToECDSA(strings.TrimPrefix(key, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(k.PublicKey)
	n, err := ec.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	head, err := ec.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := new(big.Int).SetUint64(chainID)
	tip := big.NewInt(params.GWei)
	tx := types.MustSignNewTx(k, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: n, GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas: 200_000, To: &to, Value: value, Data: payload,
	})
	if err := ec.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if r, err := devchain.WaitMined(ctx, ec, tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s: %v", tx.Hash(), err)
	}
}
