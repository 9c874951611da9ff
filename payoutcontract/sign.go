package payoutcontract

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// EIP-712 domain of the payout contract: the contract checks signatures
// against exactly these name and version strings.
const (
	DomainName    = "CashierPayout"
	DomainVersion = "5.8.0"
)

// The EIP-712 encoded types of the two batches, as the contract hashes
// them.
const (
	TransferType  = "Transfer(address to,uint256 amount)"
	BalanceType   = "PayoutWithBalance(address token,Transfer[] transfers,uint256 totalFee,uint256 nonce,uint256 timestamp)" + TransferType
	AllowanceType = "PayoutWithAllowance(address token,address from,Transfer[] transfers,uint256 totalFee,uint256 nonce,uint256 timestamp)" + TransferType
)

// MaxRecipients is the contract's upper bound of recipients per batch.
const MaxRecipients = 200

var (
	domainTypeHash = crypto.Keccak256Hash([]byte(
		"EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))
	// The batch's pairs are an array of Transfer structs, which every
	// standard EIP-712 signer formats (Clef cannot format address[]).
	transferTypeHash  = crypto.Keccak256Hash([]byte(TransferType))
	balanceTypeHash   = crypto.Keccak256Hash([]byte(BalanceType))
	allowanceTypeHash = crypto.Keccak256Hash([]byte(AllowanceType))
)

// Domain identifies one deployed payout contract on one chain. ChainID is
// what the chain's CHAINID opcode returns (on TRON: 0x2b6653dc on mainnet,
// 0xcd8690dc on Nile).
type Domain struct {
	ChainID  *big.Int
	Contract common.Address
}

// Separator is the EIP-712 domain separator of d.
func (d Domain) Separator() common.Hash {
	return crypto.Keccak256Hash(
		domainTypeHash[:],
		crypto.Keccak256([]byte(DomainName)),
		crypto.Keccak256([]byte(DomainVersion)),
		word(d.ChainID),
		common.LeftPadBytes(d.Contract[:], 32),
	)
}

// Batch is the part common to both payout modes: recipients[i] receives
// Amounts[i] base units of Token, and TotalFee goes to the contract's fee
// address. Nonce must never have been used on the contract; Timestamp is
// Unix seconds and must be within the contract's signature window of the
// block time when the call executes.
type Batch struct {
	Token      common.Address
	Recipients []common.Address
	Amounts    []*big.Int
	TotalFee   *big.Int
	Nonce      *big.Int
	Timestamp  uint64
}

// TransferError is a batch that can never be valid because of one of its
// transfers: the order at Index must leave the batch (the rest can be paid).
type TransferError struct {
	Index  int
	Reason string
}

func (e *TransferError) Error() string { return fmt.Sprintf("payout %d: %s", e.Index, e.Reason) }

// Validate checks what the contract checks about the batch's shape, so a
// bad batch fails before it costs gas. A fault of one transfer is a
// *TransferError naming it.
func (b Batch) Validate() error {
	switch n := len(b.Recipients); {
	case n == 0:
		return fmt.Errorf("payout batch is empty")
	case n != len(b.Amounts):
		return fmt.Errorf("payout batch has %d recipients but %d amounts", n, len(b.Amounts))
	case n > MaxRecipients:
		return fmt.Errorf("payout batch has %d recipients, more than %d", n, MaxRecipients)
	}
	for i, r := range b.Recipients {
		if r == (common.Address{}) {
			return &TransferError{i, "the recipient is the zero address, which the contract cannot pay"}
		}
		if a := b.Amounts[i]; a == nil || a.Sign() <= 0 || a.BitLen() > 256 {
			return &TransferError{i, "the amount is not a positive uint256"}
		}
	}
	if b.TotalFee == nil || b.TotalFee.Sign() < 0 || b.TotalFee.BitLen() > 256 {
		return fmt.Errorf("payout fee must be a uint256")
	}
	if b.Nonce == nil || b.Nonce.Sign() < 0 || b.Nonce.BitLen() > 256 {
		return fmt.Errorf("payout nonce must be a uint256")
	}
	return nil
}

// Total is the sum of the amounts, without the fee.
func (b Batch) Total() *big.Int {
	sum := new(big.Int)
	for _, a := range b.Amounts {
		sum.Add(sum, a)
	}
	return sum
}

// BalancePayout is a payoutWithBalance call: paid from tokens the contract
// holds.
type BalancePayout struct {
	Batch
}

// AllowancePayout is a payoutWithAllowance call: paid with transferFrom
// from From, which must have approved the contract for Total()+TotalFee.
type AllowancePayout struct {
	Batch
	From common.Address
}

// Digest is the EIP-712 digest the signer signs for p on the contract d.
func (p BalancePayout) Digest(d Domain) common.Hash {
	structHash := crypto.Keccak256Hash(
		balanceTypeHash[:],
		common.LeftPadBytes(p.Token[:], 32),
		hashTransfers(p.Recipients, p.Amounts),
		word(p.TotalFee),
		word(p.Nonce),
		word(new(big.Int).SetUint64(p.Timestamp)),
	)
	return typedDataHash(d, structHash)
}

// Digest is the EIP-712 digest the signer signs for p on the contract d.
func (p AllowancePayout) Digest(d Domain) common.Hash {
	structHash := crypto.Keccak256Hash(
		allowanceTypeHash[:],
		common.LeftPadBytes(p.Token[:], 32),
		common.LeftPadBytes(p.From[:], 32),
		hashTransfers(p.Recipients, p.Amounts),
		word(p.TotalFee),
		word(p.Nonce),
		word(new(big.Int).SetUint64(p.Timestamp)),
	)
	return typedDataHash(d, structHash)
}

// Sign signs digest with key and returns the 65-byte r||s||v signature the
// contract accepts (v is 27 or 28, s is in the lower half of the curve
// order).
func Sign(digest common.Hash, key *ecdsa.PrivateKey) ([]byte, error) {
	sig, err := crypto.Sign(digest[:], key)
	if err != nil {
		return nil, fmt.Errorf("sign payout digest: %w", err)
	}
	sig[64] += 27
	return sig, nil
}

// Signer recovers the address that produced sig over digest, as the
// contract does; useful to check a signature before spending gas on it.
func Signer(digest common.Hash, sig []byte) (common.Address, error) {
	if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		return common.Address{}, fmt.Errorf("payout signature must be 65 bytes with v 27 or 28")
	}
	plain := append([]byte(nil), sig...)
	plain[64] -= 27
	pub, err := crypto.SigToPub(digest[:], plain)
	if err != nil {
		return common.Address{}, fmt.Errorf("recover payout signer: %w", err)
	}
	return crypto.PubkeyToAddress(*pub), nil
}

func typedDataHash(d Domain, structHash common.Hash) common.Hash {
	sep := d.Separator()
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, sep[:], structHash[:])
}

// hashTransfers is EIP-712's encoding of Transfer[]: keccak256 of the
// concatenated struct hashes keccak256(typeHash ‖ to ‖ amount).
func hashTransfers(to []common.Address, amounts []*big.Int) []byte {
	buf := make([]byte, 0, 32*len(to))
	for i, a := range to {
		var amount *big.Int
		if i < len(amounts) {
			amount = amounts[i]
		}
		buf = append(buf, crypto.Keccak256(transferTypeHash[:], common.LeftPadBytes(a[:], 32), word(amount))...)
	}
	return crypto.Keccak256(buf)
}

// word is the 32-byte big-endian encoding of a non-negative uint256; nil
// encodes as zero.
func word(v *big.Int) []byte {
	if v == nil {
		return make([]byte, 32)
	}
	return common.LeftPadBytes(v.Bytes(), 32)
}
