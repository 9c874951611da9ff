package payoutcontract

import (
	"errors"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// Mode is the funding mode of a payout, numbered as the interface's
// payoutType.
type Mode int

const (
	ModeBalance   Mode = 1
	ModeAllowance Mode = 2
)

// BatchEvent is a BatchPayoutWithBalance or BatchPayoutWithAllowance event:
// one per successful payout call.
type BatchEvent struct {
	Contract       string // emitting address, as in the log
	Mode           Mode
	Token          common.Address
	From           common.Address // zero in balance mode
	TotalAmount    *big.Int
	TotalFee       *big.Int
	RecipientCount uint64
	Nonce          *big.Int
	Timestamp      uint64
	Operator       common.Address
	LogIndex       uint
}

// TransferEvent is a PayoutTransfer event: recipient number Index of the
// batch signed with Nonce received Amount.
type TransferEvent struct {
	Contract  string
	Nonce     *big.Int
	Index     uint64
	Recipient common.Address
	Amount    *big.Int
	LogIndex  uint
}

// Receipt holds the payout events of one transaction.
type Receipt struct {
	Batches   []BatchEvent
	Transfers []TransferEvent
}

// DecodeLogs picks the payout events of contract (an address in the same
// text form as the logs') out of a receipt's logs. Logs of every other
// contract are skipped unread: any contract can emit logs with these
// signatures, and a token's malformed log must not hide the payout's own.
func DecodeLogs(contract string, logs []cashier.Log) (Receipt, error) {
	var r Receipt
	for _, l := range logs {
		if !strings.EqualFold(l.Address, contract) {
			continue
		}
		b, t, err := DecodeLog(l)
		switch {
		case errors.Is(err, ErrNotPayoutEvent):
			continue
		case err != nil:
			return Receipt{}, err
		case b != nil:
			r.Batches = append(r.Batches, *b)
		case t != nil:
			r.Transfers = append(r.Transfers, *t)
		}
	}
	return r, nil
}

// ErrNotPayoutEvent is returned by DecodeLog for logs that are none of the
// payout events.
var ErrNotPayoutEvent = errors.New("not a payout event")

// DecodeLog decodes one payout event; exactly one of the results is non-nil
// on success.
func DecodeLog(l cashier.Log) (*BatchEvent, *TransferEvent, error) {
	if len(l.Topics) == 0 {
		return nil, nil, ErrNotPayoutEvent
	}
	tl := toTypesLog(l)
	switch common.Hash(l.Topics[0]) {
	case payoutABI.GetABI().Events["BatchPayoutWithBalance"].ID:
		e, err := payoutABI.UnpackBatchPayoutWithBalanceEvent(tl)
		if err != nil {
			return nil, nil, err
		}
		return &BatchEvent{
			Contract: l.Address, Mode: ModeBalance, Token: e.Token,
			TotalAmount: e.TotalAmount, TotalFee: e.TotalFee, RecipientCount: e.RecipientCount.Uint64(),
			Nonce: e.Nonce, Timestamp: e.Timestamp.Uint64(), Operator: e.Operator, LogIndex: l.Index,
		}, nil, nil
	case payoutABI.GetABI().Events["BatchPayoutWithAllowance"].ID:
		e, err := payoutABI.UnpackBatchPayoutWithAllowanceEvent(tl)
		if err != nil {
			return nil, nil, err
		}
		return &BatchEvent{
			Contract: l.Address, Mode: ModeAllowance, Token: e.Token, From: e.From,
			TotalAmount: e.TotalAmount, TotalFee: e.TotalFee, RecipientCount: e.RecipientCount.Uint64(),
			Nonce: e.Nonce, Timestamp: e.Timestamp.Uint64(), Operator: e.Operator, LogIndex: l.Index,
		}, nil, nil
	case payoutABI.GetABI().Events["PayoutTransfer"].ID:
		e, err := payoutABI.UnpackPayoutTransferEvent(tl)
		if err != nil {
			return nil, nil, err
		}
		return nil, &TransferEvent{
			Contract: l.Address, Nonce: e.Nonce, Index: e.Index.Uint64(), Recipient: e.Recipient,
			Amount: e.Amount, LogIndex: l.Index,
		}, nil
	}
	return nil, nil, ErrNotPayoutEvent
}

// LogFromTypes converts a go-ethereum log to the service's chain-neutral
// form (EVM address text).
func LogFromTypes(l *types.Log) cashier.Log {
	topics := make([][32]byte, len(l.Topics))
	for i, t := range l.Topics {
		topics[i] = t
	}
	return cashier.Log{Address: l.Address.Hex(), Topics: topics, Data: l.Data, Index: l.Index}
}

func toTypesLog(l cashier.Log) *types.Log {
	topics := make([]common.Hash, len(l.Topics))
	for i, t := range l.Topics {
		topics[i] = t
	}
	return &types.Log{Topics: topics, Data: l.Data, Index: l.Index}
}

// Revert is a decoded custom error of the payout or deposit contracts.
type Revert struct {
	Name string         // e.g. "InsufficientAllowance"
	Args map[string]any // argument name to value (*big.Int, common.Address, ...)
}

var revertABIs = []abi.ABI{
	payoutABI.GetABI(),
	bindings.NewDepositFactory().GetABI(),
	bindings.NewDepositForwarder().GetABI(),
}

// DecodeRevert decodes the revert data of a failed payout or sweep call
// into its custom error; ok is false for anything else.
func DecodeRevert(data []byte) (Revert, bool) {
	if len(data) < 4 {
		return Revert{}, false
	}
	for _, a := range revertABIs {
		for name, e := range a.Errors {
			if [4]byte(e.ID[:4]) != [4]byte(data[:4]) {
				continue
			}
			args := map[string]any{}
			if err := e.Inputs.UnpackIntoMap(args, data[4:]); err != nil {
				return Revert{}, false
			}
			return Revert{Name: name, Args: args}, true
		}
	}
	return Revert{}, false
}

// RevertOf finds the payout contract's custom error in a SendCall error:
// the EVM client passes the node's JSON-RPC error with its data, the TRON
// client writes the data into its message.
func RevertOf(err error) (Revert, bool) {
	var de rpc.DataError
	if errors.As(err, &de) {
		if s, ok := de.ErrorData().(string); ok {
			if b, err := hexutil.Decode(s); err == nil {
				return DecodeRevert(b)
			}
		}
	}
	msg := err.Error()
	if i := strings.Index(msg, "data 0x"); i >= 0 {
		h := msg[i+len("data 0x"):]
		if j := strings.IndexFunc(h, func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEF", r) }); j >= 0 {
			h = h[:j]
		}
		if b, err := hexutil.Decode("0x" + h); err == nil {
			return DecodeRevert(b)
		}
	}
	return Revert{}, false
}
