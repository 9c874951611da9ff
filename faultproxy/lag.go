package faultproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A lagging node is answered here from the real backend as a node at
// head − Lag would answer: blocks, receipts, transaction infos and logs
// past its head are absent (null, {}, []) without an error, and account
// state (nonce, balance, calls) is as of its head.

type rpcCall struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// parseCalls reads a single call or a batch.
func parseCalls(body []byte) (calls []rpcCall, batch bool, err error) {
	t := strings.TrimSpace(string(body))
	if strings.HasPrefix(t, "[") {
		err = json.Unmarshal(body, &calls)
		return calls, true, err
	}
	var c rpcCall
	err = json.Unmarshal(body, &c)
	return []rpcCall{c}, false, err
}

// lagging answers the request as a node Lag blocks behind; ok is false
// when the request is better forwarded unchanged (the backend is too young
// to lag, or the request is not understood).
func (p *Proxy) lagging(ctx context.Context, path string, body []byte) ([]byte, bool) {
	var out []byte
	var err error
	if p.cfg.Protocol == TRON {
		out, err = p.tronLagging(ctx, path, body)
	} else {
		out, err = p.evmLagging(ctx, body)
	}
	return out, err == nil
}

func (p *Proxy) evmHead(ctx context.Context) (uint64, error) {
	var a rpcAnswer
	if err := p.post(ctx, "", rpcCall{JSONRPC: "2.0", ID: json.RawMessage("1"), Method: "eth_blockNumber", Params: []json.RawMessage{}}, &a); err != nil {
		return 0, err
	}
	var h string
	if a.Error != nil || json.Unmarshal(a.Result, &h) != nil {
		return 0, errNoLag
	}
	return strconv.ParseUint(strings.TrimPrefix(h, "0x"), 16, 64)
}

func (p *Proxy) evmLagging(ctx context.Context, body []byte) ([]byte, error) {
	calls, batch, err := parseCalls(body)
	if err != nil || len(calls) == 0 {
		return nil, errNoLag
	}
	real, err := p.evmHead(ctx)
	if err != nil || real <= p.cfg.Lag {
		return nil, errNoLag
	}
	head := real - p.cfg.Lag
	answers := make([]rpcAnswer, len(calls))
	for i, c := range calls {
		a, err := p.evmLagCall(ctx, c, head)
		if err != nil {
			return nil, err
		}
		answers[i] = a
	}
	if batch {
		return json.Marshal(answers)
	}
	return json.Marshal(answers[0])
}

var null = json.RawMessage("null")

func hexNum(n uint64) json.RawMessage {
	return json.RawMessage(strconv.Quote("0x" + strconv.FormatUint(n, 16)))
}

// blockParam resolves a block parameter against a lagging head: tags name
// the head; ok is false for a number past it.
func blockParam(raw json.RawMessage, head uint64) (n uint64, ok bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return head, true // an object (EIP-1898) or absent: as of the head
	}
	switch s {
	case "latest", "pending", "safe", "finalized", "":
		return head, true
	case "earliest":
		return 0, true
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		return head, true
	}
	return v, v <= head
}

// numberOf reads "blockNumber" (or "number") from an answer object.
func numberOf(raw json.RawMessage) (uint64, bool) {
	var o struct {
		BlockNumber *string `json:"blockNumber"`
		Number      *string `json:"number"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return 0, false
	}
	s := o.BlockNumber
	if s == nil {
		s = o.Number
	}
	if s == nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(*s, "0x"), 16, 64)
	return v, err == nil
}

func (p *Proxy) evmLagCall(ctx context.Context, c rpcCall, head uint64) (rpcAnswer, error) {
	a := rpcAnswer{JSONRPC: "2.0", ID: c.ID}
	fwd := func(c rpcCall) (rpcAnswer, error) {
		var got rpcAnswer
		if err := p.post(ctx, "", c, &got); err != nil {
			return got, err
		}
		got.ID = a.ID
		return got, nil
	}
	// setBlock rewrites params[i] to the lagging head (or a number under it).
	setBlock := func(i int) bool {
		if len(c.Params) <= i {
			c.Params = append(c.Params, hexNum(head))
			return true
		}
		n, ok := blockParam(c.Params[i], head)
		c.Params[i] = hexNum(n)
		return ok
	}
	switch c.Method {
	case "eth_blockNumber":
		a.Result = hexNum(head)
		return a, nil
	case "eth_getBlockByNumber", "eth_getHeaderByNumber":
		if !setBlock(0) {
			a.Result = null
			return a, nil
		}
		return fwd(c)
	case "eth_getTransactionCount", "eth_getBalance", "eth_getCode":
		if !setBlock(1) {
			a.Error = &rpcError{Code: -32000, Message: "header not found"}
			return a, nil
		}
		return fwd(c)
	case "eth_call":
		if !setBlock(1) {
			a.Error = &rpcError{Code: -32000, Message: "header not found"}
			return a, nil
		}
		return fwd(c)
	case "eth_getBlockByHash", "eth_getTransactionReceipt", "eth_getTransactionByHash":
		got, err := fwd(c)
		if err != nil {
			return got, err
		}
		if n, ok := numberOf(got.Result); ok && n > head {
			got.Result = null
		}
		return got, nil
	case "eth_getLogs":
		return p.evmLagLogs(ctx, c, head, fwd)
	}
	return fwd(c)
}

func (p *Proxy) evmLagLogs(ctx context.Context, c rpcCall, head uint64, fwd func(rpcCall) (rpcAnswer, error)) (rpcAnswer, error) {
	if len(c.Params) != 1 {
		return fwd(c)
	}
	var q map[string]json.RawMessage
	if json.Unmarshal(c.Params[0], &q) != nil {
		return fwd(c)
	}
	if _, pinned := q["blockHash"]; !pinned {
		from, _ := blockParam(q["fromBlock"], head)
		if _, ok := q["fromBlock"]; !ok {
			from = head
		}
		to, _ := blockParam(q["toBlock"], head)
		if _, ok := q["toBlock"]; !ok {
			to = head
		}
		if from > head {
			return rpcAnswer{JSONRPC: "2.0", ID: c.ID, Result: json.RawMessage("[]")}, nil
		}
		q["fromBlock"], q["toBlock"] = hexNum(from), hexNum(min(to, head))
		b, _ := json.Marshal(q)
		c.Params[0] = b
	}
	got, err := fwd(c)
	if err != nil || got.Error != nil {
		return got, err
	}
	var logs []json.RawMessage
	if json.Unmarshal(got.Result, &logs) != nil {
		return got, nil
	}
	kept := []json.RawMessage{}
	for _, l := range logs {
		if n, ok := numberOf(l); ok && n > head {
			if _, pinned := q["blockHash"]; pinned {
				// A node never answers for a block it does not have.
				return rpcAnswer{JSONRPC: "2.0", ID: c.ID, Error: &rpcError{Code: -32000, Message: "unknown block"}}, nil
			}
			continue
		}
		kept = append(kept, l)
	}
	got.Result, _ = json.Marshal(kept)
	return got, nil
}

// TRON

type tronBlock struct {
	BlockID     string `json:"blockID"`
	BlockHeader struct {
		RawData struct {
			Number uint64 `json:"number"`
		} `json:"raw_data"`
	} `json:"block_header"`
}

func (p *Proxy) tronHead(ctx context.Context) (uint64, error) {
	var b tronBlock
	if err := p.post(ctx, "/wallet/getnowblock", struct{}{}, &b); err != nil {
		return 0, err
	}
	if b.BlockID == "" {
		return 0, errNoLag
	}
	return b.BlockHeader.RawData.Number, nil
}

func (p *Proxy) tronLagging(ctx context.Context, path string, body []byte) ([]byte, error) {
	real, err := p.tronHead(ctx)
	if err != nil || real <= p.cfg.Lag {
		return nil, errNoLag
	}
	head := real - p.cfg.Lag
	var req struct {
		Num *uint64 `json:"num"`
	}
	json.Unmarshal(body, &req)
	raw := func(path string, body any) ([]byte, error) {
		b, _ := json.Marshal(body)
		status, _, out, err := p.forward(ctx, path, b)
		if err != nil {
			return nil, err
		}
		if status/100 != 2 {
			return nil, fmt.Errorf("faultproxy: backend answered %d", status)
		}
		return out, nil
	}
	switch {
	case strings.HasSuffix(path, "/getnowblock"):
		return raw("/wallet/getblockbynum", map[string]any{"num": head})
	case strings.HasSuffix(path, "/getblockbynum"):
		if req.Num != nil && *req.Num > head {
			return []byte("{}"), nil
		}
	case strings.HasSuffix(path, "/gettransactioninfobyblocknum"):
		if req.Num != nil && *req.Num > head {
			return []byte("[]"), nil
		}
	case strings.HasSuffix(path, "/gettransactioninfobyid"):
		out, err := raw(path, json.RawMessage(body))
		if err != nil {
			return nil, err
		}
		var info struct {
			BlockNumber uint64 `json:"blockNumber"`
		}
		if json.Unmarshal(out, &info) == nil && info.BlockNumber > head {
			return []byte("{}"), nil
		}
		return out, nil
	default:
		return nil, errNoLag
	}
	return raw(path, json.RawMessage(body))
}
