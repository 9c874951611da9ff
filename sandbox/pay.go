package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/tron"
)

// PayRequest says which collection order to pay and how.
type PayRequest struct {
	OrderNo    string
	MerchantID string // default: the demo merchant
	Amount     string // decimal; default: what is still due (dueOf)
	Symbol     string // token to send; default: the order's token
}

// Payment is the transfer Pay made, as printed by `cashier sandbox pay`.
type Payment struct {
	Chain  string `json:"chain"`
	TxID   string `json:"txId"`
	From   string `json:"from"`
	To     string `json:"to"`
	Symbol string `json:"symbol"`
	Amount string `json:"amount"`
}

// PayTimeout bounds how long Pay waits for its transfer to be mined.
const PayTimeout = time.Minute

// Pay pays a collection order from the customer wallet the way a
// customer's own wallet would: it reads the order (deposit address,
// network, token, amount) from the service's store, signs a token transfer
// with the customer key and sends it to the dev chain over its public API
// (JSON-RPC, or TRON's HTTP API), then waits until it is mined. It does
// not look at the order's status: paying an expired, cancelled or paid
// order is how late and extra payments are made.
func Pay(ctx context.Context, info *Info, r cashier.Reader, req PayRequest) (*Payment, error) {
	if req.OrderNo == "" {
		return nil, errors.New("sandbox pay: --order is required")
	}
	if req.MerchantID == "" {
		req.MerchantID = info.MerchantID
	}
	if req.MerchantID == "" {
		return nil, errors.New("sandbox pay: no merchant: the service has not provisioned the demo merchant yet; give --merchant")
	}
	o, err := r.CollectionByOrderNo(ctx, req.MerchantID, req.OrderNo)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		return nil, fmt.Errorf("sandbox pay: merchant %s has no collection order %q", req.MerchantID, req.OrderNo)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox pay: %w", err)
	}
	n := info.Networks[string(o.Chain)]
	if n == nil {
		return nil, fmt.Errorf("sandbox pay: sandbox.json describes no %s network", o.Chain)
	}
	symbol := req.Symbol
	if symbol == "" {
		symbol = o.Symbol
	}
	tokenAddr := n.Tokens[symbol]
	// The sandbox's test tokens have the order tokens' decimals (6; 18 on BSC).
	decimals := o.Decimals
	native := strings.EqualFold(symbol, nativeSymbol(o.Chain))
	if native {
		// The network's own coin, sent by mistake: what the watcher
		// records as a NATIVE payment and the operator sweeps.
		symbol, tokenAddr, decimals = nativeSymbol(o.Chain), "", nativeDecimals(o.Chain)
		if req.Amount == "" {
			return nil, fmt.Errorf("sandbox pay: --amount is required to send %s", symbol)
		}
	} else if tokenAddr == "" {
		return nil, fmt.Errorf("sandbox pay: no %s token on %s (have %s, or %s)", symbol, o.Chain, strings.Join(keys(n.Tokens), ", "), nativeSymbol(o.Chain))
	}
	text := req.Amount
	if text == "" && !strings.EqualFold(symbol, o.Symbol) {
		// Another token than the order's counts nothing: its amount is
		// the order's, as a customer picking the wrong token would send.
		text = cashier.FormatAmount(o.Amount, o.Decimals)
	} else if text == "" {
		ps, err := r.PaymentsByOrder(ctx, o.ID)
		if err != nil {
			return nil, fmt.Errorf("sandbox pay: %w", err)
		}
		due := dueOf(o, ps)
		if due.Sign() <= 0 {
			return nil, fmt.Errorf("sandbox pay: nothing is due on order %s: its %s %s is received or on its way; give --amount to pay more", o.OrderNo,
				cashier.FormatAmount(o.Amount, o.Decimals), o.Symbol)
		}
		text = cashier.FormatAmount(due, o.Decimals)
	}
	amount, err := cashier.ParseAmount(text, decimals)
	if err != nil {
		return nil, fmt.Errorf("sandbox pay: --amount %q: %w", text, err)
	}
	if amount.Sign() <= 0 {
		return nil, fmt.Errorf("sandbox pay: --amount %q: must be above zero", text)
	}
	if o.DepositAddress == "" {
		// Never a transfer to an empty (zero) address.
		return nil, fmt.Errorf("sandbox pay: order %s has no deposit address yet: the customer has not chosen its network and token on the payment page", o.OrderNo)
	}
	customer := info.Wallets["customer"]
	if customer == nil {
		return nil, errors.New("sandbox pay: sandbox.json has no customer wallet")
	}
	p := &Payment{Chain: string(o.Chain), To: o.DepositAddress, Symbol: symbol, Amount: cashier.FormatAmount(amount, decimals)}
	ctx, cancel := context.WithTimeout(ctx, PayTimeout)
	defer cancel()
	if o.Chain == cashier.ChainTRON {
		p.From = customer.TRONAddress
		p.TxID, err = payTRON(ctx, n, customer, tokenAddr, o.DepositAddress, amount)
	} else {
		p.From = customer.EVMAddress
		p.TxID, err = payEVM(ctx, n, customer, tokenAddr, o.DepositAddress, amount)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox pay: %s: %w", o.Chain, err)
	}
	return p, nil
}

// dueOf is what the order still asks for, as its payment page shows it:
// the amount less what was received and what is on its way (seen in a
// block, not yet confirmed) in the order's token.
func dueOf(o *cashier.CollectionOrder, ps []cashier.Payment) *big.Int {
	due := new(big.Int).Set(o.Amount)
	if o.PaidAmount != nil {
		due.Sub(due, o.PaidAmount)
	}
	for _, p := range ps {
		if p.Status == cashier.PaymentSeen && p.Symbol == o.Symbol {
			due.Sub(due, p.Amount)
		}
	}
	if due.Sign() < 0 {
		due.SetInt64(0)
	}
	return due
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

var erc20 = bindings.NewTestUSDC()

// payEVM signs an ERC-20 transfer (EIP-1559, nonce and gas from the node)
// and waits for its receipt.
func payEVM(ctx context.Context, n *Network, w *Wallet, tokenAddr, to string, amount *big.Int) (string, error) {
	if !common.IsHexAddress(to) || (tokenAddr != "" && !common.IsHexAddress(tokenAddr)) {
		return "", fmt.Errorf("deposit address %q or token %q is not an address", to, tokenAddr)
	}
	key, err := w.Key()
	if err != nil {
		return "", err
	}
	c, err := ethclient.DialContext(ctx, n.RPCURL)
	if err != nil {
		return "", err
	}
	defer c.Close()
	from, tk := common.HexToAddress(w.EVMAddress), common.HexToAddress(tokenAddr)
	data, value := erc20.PackTransfer(common.HexToAddress(to), amount), (*big.Int)(nil)
	if tokenAddr == "" { // ether itself, straight to the deposit address
		tk, data, value = common.HexToAddress(to), nil, amount
	}
	nonce, err := c.PendingNonceAt(ctx, from)
	if err != nil {
		return "", fmt.Errorf("nonce: %w", err)
	}
	gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &tk, Data: data, Value: value})
	if err != nil {
		return "", fmt.Errorf("estimate gas (balance too low?): %w", err)
	}
	tip, err := c.SuggestGasTipCap(ctx)
	if err != nil {
		return "", err
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		return "", err
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	chainID := new(big.Int).SetUint64(n.ChainID)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas + gas/5, To: &tk, Data: data, Value: value,
	})
	if err != nil {
		return "", err
	}
	if err := c.SendTransaction(ctx, tx); err != nil {
		return "", fmt.Errorf("send: %w", err)
	}
	rc, err := devchain.WaitMined(ctx, c, tx.Hash())
	if err != nil {
		return "", err
	}
	if rc.Status != types.ReceiptStatusSuccessful {
		return "", fmt.Errorf("transfer %s reverted", tx.Hash().Hex())
	}
	return tx.Hash().Hex(), nil
}

// payTRON builds a TRC-20 transfer through the node's HTTP API, signs it
// locally and broadcasts it (the tron package's client does all three),
// then waits for its receipt.
func payTRON(ctx context.Context, n *Network, w *Wallet, tokenAddr, to string, amount *big.Int) (string, error) {
	dst, err := tron.ParseAddress(to)
	if err != nil {
		return "", fmt.Errorf("deposit address %q: %w", to, err)
	}
	key, err := w.Key()
	if err != nil {
		return "", err
	}
	c, err := tron.New(tron.Config{URLs: []string{n.RPCURL}, Key: key})
	if err != nil {
		return "", err
	}
	var h string
	if tokenAddr == "" { // TRX itself: a TransferContract, as wallets send it
		if !amount.IsInt64() {
			return "", fmt.Errorf("amount %s sun out of range", amount)
		}
		h, err = c.SendTRX(ctx, dst.String(), amount.Int64())
	} else {
		h, err = c.SendCall(ctx, cashier.Call{To: tokenAddr, Data: erc20.PackTransfer(dst.EVM(), amount)})
	}
	if err != nil {
		return "", fmt.Errorf("send: %w", err)
	}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		rc, err := c.Receipt(ctx, h)
		if err != nil {
			return "", err
		}
		if rc != nil {
			if !rc.Success {
				return "", fmt.Errorf("transfer %s failed on chain", h)
			}
			return h, nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for %s: %w", h, ctx.Err())
		case <-t.C:
		}
	}
}

// nativeSymbol is the symbol of c's own coin.
func nativeSymbol(c cashier.Chain) string { return c.CoinSymbol() }

func nativeDecimals(c cashier.Chain) int {
	if c == cashier.ChainTRON {
		return 6
	}
	return 18
}

// Transfer sends amount (base units) of the sandbox's token symbol on chain
// from the customer wallet to to, as a wallet would, and returns the
// transaction id once it is mined. Unlike Pay it needs no store: the
// deposit address comes from the order's create answer.
func Transfer(ctx context.Context, info *Info, chain cashier.Chain, symbol, to string, amount *big.Int) (string, error) {
	n := info.Networks[string(chain)]
	if n == nil {
		return "", fmt.Errorf("sandbox: sandbox.json describes no %s network", chain)
	}
	token := n.Tokens[symbol]
	if token == "" {
		return "", fmt.Errorf("sandbox: no %s token on %s", symbol, chain)
	}
	customer := info.Wallets["customer"]
	if customer == nil {
		return "", errors.New("sandbox: sandbox.json has no customer wallet")
	}
	ctx, cancel := context.WithTimeout(ctx, PayTimeout)
	defer cancel()
	if chain == cashier.ChainTRON {
		return payTRON(ctx, n, customer, token, to, amount)
	}
	return payEVM(ctx, n, customer, token, to, amount)
}
