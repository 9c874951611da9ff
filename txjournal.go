package cashier

import (
	"context"
	"math/big"
	"time"
)

// JournaledTx is one signed transaction of an outgoing send of one of the
// service's accounts on an EVM network, recorded before it is broadcast:
// after a crash or a takeover by another instance no nonce is reused and
// every signed transaction can be broadcast again. A send is its first
// transaction and the replacements that share its nonce.
type JournaledTx struct {
	Send           string // hash of the send's first transaction: its identity
	Nonce          uint64
	Hash           string // hash of Raw
	Raw            []byte // the signed transaction, binary encoding
	TipCap, FeeCap *big.Int
	Time           time.Time // when it was signed
}

// TxJournals is the nonce journal of every sending account in the shared
// store, for instances on several hosts: whoever takes over an account's
// work finds the sends its last holder signed. Each call is one durable
// transaction. An account is (chainID, address), the address in any case.
type TxJournals interface {
	// AppendTx records e; recording the same transaction again changes
	// nothing.
	AppendTx(ctx context.Context, chainID uint64, account string, e JournaledTx) error
	// SettleSend closes send: mined is the hash of its transaction that
	// was mined and confirmed, or "" when none of them ever will be.
	SettleSend(ctx context.Context, chainID uint64, account, send, mined string) error
	// UnsettledTxs returns the transactions of every send not yet settled,
	// in the order they were recorded.
	UnsettledTxs(ctx context.Context, chainID uint64, account string) ([]JournaledTx, error)
	// NextJournalNonce is one more than the highest nonce of any send not
	// settled with "", or 0 when there is none.
	NextJournalNonce(ctx context.Context, chainID uint64, account string) (uint64, error)
}
