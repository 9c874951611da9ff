package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	cashier "github.com/stablecashier/cashier"
)

// TokenTransfers returns every Transfer event of the given token contracts
// in blocks [from, to], whoever received it, in chain order: one
// eth_getLogs per LogChunk blocks for all tokens together, checked against
// the blocks' headers (verifiedLogs). The chain watcher matches recipients
// against its own index, so the cost of a scan follows the blocks, never
// the number of addresses watched.
func (c *Client) TokenTransfers(ctx context.Context, tokens []string, from, to uint64) ([]cashier.Transfer, error) {
	if len(tokens) == 0 || from > to {
		return nil, nil
	}
	addrs, err := parseAddresses(tokens)
	if err != nil {
		return nil, err
	}
	q := ethereum.FilterQuery{Addresses: addrs, Topics: [][]common.Hash{{TransferTopic}}}
	times := map[uint64]time.Time{}
	logs, err := c.chunkedLogs(from, to, func(start, end uint64) ([]types.Log, error) {
		return c.verifiedLogs(ctx, "transfer logs", q, start, end, times)
	})
	if err != nil {
		return nil, err
	}
	out := make([]cashier.Transfer, 0, len(logs))
	for _, l := range logs {
		if tr, ok := c.transferOf(l); ok {
			tr.BlockTime = times[l.BlockNumber]
			out = append(out, tr)
		}
	}
	return out, nil
}

// transferOf decodes l as an ERC-20 Transfer, BlockTime left zero.
func (c *Client) transferOf(l types.Log) (cashier.Transfer, bool) {
	from, to, amount, ok := tokenEvent(l)
	if !ok {
		return cashier.Transfer{}, false
	}
	return cashier.Transfer{Chain: c.cfg.Chain, Token: l.Address.Hex(), From: from, To: to, Amount: amount,
		TxHash: l.TxHash.Hex(), LogIndex: l.Index, BlockNumber: l.BlockNumber, BlockHash: l.BlockHash.Hex()}, true
}

// tokenEvent decodes l as an ERC-20 Transfer or Approval: two indexed
// addresses and a 32-byte value. ERC-721 puts the token id in a fourth
// topic under the same signatures: that is no token payment.
func tokenEvent(l types.Log) (a, b string, value *big.Int, ok bool) {
	if l.Removed || len(l.Topics) != 3 || len(l.Data) != 32 {
		return "", "", nil, false
	}
	a = common.BytesToAddress(l.Topics[1][:]).Hex()
	b = common.BytesToAddress(l.Topics[2][:]).Hex()
	return a, b, new(big.Int).SetBytes(l.Data), true
}

// parseAddresses parses each of addrs.
func parseAddresses(addrs []string) ([]common.Address, error) {
	out := make([]common.Address, 0, len(addrs))
	for _, s := range addrs {
		a, err := parseAddress(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// addressTopics parses each of addrs as an indexed event argument.
func addressTopics(addrs []string) ([]common.Hash, error) {
	parsed, err := parseAddresses(addrs)
	if err != nil {
		return nil, err
	}
	out := make([]common.Hash, 0, len(parsed))
	for _, a := range parsed {
		out = append(out, common.BytesToHash(a[:]))
	}
	return out, nil
}

// getLogs runs q over blocks [from, to]. A node that answers but refuses
// is most often at a range or result-size limit: the range is halved, and
// a one-block range that still fails is a real error, named by what.
func (c *Client) getLogs(ctx context.Context, what string, q ethereum.FilterQuery, from, to uint64) ([]types.Log, error) {
	q.FromBlock = new(big.Int).SetUint64(from)
	q.ToBlock = new(big.Int).SetUint64(to)
	var logs []types.Log
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		logs, err = ec.FilterLogs(ctx, q)
		return err
	})
	if err != nil && from < to && ctx.Err() == nil && !retryable(err) && tooLarge(err) {
		mid := from + (to-from)/2
		a, err := c.getLogs(ctx, what, q, from, mid)
		if err != nil {
			return nil, err
		}
		b, err := c.getLogs(ctx, what, q, mid+1, to)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	if err != nil {
		return nil, fmt.Errorf("evm: %s %d-%d: %w", what, from, to, err)
	}
	return logs, nil
}

// chunkedLogs runs fetch over [from, to] in ranges of at most LogChunk
// blocks (nodes cap the range of one eth_getLogs) and returns the logs in
// chain order.
func (c *Client) chunkedLogs(from, to uint64, fetch func(start, end uint64) ([]types.Log, error)) ([]types.Log, error) {
	var logs []types.Log
	for start := from; start <= to; {
		end := min(to, start+c.cfg.LogChunk-1)
		got, err := fetch(start, end)
		if err != nil {
			return nil, err
		}
		logs = append(logs, got...)
		if end == to {
			break
		}
		start = end + 1
	}
	slices.SortFunc(logs, func(a, b types.Log) int {
		if a.BlockNumber != b.BlockNumber {
			return cmpU64(a.BlockNumber, b.BlockNumber)
		}
		return cmpU64(uint64(a.Index), uint64(b.Index))
	})
	return logs, nil
}

// ErrBehind reports a node that answered as if a block it was asked about
// did not exist yet. Behind a provider's load balancer, nodes at different
// heights answer in turn, and one behind a block answers it, its receipts
// and a log range reaching past its head as null or [] without an error.
// Such an answer is never taken as "no events": it is asked again.
var ErrBehind = errors.New("evm: node is behind the block asked for")

// headerBatch is how many headers one batched request asks for.
const headerBatch = 100

// rpcHeader is the part of eth_getBlockByNumber(n, false) the log check
// reads.
type rpcHeader struct {
	Hash      common.Hash    `json:"hash"`
	Number    hexutil.Uint64 `json:"number"`
	Timestamp hexutil.Uint64 `json:"timestamp"`
	Bloom     types.Bloom    `json:"logsBloom"`
}

// verifiedLogs runs q over blocks [start, end] and checks the answer
// against the blocks themselves, because an eth_getLogs answer does not
// say which head the node had: a node behind the range answers [] for the
// blocks it lacks. Every block's header is read (batched; a node without
// the block answers null, which is retried, never skipped); every log
// must carry its block's hash; and a block whose logs bloom admits q but
// for which the answer has no log is asked again by block hash (EIP-234),
// which a node without that block cannot answer with []. times receives
// each block's time.
func (c *Client) verifiedLogs(ctx context.Context, what string, q ethereum.FilterQuery, start, end uint64, times map[uint64]time.Time) ([]types.Log, error) {
	var err error
	for attempt := 0; attempt < c.cfg.Attempts; attempt++ {
		if attempt > 0 {
			if werr := sleep(ctx, c.rpc.backoff(attempt)); werr != nil {
				return nil, errors.Join(werr, err)
			}
		}
		var logs []types.Log
		logs, err = c.checkedLogs(ctx, what, q, start, end, times)
		if err == nil || !errors.Is(err, ErrBehind) {
			return logs, err
		}
	}
	return nil, err
}

func (c *Client) checkedLogs(ctx context.Context, what string, q ethereum.FilterQuery, start, end uint64, times map[uint64]time.Time) ([]types.Log, error) {
	logs, err := c.getLogs(ctx, what, q, start, end)
	if err != nil {
		return nil, err
	}
	hs, err := c.headers(ctx, start, end)
	if err != nil {
		return nil, err
	}
	has := map[uint64]bool{}
	for _, l := range logs {
		if l.BlockNumber < start || l.BlockNumber > end {
			return nil, fmt.Errorf("evm: %s %d-%d: a log of block %d", what, start, end, l.BlockNumber)
		}
		if h := hs[l.BlockNumber-start]; l.BlockHash != h.Hash {
			// The chain changed between the two answers, or they came from
			// nodes on different branches: ask both again.
			return nil, fmt.Errorf("%w: %s: block %d is %s, a log names %s", ErrBehind, what, l.BlockNumber, h.Hash.Hex(), l.BlockHash.Hex())
		}
		has[l.BlockNumber] = true
	}
	for _, h := range hs {
		n := uint64(h.Number)
		times[n] = time.Unix(int64(h.Timestamp), 0).UTC()
		if has[n] || !bloomAdmits(h.Bloom, q) {
			continue
		}
		pinned, err := c.blockLogs(ctx, what, q, h.Hash)
		if err != nil {
			return nil, err
		}
		logs = append(logs, pinned...)
	}
	return logs, nil
}

// blockLogs runs q on the one block named by hash.
func (c *Client) blockLogs(ctx context.Context, what string, q ethereum.FilterQuery, hash common.Hash) ([]types.Log, error) {
	q.FromBlock, q.ToBlock, q.BlockHash = nil, nil, &hash
	var logs []types.Log
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		logs, err = ec.FilterLogs(ctx, q)
		if err != nil && unknownBlock(err) {
			err = fmt.Errorf("%w: %v", ErrBehind, err)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: %s of block %s: %w", what, hash.Hex(), err)
	}
	for _, l := range logs {
		if l.BlockHash != hash {
			return nil, fmt.Errorf("%w: %s of block %s: a log of block %s", ErrBehind, what, hash.Hex(), l.BlockHash.Hex())
		}
	}
	return logs, nil
}

// unknownBlock reports a node's "I do not have this block" answer.
func unknownBlock(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unknown block") || strings.Contains(msg, "not found") || strings.Contains(msg, "cannot be found")
}

// bloomAdmits reports whether a block with bloom b may hold a log q asks
// for: one of its addresses and, per topic position, one of its topics.
func bloomAdmits(b types.Bloom, q ethereum.FilterQuery) bool {
	if len(q.Addresses) > 0 && !slices.ContainsFunc(q.Addresses, func(a common.Address) bool { return types.BloomLookup(b, a) }) {
		return false
	}
	for _, set := range q.Topics {
		if len(set) > 0 && !slices.ContainsFunc(set, func(t common.Hash) bool { return types.BloomLookup(b, t) }) {
			return false
		}
	}
	return true
}

// headers reads the headers of blocks [from, to], headerBatch to a request.
// A null or mismatched answer is ErrBehind, retried on the next node.
func (c *Client) headers(ctx context.Context, from, to uint64) ([]rpcHeader, error) {
	out := make([]rpcHeader, 0, to-from+1)
	for start := from; start <= to; {
		end := min(to, start+headerBatch-1)
		part := make([]rpcHeader, end-start+1)
		err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) error {
			batch := make([]rpc.BatchElem, len(part))
			for i := range batch {
				part[i] = rpcHeader{}
				batch[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeUint64(start + uint64(i)), false}, Result: &part[i]}
			}
			var err error
			if c.noBatch.Load() {
				for i := range batch {
					if batch[i].Error = ec.Client().CallContext(ctx, batch[i].Result, batch[i].Method, batch[i].Args...); batch[i].Error != nil && retryable(batch[i].Error) {
						return batch[i].Error
					}
				}
			} else {
				err = ec.Client().BatchCallContext(ctx, batch)
			}
			if err != nil {
				return err
			}
			for i, b := range batch {
				if b.Error != nil {
					return b.Error
				}
				if h := part[i]; h.Hash == (common.Hash{}) || uint64(h.Number) != start+uint64(i) {
					return fmt.Errorf("%w: block %d missing from the node's answer", ErrBehind, start+uint64(i))
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("evm: headers %d-%d: %w", start, end, err)
		}
		out = append(out, part...)
		if end == to {
			break
		}
		start = end + 1
	}
	return out, nil
}
