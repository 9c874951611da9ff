package cashier

import (
	"context"
	"fmt"
	"math/big"
	"time"
)

// ChainClient is everything the service uses of one network. The evm
// package implements it for Ethereum and Arbitrum over JSON-RPC, the tron
// package for TRON over the full-node HTTP API. Addresses are in the
// network's own text form (0x… EIP-55 for EVM, base58check T… for TRON);
// transaction hashes are lowercase hex (0x-prefixed on EVM, bare on TRON).
type ChainClient interface {
	Chain() Chain

	// ValidateAddress reports whether addr is a valid address on this
	// network (EIP-55 checksum when mixed case; base58check on TRON) and
	// returns its canonical text form.
	ValidateAddress(addr string) (string, error)

	// Head returns the latest block the node knows.
	Head(ctx context.Context) (BlockRef, error)
	// BlockByNumber returns the hash of the block at n, used to detect reorgs
	// under a height the service recorded.
	BlockByNumber(ctx context.Context, n uint64) (BlockRef, error)

	TokenBalance(ctx context.Context, token, owner string) (*big.Int, error)
	Allowance(ctx context.Context, token, owner, spender string) (*big.Int, error)

	// TransferLogs returns token Transfer events to any of the watched
	// addresses in blocks [from, to], in chain order.
	TransferLogs(ctx context.Context, token string, to []string, from, toBlock uint64) ([]Transfer, error)

	// SendCall signs and broadcasts a contract call from the client's
	// sending account and returns its hash; it does not wait for inclusion.
	SendCall(ctx context.Context, call Call) (string, error)
	// Receipt returns the outcome of a sent transaction, or (nil, nil) while
	// it is not yet included.
	Receipt(ctx context.Context, txHash string) (*Receipt, error)
}

// BlockRef names one block.
type BlockRef struct {
	Number uint64
	Hash   string
	Time   time.Time
}

// Transfer is one token transfer event, identified on chain by TxHash and
// LogIndex: the pair every on-chain effect is deduplicated on.
type Transfer struct {
	Chain       Chain
	Token       string
	From        string
	To          string
	Amount      *big.Int
	TxHash      string
	LogIndex    uint
	BlockNumber uint64
	BlockHash   string
	BlockTime   time.Time
}

// Call is a contract call to send: ABI-encoded input (the same encoding on
// TRON's TVM) to a contract address.
type Call struct {
	To       string
	Data     []byte
	Value    *big.Int // native coin, usually nil
	GasLimit uint64   // 0: estimate (EVM) / default fee limit (TRON)
	// MaxGas, when set, bounds an estimated EVM gas limit: an estimate above
	// it sends nothing (GasCapError), and the headroom stops at it, so a
	// call never burns more than MaxGas of the sender's coin.
	MaxGas uint64
}

// GasCapError: the call's gas estimate exceeds its MaxGas; nothing was sent.
type GasCapError struct {
	Estimate, Cap uint64
}

func (e *GasCapError) Error() string {
	return fmt.Sprintf("gas estimate %d exceeds the cap %d of this call", e.Estimate, e.Cap)
}

// Receipt is the outcome of an included transaction.
type Receipt struct {
	TxHash      string
	Success     bool
	BlockNumber uint64
	BlockHash   string
	GasUsed     uint64
	Fee         *big.Int // native coin spent, base units
	Logs        []Log
}

// Log is one raw event log of a receipt.
type Log struct {
	Address string
	Topics  [][32]byte
	Data    []byte
	Index   uint
}

// TransferHistory is implemented by chain clients that can list every
// token transfer into or out of one account: the ledger of a payout
// contract's holdings is read from it, so that it sums to the balance.
type TransferHistory interface {
	// AccountTransfers returns token's Transfer events whose sender or
	// receiver is account, in blocks [from, to], in chain order.
	AccountTransfers(ctx context.Context, token, account string, from, to uint64) ([]Transfer, error)
}
