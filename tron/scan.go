package tron

import (
	"context"
	"encoding/hex"
	"math/big"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// TokenTransfers returns every Transfer event of the given TRC20 contracts
// in successful transactions of blocks [from, to], whoever received it, in
// chain order. The wallet API has no log filter, so this is one
// getblockbynum and one gettransactioninfobyblocknum per block, whatever
// the number of addresses watched; the block is read to check the infos
// against its transactions (blockWithInfos) and names the block hash.
func (c *Client) TokenTransfers(ctx context.Context, tokens []string, from, to uint64) ([]cashier.Transfer, error) {
	want, err := addressSet(tokens)
	if err != nil {
		return nil, err
	}
	if from > to || len(want) == 0 {
		return nil, nil
	}
	var out []cashier.Transfer
	err = c.tokenLogs(ctx, transferTopic, want, from, to, func(e tokenLog) {
		out = append(out, e.transfer())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// addressSet parses addrs into a set.
func addressSet(addrs []string) (map[Address]bool, error) {
	set := make(map[Address]bool, len(addrs))
	for _, s := range addrs {
		a, err := ParseAddress(s)
		if err != nil {
			return nil, err
		}
		set[a] = true
	}
	return set, nil
}

// tokenLog is a TRC20 event of ERC-20's shape (Transfer, Approval): two
// indexed addresses and a 32-byte value, and where it stands on chain.
type tokenLog struct {
	token, a, b Address // a, b: from and to, or owner and spender
	value       *big.Int
	tx          string
	index       uint // within the transaction: TRON has no block-wide index
	block       uint64
	hash        string
	time        time.Time
}

// transfer is e as a Transfer event.
func (e *tokenLog) transfer() cashier.Transfer {
	return cashier.Transfer{Chain: cashier.ChainTRON, Token: e.token.String(), From: e.a.String(), To: e.b.String(), Amount: e.value,
		TxHash: e.tx, LogIndex: e.index, BlockNumber: e.block, BlockHash: e.hash, BlockTime: e.time}
}

// tokenLogs calls fn with each topic event of one of tokens in the
// successful transactions of blocks [from, to], in chain order: one
// block and its transaction infos per block, as the wallet API has no log
// filter.
func (c *Client) tokenLogs(ctx context.Context, topic [32]byte, tokens map[Address]bool, from, to uint64, fn func(tokenLog)) error {
	return c.tokenEventLogs(ctx, map[[32]byte]func(tokenLog){topic: fn}, tokens, from, to)
}

// tokenEventLogs is tokenLogs for several topics in one pass over the
// blocks: each event goes to the function of its topic.
func (c *Client) tokenEventLogs(ctx context.Context, fns map[[32]byte]func(tokenLog), tokens map[Address]bool, from, to uint64) error {
	if from > to {
		return nil
	}
	for n := from; ; n++ {
		b, infos, err := c.blockWithInfos(ctx, n)
		if err != nil {
			return err
		}
		hash := strings.ToLower(b.BlockID)
		for _, info := range infos {
			if !info.succeeded() {
				continue
			}
			for i, l := range info.Log {
				e, topic, ok := decodeTokenLog(l, tokens)
				fn := fns[topic]
				if !ok || fn == nil {
					continue
				}
				e.tx, e.index, e.block, e.hash = strings.ToLower(info.ID), uint(i), n, hash
				e.time = time.UnixMilli(info.BlockTimeStamp).UTC()
				fn(e)
			}
		}
		if n == to { // not n <= to: n++ would wrap at the top of uint64
			return nil
		}
	}
}

// decodeTokenLog decodes l as an event of one of tokens and names its
// topic.
func decodeTokenLog(l apiLog, tokens map[Address]bool) (e tokenLog, topic [32]byte, ok bool) {
	token, err := AddressFromLog(l.Address)
	if err != nil || !tokens[token] || len(l.Topics) != 3 {
		return e, topic, false
	}
	var topics [3][32]byte
	for i, h := range l.Topics {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return e, topic, false
		}
		topics[i] = [32]byte(b)
	}
	data, err := hex.DecodeString(l.Data)
	if err != nil || len(data) != 32 {
		return e, topic, false
	}
	e.token, e.a, e.b = token, Address(topics[1][12:]), Address(topics[2][12:])
	e.value = new(big.Int).SetBytes(data)
	return e, topics[0], true
}
