package cashier

import (
	"math/big"
	"time"
)

// Payment is one token transfer received at a collection order's deposit
// address, identified on chain by (Chain, TxHash, LogIndex): recorded once,
// whatever it did to the order, so no received transfer is invisible.
type Payment struct {
	Chain      Chain
	TxHash     string
	LogIndex   uint
	OrderID    string
	MerchantID string

	Token    string // token contract, in the network's text form
	Symbol   string
	Decimals int
	From     string
	To       string // the order's deposit address
	Amount   *big.Int

	BlockNumber uint64
	BlockHash   string
	BlockTime   time.Time

	Status PaymentStatus
	Effect PaymentEffect // what the confirmed transfer did to the order; "" before

	SeenAt      time.Time
	ConfirmedAt time.Time // zero until confirmed
	UpdatedAt   time.Time
	// ReorgedAt is set while a confirmed payment is missing: its block was
	// replaced in a reorg deeper than the confirmations and the transfer
	// was not found on the new chain. Its credit stands (the order is
	// flagged instead); it clears when the transfer is found again.
	ReorgedAt time.Time
}

// Block names the block the payment was seen in.
func (p *Payment) Block() BlockRef {
	return BlockRef{Number: p.BlockNumber, Hash: p.BlockHash, Time: p.BlockTime}
}

// PaymentEffect is what a confirmed payment did to its order.
type PaymentEffect string

const (
	EffectCredited    PaymentEffect = "CREDITED"     // counted towards a PENDING order
	EffectLate        PaymentEffect = "LATE"         // counted towards an order already EXPIRED
	EffectExtra       PaymentEffect = "EXTRA"        // arrived after the order was SUCCESS
	EffectAfterCancel PaymentEffect = "AFTER_CANCEL" // arrived after the order was CANCELLED
	EffectWrongToken  PaymentEffect = "WRONG_TOKEN"  // another token than the order's: not counted
	EffectNative      PaymentEffect = "NATIVE"       // the network's coin (ETH, TRX): not counted, swept by the operator
)

// ChainCursor is where a network's chain watcher stands: every block up to
// Confirmed has been scanned at full depth; Head is the newest block seen.
type ChainCursor struct {
	Chain         Chain
	Confirmed     uint64 // highest block whose transfers are final
	ConfirmedHash string // its hash, to notice a reorg deeper than the confirmation depth
	// ConfirmedTime is block Confirmed's time; zero when not known. Orders
	// of the network expire only once it has passed their expiry.
	ConfirmedTime time.Time
	Head          uint64 // newest block the node reported
	UpdatedAt     time.Time
}

// Confirmations returns how many blocks deep block n is under head (the
// block itself counts as one), 0 when it is above head.
func Confirmations(head, n uint64) uint64 {
	if n == 0 || n > head {
		return 0
	}
	return head - n + 1
}
