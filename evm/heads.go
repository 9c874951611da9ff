package evm

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/core/types"
	cashier "github.com/stablecashier/cashier"
)

// ErrNoHeadFeed reports a client none of whose URLs is a WebSocket one:
// new heads cannot be followed as they are made, only polled.
var ErrNoHeadFeed = errors.New("evm: no WebSocket URL to follow new heads on")

// FollowsHeads reports whether the client has a WebSocket URL to follow
// new heads on.
func (c *Client) FollowsHeads() bool {
	for _, u := range c.rpc.urls {
		if isWebSocket(u) {
			return true
		}
	}
	return false
}

// FollowHeads follows the chain's new heads (eth_subscribe newHeads over
// the client's WebSocket URLs) until ctx ends, calling fn with each one and
// up with true once a subscription is in place and false when it breaks.
// A broken subscription is made again, on the next WebSocket URL, after a
// growing pause (the client's backoff). Heads are hints: a watcher still
// reads the chain itself, so a head missed while reconnecting loses
// nothing. It returns ErrNoHeadFeed at once when there is no WebSocket URL,
// and ctx's error when ctx ends.
func (c *Client) FollowHeads(ctx context.Context, fn func(cashier.BlockRef), up func(bool)) error {
	e := c.rpc
	var ws []int
	for i, u := range e.urls {
		if isWebSocket(u) {
			ws = append(ws, i)
		}
	}
	if len(ws) == 0 {
		return ErrNoHeadFeed
	}
	fails := 0
	for k := 0; ; k++ {
		i := ws[k%len(ws)]
		err := e.subscribeHeads(ctx, i, fn, up)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil {
			fails = 0 // it ran, then broke: try again at once
		} else {
			fails++
		}
		if fails > 0 {
			if werr := sleep(ctx, e.backoff(min(fails, 16))); werr != nil {
				return werr
			}
		}
	}
}

// subscribeHeads holds one subscription on node i until it breaks (nil
// after it delivered, an error when it could not be made) or ctx ends.
func (e *endpoints) subscribeHeads(ctx context.Context, i int, fn func(cashier.BlockRef), up func(bool)) error {
	if e.nodes[i].WrongChain() != "" {
		return errWrongChain
	}
	dctx, cancel := context.WithTimeout(ctx, e.timeout)
	err := e.checkNode(dctx, i)
	if err != nil {
		cancel()
		return err
	}
	c, err := e.conn(dctx, i)
	if err != nil {
		cancel()
		return err
	}
	heads := make(chan *types.Header, 16)
	sub, err := c.SubscribeNewHead(dctx, heads)
	cancel()
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	up(true)
	defer up(false)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Err():
			// The connection broke: the next subscription, or the
			// watcher's poll meanwhile, carries on.
			return nil
		case h := <-heads:
			e.nodes[i].Succeeded()
			fn(blockRef(h))
		}
	}
}
