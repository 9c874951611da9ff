package tron

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// chainPrices are the network's resource prices in sun.
type chainPrices struct {
	energy    int64 // per energy unit (getEnergyFee)
	bandwidth int64 // per byte (getTransactionFee)
}

func (c *Client) chainPrices(ctx context.Context) (chainPrices, error) {
	c.mu.Lock()
	if c.clock.Now().Before(c.pricesUntil) {
		p := c.prices
		c.mu.Unlock()
		return p, nil
	}
	c.mu.Unlock()
	var resp apiChainParameters
	if err := c.t.post(ctx, "/wallet/getchainparameters", struct{}{}, &resp); err != nil {
		return chainPrices{}, err
	}
	var p chainPrices
	for _, kv := range resp.ChainParameter {
		switch kv.Key {
		case "getEnergyFee":
			p.energy = kv.Value
		case "getTransactionFee":
			p.bandwidth = kv.Value
		}
	}
	if p.energy <= 0 || p.bandwidth <= 0 {
		return chainPrices{}, errors.New("tron: getchainparameters lacks getEnergyFee or getTransactionFee")
	}
	c.mu.Lock()
	c.prices, c.pricesUntil = p, c.clock.Now().Add(10*time.Minute)
	c.mu.Unlock()
	return p, nil
}

// SendCall estimates the call's energy, checks that the sender can pay for
// it within the fee limit, has the node build the transaction, verifies
// what was built, signs it and broadcasts it. A nonzero call.GasLimit is
// an energy limit: fee_limit becomes GasLimit times the energy price.
func (c *Client) SendCall(ctx context.Context, call cashier.Call) (string, error) {
	s, err := c.SignCall(ctx, call)
	if err != nil {
		return "", err
	}
	return c.Broadcast(ctx, s.Raw)
}

// SignCall does everything SendCall does short of broadcasting: the
// affordability pre-flight (a revert surfaces here), building, verifying
// and signing. A caller that must never sign a second transaction while
// the first could still land journals the result before Broadcast.
func (c *Client) SignCall(ctx context.Context, call cashier.Call) (*SignedTx, error) {
	if c.key == nil {
		return nil, ErrNoKey
	}
	to, err := ParseAddress(call.To)
	if err != nil {
		return nil, err
	}
	var value int64
	if call.Value != nil {
		if call.Value.Sign() < 0 || !call.Value.IsInt64() {
			return nil, fmt.Errorf("tron: call value %s sun out of range", call.Value)
		}
		value = call.Value.Int64()
	}
	prices, err := c.chainPrices(ctx)
	if err != nil {
		return nil, err
	}
	feeLimit := c.feeLimit
	if call.GasLimit > 0 {
		if call.GasLimit > uint64(MaxFeeLimit/prices.energy) {
			return nil, fmt.Errorf("tron: energy limit %d exceeds the network's fee limit cap", call.GasLimit)
		}
		feeLimit = int64(call.GasLimit) * prices.energy
	}
	want := TriggerCall{Owner: c.from, Contract: to, CallValue: value, Data: call.Data}
	if err := c.checkAffordable(ctx, &want, feeLimit, prices); err != nil {
		return nil, err
	}
	tx, err := c.build(ctx, &want, feeLimit)
	if err != nil {
		return nil, err
	}
	id, err := c.verify(tx, &want, feeLimit)
	if err != nil {
		return nil, err
	}
	sig, err := Sign(id, c.key)
	if err != nil {
		return nil, err
	}
	tx.Signature = []string{hex.EncodeToString(sig)}
	return signedTx(tx, id)
}

// checkAffordable refuses a call the sender cannot pay for: energy beyond
// the account's own is burned at the energy price and must fit in
// feeLimit, and that burn plus any bandwidth fee plus call value must fit
// in the TRX balance.
func (c *Client) checkAffordable(ctx context.Context, call *TriggerCall, feeLimit int64, prices chainPrices) error {
	var res apiAccountResource
	if err := c.t.post(ctx, "/wallet/getaccountresource", map[string]any{"address": call.Owner.Hex()}, &res); err != nil {
		return err
	}
	var acct apiAccount
	if err := c.t.post(ctx, "/wallet/getaccount", map[string]any{"address": call.Owner.Hex()}, &acct); err != nil {
		return err
	}
	if acct.Address == "" {
		return fmt.Errorf("%w: account %s does not exist on chain (never received TRX)", ErrInsufficientTRX, call.Owner)
	}
	ext, err := c.constantCall(ctx, call.Owner, call.Contract, call.Data, call.CallValue)
	if err != nil {
		return err
	}
	burnEnergy := max(0, ext.EnergyUsed-max(0, res.EnergyLimit-res.EnergyUsed))
	energyCost := burnEnergy * prices.energy
	if energyCost > feeLimit {
		return fmt.Errorf("%w: about %d energy to burn costs %d sun, fee limit is %d sun", ErrFeeLimit, burnEnergy, energyCost, feeLimit)
	}
	size := int64(len(NewTriggerRaw(call).Marshal())) + rawHeaderBytes + txOverheadBytes
	freeNet := max(0, res.FreeNetLimit-res.FreeNetUsed) + max(0, res.NetLimit-res.NetUsed)
	var netCost int64
	if freeNet < size {
		netCost = size * prices.bandwidth
	}
	if need := energyCost + netCost + call.CallValue; need > acct.Balance {
		return fmt.Errorf("%w: needs about %d sun (energy %d, bandwidth %d, value %d), balance is %d", ErrInsufficientTRX, need, energyCost, netCost, call.CallValue, acct.Balance)
	}
	return nil
}

func (c *Client) build(ctx context.Context, call *TriggerCall, feeLimit int64) (*apiTransaction, error) {
	req := map[string]any{
		"owner_address":    call.Owner.Hex(),
		"contract_address": call.Contract.Hex(),
		"data":             hex.EncodeToString(call.Data),
		"fee_limit":        feeLimit,
		"call_value":       call.CallValue,
		"visible":          false,
	}
	var ext apiTxExtension
	if err := c.t.post(ctx, "/wallet/triggersmartcontract", req, &ext); err != nil {
		return nil, err
	}
	if !ext.Result.Result || ext.Transaction == nil {
		return nil, fmt.Errorf("tron: triggersmartcontract: %s %s", ext.Result.Code, nodeMessage(ext.Result.Message))
	}
	return ext.Transaction, nil
}

// verify checks a node-built transaction before anything is signed: the id
// must be sha256 of raw_data_hex, raw_data_hex must encode exactly the
// requested call, and the raw_data JSON the node will re-encode on
// broadcast must say the same.
func (c *Client) verify(tx *apiTransaction, want *TriggerCall, feeLimit int64) ([32]byte, error) {
	raw, err := hex.DecodeString(tx.RawDataHex)
	if err != nil {
		return [32]byte{}, fmt.Errorf("%w: raw_data_hex is not hex", ErrTxMismatch)
	}
	id := sha256.Sum256(raw)
	if !strings.EqualFold(tx.TxID, hex.EncodeToString(id[:])) {
		return id, fmt.Errorf("%w: txID %s, sha256(raw_data_hex) %x", ErrTxIDMismatch, tx.TxID, id)
	}
	r, err := UnmarshalRawData(raw)
	if err != nil {
		return id, fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	if r.Contract.Type != TriggerSmartContract || r.Contract.TypeURL != TriggerSmartContract.TypeURL() || r.Contract.PermissionID != 0 {
		return id, fmt.Errorf("%w: contract is %s (%s, permission %d)", ErrTxMismatch, r.Contract.Type, r.Contract.TypeURL, r.Contract.PermissionID)
	}
	got, err := UnmarshalTriggerCall(r.Contract.Value)
	if err != nil {
		return id, fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	switch {
	case got.Owner != want.Owner:
		return id, fmt.Errorf("%w: owner %s", ErrTxMismatch, got.Owner)
	case got.Contract != want.Contract:
		return id, fmt.Errorf("%w: contract %s", ErrTxMismatch, got.Contract)
	case got.CallValue != want.CallValue:
		return id, fmt.Errorf("%w: call value %d", ErrTxMismatch, got.CallValue)
	case !bytes.Equal(got.Data, want.Data):
		return id, fmt.Errorf("%w: call data differs", ErrTxMismatch)
	case r.FeeLimit != feeLimit:
		return id, fmt.Errorf("%w: fee_limit %d, asked %d", ErrTxMismatch, r.FeeLimit, feeLimit)
	case len(r.Data) != 0:
		return id, fmt.Errorf("%w: unexpected memo", ErrTxMismatch)
	case len(r.RefBlockBytes) != 2 || len(r.RefBlockHash) != 8:
		return id, fmt.Errorf("%w: malformed reference block", ErrTxMismatch)
	}
	now := c.clock.Now().UnixMilli()
	if r.Expiration <= r.Timestamp || r.Expiration > now+maxExpiry.Milliseconds() {
		return id, fmt.Errorf("%w: expiration %d out of range (timestamp %d, now %d)", ErrTxMismatch, r.Expiration, r.Timestamp, now)
	}
	if err := sameAsJSON(tx.RawData, r, got); err != nil {
		return id, fmt.Errorf("%w: raw_data JSON: %v", ErrTxMismatch, err)
	}
	return id, nil
}

func sameAsJSON(j json.RawMessage, r *RawData, call *TriggerCall) error {
	var d apiRawData
	if err := json.Unmarshal(j, &d); err != nil {
		return err
	}
	if len(d.Contract) != 1 {
		return fmt.Errorf("%d contracts", len(d.Contract))
	}
	v := d.Contract[0].Parameter.Value
	switch {
	case d.Contract[0].Type != r.Contract.Type.String() || d.Contract[0].Parameter.TypeURL != r.Contract.TypeURL:
		return errors.New("contract type differs")
	case !strings.EqualFold(v.OwnerAddress, call.Owner.Hex()) || !strings.EqualFold(v.ContractAddress, call.Contract.Hex()):
		return errors.New("addresses differ")
	case !strings.EqualFold(v.Data, hex.EncodeToString(call.Data)) || v.CallValue != call.CallValue:
		return errors.New("call differs")
	case d.FeeLimit != r.FeeLimit || d.Expiration != r.Expiration || d.Timestamp != r.Timestamp || d.Data != "":
		return errors.New("limits or times differ")
	case !strings.EqualFold(d.RefBlockBytes, hex.EncodeToString(r.RefBlockBytes)) || !strings.EqualFold(d.RefBlockHash, hex.EncodeToString(r.RefBlockHash)):
		return errors.New("reference block differs")
	}
	return nil
}

func (c *Client) broadcast(ctx context.Context, tx *apiTransaction) error {
	var res apiBroadcastResult
	if err := c.t.post(ctx, "/wallet/broadcasttransaction", tx, &res); err != nil {
		return err
	}
	// A retry after a lost answer meets its own first attempt.
	if res.Result || res.Code == "DUP_TRANSACTION_ERROR" {
		return nil
	}
	return fmt.Errorf("tron: broadcast %s refused: %s %s", tx.TxID, res.Code, nodeMessage(res.Message))
}

func (c *Client) Receipt(ctx context.Context, txHash string) (*cashier.Receipt, error) {
	h := strings.ToLower(strings.TrimPrefix(txHash, "0x"))
	if b, err := hex.DecodeString(h); err != nil || len(b) != 32 {
		return nil, fmt.Errorf("tron: %q is not a transaction id", txHash)
	}
	var info apiTxInfo
	if err := c.t.post(ctx, "/wallet/gettransactioninfobyid", map[string]any{"value": h}, &info); err != nil {
		return nil, err
	}
	if info.ID == "" {
		return nil, nil // not in a block yet
	}
	if !strings.EqualFold(info.ID, h) {
		return nil, fmt.Errorf("tron: asked for %s, node returned info of %s", h, info.ID)
	}
	b, err := c.block(ctx, info.BlockNumber)
	if err != nil {
		return nil, err
	}
	r := &cashier.Receipt{
		TxHash:      h,
		Success:     info.succeeded(),
		BlockNumber: info.BlockNumber,
		BlockHash:   strings.ToLower(b.BlockID),
		GasUsed:     uint64(max(0, info.Receipt.EnergyUsageTotal)),
		Fee:         big.NewInt(info.Fee),
	}
	for i, l := range info.Log {
		a, err := AddressFromLog(l.Address)
		if err != nil {
			return nil, fmt.Errorf("tron: receipt of %s: %w", h, err)
		}
		lg := cashier.Log{Address: a.String(), Index: uint(i)}
		for _, t := range l.Topics {
			tb, err := hex.DecodeString(t)
			if err != nil || len(tb) != 32 {
				return nil, fmt.Errorf("tron: receipt of %s: bad topic %q", h, t)
			}
			lg.Topics = append(lg.Topics, [32]byte(tb))
		}
		if lg.Data, err = hex.DecodeString(l.Data); err != nil {
			return nil, fmt.Errorf("tron: receipt of %s: bad log data", h)
		}
		r.Logs = append(r.Logs, lg)
	}
	return r, nil
}
