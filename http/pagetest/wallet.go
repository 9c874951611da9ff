package pagetest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier/tron"
)

func evmAddress(k *ecdsa.PrivateKey) string { return crypto.PubkeyToAddress(k.PublicKey).Hex() }

func tronAddress(k *ecdsa.PrivateKey) string { return tron.KeyAddress(k).String() }

// sendEVM signs and sends the page's eth_sendTransaction on the chain the
// wallet was switched to, as a wallet does: nonce, gas estimate, EIP-1559
// fees from the node.
func (w *Wallet) sendEVM(ctx context.Context, req map[string]string) (string, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(req["chainId"], "0x"), 16, 64)
	if err != nil {
		return "", fmt.Errorf("chain id %q: %w", req["chainId"], err)
	}
	rpc, ok := w.EVM[id]
	if !ok {
		return "", fmt.Errorf("the wallet does not know chain %d", id)
	}
	c, err := ethclient.DialContext(ctx, rpc)
	if err != nil {
		return "", err
	}
	defer c.Close()
	from, to := crypto.PubkeyToAddress(w.Key.PublicKey), common.HexToAddress(req["to"])
	data, err := hexutil.Decode(req["data"])
	if err != nil {
		return "", err
	}
	nonce, err := c.PendingNonceAt(ctx, from)
	if err != nil {
		return "", err
	}
	gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err != nil {
		return "", err
	}
	tip, err := c.SuggestGasTipCap(ctx)
	if err != nil {
		return "", err
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		return "", err
	}
	chain := new(big.Int).SetUint64(id)
	tx, err := types.SignNewTx(w.Key, types.LatestSignerForChainID(chain), &types.DynamicFeeTx{ChainID: chain, Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))), Gas: gas + gas/5, To: &to, Data: data})
	if err != nil {
		return "", err
	}
	return tx.Hash().Hex(), c.SendTransaction(ctx, tx)
}

// sendTRON sends the page's TRC20 transfer as TronWeb does: the node
// builds the transaction (/wallet/triggersmartcontract), the wallet signs
// its txID, the node takes it (/wallet/broadcasttransaction).
func (w *Wallet) sendTRON(ctx context.Context, req map[string]string) (string, error) {
	to, err := tron.ParseAddress(req["to"])
	if err != nil {
		return "", err
	}
	amount, ok := new(big.Int).SetString(req["amount"], 10)
	if !ok || amount.Sign() <= 0 {
		return "", fmt.Errorf("amount %q", req["amount"])
	}
	param := append(common.LeftPadBytes(to.EVM().Bytes(), 32), common.LeftPadBytes(amount.Bytes(), 32)...)
	var built struct {
		Result struct {
			Result  bool   `json:"result"`
			Message string `json:"message"`
		} `json:"result"`
		Transaction map[string]any `json:"transaction"`
	}
	err = w.post(ctx, "/wallet/triggersmartcontract", map[string]any{"owner_address": tronAddress(w.Key), "contract_address": req["token"],
		"function_selector": "transfer(address,uint256)", "parameter": hex.EncodeToString(param), "fee_limit": 100_000_000,
		"call_value": 0, "visible": true}, &built)
	if err != nil {
		return "", err
	}
	if !built.Result.Result || built.Transaction == nil {
		return "", fmt.Errorf("triggersmartcontract: %s", built.Result.Message)
	}
	txID, _ := built.Transaction["txID"].(string)
	raw, err := hex.DecodeString(txID)
	if err != nil || len(raw) != 32 {
		return "", fmt.Errorf("txID %q", txID)
	}
	sig, err := tron.Sign([32]byte(raw), w.Key)
	if err != nil {
		return "", err
	}
	built.Transaction["signature"] = []string{hex.EncodeToString(sig)}
	var sent struct {
		Result  bool   `json:"result"`
		Code    string `json:"code"`
		Message string `json:"message"`
		TxID    string `json:"txid"`
	}
	if err := w.post(ctx, "/wallet/broadcasttransaction", built.Transaction, &sent); err != nil {
		return "", err
	}
	if !sent.Result {
		return "", fmt.Errorf("broadcast: %s %s", sent.Code, sent.Message)
	}
	return txID, nil
}

func (w *Wallet) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", strings.TrimRight(w.TRON, "/")+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", path, res.Status)
	}
	return json.NewDecoder(res.Body).Decode(out)
}
