package tron

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// constantCall runs a read-only call and returns its output.
func (c *Client) constantCall(ctx context.Context, owner, contract Address, data []byte, value int64) (*apiTxExtension, error) {
	req := map[string]any{
		"owner_address":    owner.Hex(),
		"contract_address": contract.Hex(),
		"data":             hex.EncodeToString(data),
		"visible":          false,
	}
	if value != 0 {
		req["call_value"] = value
	}
	var ext apiTxExtension
	if err := c.t.post(ctx, "/wallet/triggerconstantcontract", req, &ext); err != nil {
		return nil, err
	}
	if !ext.Result.Result {
		return nil, fmt.Errorf("tron: triggerconstantcontract: %s %s", ext.Result.Code, nodeMessage(ext.Result.Message))
	}
	// An execution failure keeps result.result=true and marks the
	// transaction instead.
	if tx := ext.Transaction; tx != nil && len(tx.Ret) > 0 && tx.Ret[0].Ret == "FAILED" {
		reason := nodeMessage(ext.Result.Message)
		if len(ext.ConstantResult) > 0 {
			reason += " " + revertReason(ext.ConstantResult[0])
		}
		return nil, fmt.Errorf("%w: %s", ErrReverted, strings.TrimSpace(reason))
	}
	return &ext, nil
}

// revertReason decodes Error(string) revert data, or returns the raw hex.
func revertReason(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) < 4+64 || hex.EncodeToString(b[:4]) != "08c379a0" {
		if h == "" {
			return ""
		}
		return "data 0x" + h
	}
	// The length comes from the contract: compare it with what is there
	// rather than add to it, which a huge value would overflow.
	n := new(big.Int).SetBytes(b[4+32 : 4+64])
	if !n.IsInt64() || n.Int64() > int64(len(b)-(4+64)) {
		return "data 0x" + h
	}
	return fmt.Sprintf("%q", b[4+64:4+64+n.Int64()])
}

func (c *Client) viewUint(ctx context.Context, token string, owner Address, data []byte) (*big.Int, error) {
	t, err := ParseAddress(token)
	if err != nil {
		return nil, err
	}
	ext, err := c.constantCall(ctx, owner, t, data, 0)
	if err != nil {
		return nil, err
	}
	if len(ext.ConstantResult) == 0 {
		return nil, errors.New("tron: view call returned no result")
	}
	out, err := hex.DecodeString(ext.ConstantResult[0])
	if err != nil || len(out) != 32 {
		return nil, fmt.Errorf("tron: view call returned %q, want one uint256", ext.ConstantResult[0])
	}
	return new(big.Int).SetBytes(out), nil
}

// ViewUint calls a view function of contract returning one uint256 (or a
// bool); the contract itself is the caller, as a view needs one.
func (c *Client) ViewUint(ctx context.Context, contract string, data []byte) (*big.Int, error) {
	k, err := ParseAddress(contract)
	if err != nil {
		return nil, err
	}
	return c.viewUint(ctx, contract, k, data)
}

// Code returns the runtime code at addr (/wallet/getcontractinfo), empty
// when no contract is there.
func (c *Client) Code(ctx context.Context, addr string) ([]byte, error) {
	a, err := ParseAddress(addr)
	if err != nil {
		return nil, err
	}
	var info struct {
		RuntimeCode string `json:"runtimecode"`
	}
	if err := c.t.post(ctx, "/wallet/getcontractinfo", map[string]any{"value": a.Hex(), "visible": false}, &info); err != nil {
		return nil, err
	}
	code, err := hex.DecodeString(strings.TrimPrefix(info.RuntimeCode, "0x"))
	if err != nil {
		return nil, fmt.Errorf("tron: getcontractinfo of %s: runtime code is not hex", addr)
	}
	return code, nil
}

// CallView runs a read-only call of contract (the contract itself as the
// caller) and returns its raw output.
func (c *Client) CallView(ctx context.Context, contract string, data []byte) ([]byte, error) {
	k, err := ParseAddress(contract)
	if err != nil {
		return nil, err
	}
	ext, err := c.constantCall(ctx, k, k, data, 0)
	if err != nil {
		return nil, err
	}
	if len(ext.ConstantResult) == 0 {
		return nil, nil
	}
	return hex.DecodeString(ext.ConstantResult[0])
}
