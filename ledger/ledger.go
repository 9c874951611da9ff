// Package ledger answers what a merchant holds: per payout contract and
// token the on-chain balance, what pending payouts lock, what is available
// and the allowances of allowance-mode wallets; and the ledger of every
// movement of the contract's holdings.
//
// The ledger is of the contract's holdings, read from the token's Transfer
// events into and out of the contract, so its sum is the on-chain balance
// by construction; the service's records only name each movement (a sweep
// of collection payments, a payout, its fee, a refund) and a transfer they
// do not explain is still listed (a top-up, an owner's withdrawal).
package ledger

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
)

// Kind names a ledger movement.
type Kind string

const (
	// KindSweep: collection payments swept from deposit addresses into the
	// contract. A collection counts in the contract's holdings from its sweep.
	KindSweep Kind = "sweep"
	// KindDeposit: any other transfer into the contract (the merchant's
	// top-up, a payment sent to the contract address itself).
	KindDeposit Kind = "deposit"
	KindPayout  Kind = "payout" // a balance-mode payout order paid
	KindFee     Kind = "fee"    // the fee of a payout (or refund) transaction, to the fee address
	// KindRefund: a refund paid from the contract. Refund records name
	// their transactions through Service.Refunds.
	KindRefund Kind = "refund"
	// KindWithdraw: any other transfer out (the owner's withdraw).
	KindWithdraw Kind = "withdraw"
)

// Kinds lists every kind, for filters.
var Kinds = []Kind{KindSweep, KindDeposit, KindPayout, KindFee, KindRefund, KindWithdraw}

// Entry is one movement of a contract's token holdings. Amount is signed:
// positive into the contract, negative out.
type Entry struct {
	Chain        cashier.Chain
	ContractID   string
	Contract     string
	Symbol       string
	Decimals     int
	Kind         Kind
	Amount       *big.Int
	TxID         string
	LogIndex     uint
	Block        uint64
	Time         time.Time
	Counterparty string // the other side of the transfer
	Ref          string // the order number, refund number or sweep id the movement belongs to
	GasAmount    string // payout entries: the gas share of the order (paid in the network's coin by the service's executor)
}

// RefundMove is one refund paid from a contract, as the refund records
// know it.
type RefundMove struct {
	RefundNo  string
	Recipient string   // in the network's text form
	Amount    *big.Int // base units sent to Recipient
}

// Refunds is the hook through which refund records name the transfers of
// their transactions: a transfer out of the contract in txID to one of the
// returned moves' recipients, for its amount, is a refund entry. nil: no
// refunds are named (every such transfer is read as a payout or withdrawal).
type Refunds interface {
	RefundsByTx(ctx context.Context, c cashier.Chain, txID string) ([]RefundMove, error)
}

// SweepLister is what the ledger reads of the sweeps (sqlstore.DB has it).
type SweepLister interface {
	Sweeps(ctx context.Context, c cashier.Chain, inFlight bool) ([]cashier.Sweep, error)
}

// Service reads balances and ledgers.
type Service struct {
	Store    cashier.Store
	Registry *cashier.Registry
	Chains   map[cashier.Chain]cashier.ChainClient
	Refunds  Refunds // optional
	// From is, per network, the first block a ledger reads (0 or absent:
	// the genesis block). A contract's ledger sums to its balance when the
	// contract had no transfer before it; set it below the first payout
	// contract's deployment, so the first read of a ledger on a public
	// network does not walk every block since genesis.
	From map[cashier.Chain]uint64

	mu    sync.Mutex
	scans map[string]*scan
}

// scan is what was read of one (contract, token): transfers in blocks
// below next, which are deep enough never to change.
type scan struct {
	mu        sync.Mutex
	next      uint64
	transfers []cashier.Transfer
}

func (s *Service) client(c cashier.Chain) (cashier.ChainClient, error) {
	cl, ok := s.Chains[c]
	if !ok || cl == nil {
		return nil, cashier.Errorf(cashier.EUnsupported, "network %s has no node configured", c)
	}
	return cl, nil
}

// Balance is one (contract, token) of a merchant.
type Balance struct {
	Chain      cashier.Chain
	ContractID string
	Contract   string
	Symbol     string
	Decimals   int
	OnChain    *big.Int // the contract's token balance
	Locked     *big.Int // amount + fee of the balance-mode payouts PENDING or PROCESSING
	Available  *big.Int // OnChain − Locked, never below zero
	Block      uint64   // the head the balance was read at
	Allowances []Allowance
}

// Allowance is one wallet that approved the contract, read live.
type Allowance struct {
	Owner     string
	Allowance *big.Int // allowance granted to the contract
	Balance   *big.Int // the wallet's token balance
	Locked    *big.Int // amount + fee of its allowance-mode payouts pending
	Available *big.Int // min(Allowance, Balance) − Locked, never below zero
}

// Filter selects a merchant's contracts and tokens: empty fields match all.
type Filter struct {
	ContractID string
	Chain      cashier.Chain
	Symbol     string
}

// contracts lists the merchant's contracts and tokens that f selects.
func (s *Service) targets(ctx context.Context, m *cashier.Merchant, f Filter) ([]cashier.Contract, error) {
	ks, err := s.Store.ContractsByMerchant(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	var out []cashier.Contract
	for _, k := range ks {
		if (f.ContractID == "" || f.ContractID == k.ID || f.ContractID == contractNum(k)) && (f.Chain == "" || f.Chain == k.Chain) {
			out = append(out, k)
		}
	}
	if f.ContractID != "" && len(out) == 0 {
		return nil, cashier.Errorf(cashier.ENotFound, "contract %s not found", f.ContractID)
	}
	return out, nil
}

func contractNum(k cashier.Contract) string {
	if k.Num == 0 {
		return "-"
	}
	return big.NewInt(k.Num).String()
}

func (s *Service) tokens(c cashier.Chain, symbol string) []cashier.Token {
	var out []cashier.Token
	for _, t := range s.Registry.Tokens {
		if t.Chain == c && (symbol == "" || strings.EqualFold(symbol, t.Symbol)) {
			out = append(out, t)
		}
	}
	return out
}

// Balances reads the merchant's balances per contract and token.
func (s *Service) Balances(ctx context.Context, m *cashier.Merchant, f Filter) ([]Balance, error) {
	ks, err := s.targets(ctx, m, f)
	if err != nil {
		return nil, err
	}
	var out []Balance
	for _, k := range ks {
		cl, err := s.client(k.Chain)
		if err != nil {
			return nil, err
		}
		head, err := cl.Head(ctx)
		if err != nil {
			return nil, err
		}
		approvals, err := s.Store.Allowances(ctx, k.Chain, k.Address)
		if err != nil {
			return nil, err
		}
		for _, t := range s.tokens(k.Chain, f.Symbol) {
			b, err := s.contractFunds(ctx, cl, head.Number, &k, t)
			if err != nil {
				return nil, err
			}
			for _, a := range approvals {
				if !strings.EqualFold(a.Symbol, t.Symbol) && !strings.EqualFold(a.Token, t.ContractAddress) {
					continue
				}
				w, err := s.walletFunds(ctx, cl, head.Number, &k, t, a.Owner)
				if err != nil {
					return nil, err
				}
				b.Allowances = append(b.Allowances, w)
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// ContractFunds is the one reading of what a payout contract holds of
// token t: its on-chain balance, what its pending payouts lock (every
// PENDING order, awaiting review or not, and every PROCESSING one) and
// what is available for new ones. Every page and answer that shows these
// figures (the API's balance, the dashboard's Balances, Review and
// Integration pages) reads them here, so they agree.
func (s *Service) ContractFunds(ctx context.Context, k *cashier.Contract, t cashier.Token) (Balance, error) {
	cl, err := s.client(k.Chain)
	if err != nil {
		return Balance{}, err
	}
	head, err := cl.Head(ctx)
	if err != nil {
		return Balance{}, err
	}
	return s.contractFunds(ctx, cl, head.Number, k, t)
}

// WalletFunds is ContractFunds for an allowance-mode wallet: what owner
// allows contract k to draw of t, the wallet's balance, what its pending
// allowance-mode payouts through k lock and what is available.
func (s *Service) WalletFunds(ctx context.Context, k *cashier.Contract, t cashier.Token, owner string) (Allowance, error) {
	cl, err := s.client(k.Chain)
	if err != nil {
		return Allowance{}, err
	}
	head, err := cl.Head(ctx)
	if err != nil {
		return Allowance{}, err
	}
	return s.walletFunds(ctx, cl, head.Number, k, t, owner)
}

// contractFunds reads k's balance of t after the head (head) was read: a
// payout settled above head may not be out of the balance read yet, so
// it still counts as locked (PoolLocked's afterBlock).
func (s *Service) contractFunds(ctx context.Context, cl cashier.ChainClient, head uint64, k *cashier.Contract, t cashier.Token) (Balance, error) {
	bal, err := cl.TokenBalance(ctx, t.ContractAddress, k.Address)
	if err != nil {
		return Balance{}, err
	}
	locked, err := s.Store.PoolLocked(ctx, poolKey("contract", k.Chain, k.Address, "", t.Symbol), head)
	if err != nil {
		return Balance{}, err
	}
	return Balance{Chain: k.Chain, ContractID: k.ID, Contract: k.Address, Symbol: t.Symbol, Decimals: t.Decimals,
		OnChain: bal, Locked: locked, Available: floor(new(big.Int).Sub(bal, locked)), Block: head}, nil
}

func (s *Service) walletFunds(ctx context.Context, cl cashier.ChainClient, head uint64, k *cashier.Contract, t cashier.Token, owner string) (Allowance, error) {
	allow, err := cl.Allowance(ctx, t.ContractAddress, owner, k.Address)
	if err != nil {
		return Allowance{}, err
	}
	wbal, err := cl.TokenBalance(ctx, t.ContractAddress, owner)
	if err != nil {
		return Allowance{}, err
	}
	wl, err := s.Store.PoolLocked(ctx, poolKey("allowance", k.Chain, k.Address, owner, t.Symbol), head)
	if err != nil {
		return Allowance{}, err
	}
	return Allowance{Owner: owner, Allowance: allow, Balance: wbal, Locked: wl,
		Available: floor(new(big.Int).Sub(minInt(allow, wbal), wl))}, nil
}

// poolKey names a funding pool as orders/funding.go stores it.
func poolKey(kind string, c cashier.Chain, contract, wallet, symbol string) string {
	if kind == "allowance" {
		return "allowance/" + string(c) + "/" + contract + "/" + wallet + "/" + symbol
	}
	return "contract/" + string(c) + "/" + contract + "/" + symbol
}

func floor(v *big.Int) *big.Int {
	if v.Sign() < 0 {
		return new(big.Int)
	}
	return v
}

func minInt(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

// Query selects ledger entries. Times are inclusive bounds on the block
// time; zero means unbounded.
type Query struct {
	Filter
	Kind       Kind
	Start, End time.Time
}

// Ledger returns the merchant's ledger entries that q selects, oldest
// first, and per (contract, token) the sum of every entry (not only the
// selected ones): the balance the ledger explains, at the head read.
func (s *Service) Ledger(ctx context.Context, m *cashier.Merchant, q Query) ([]Entry, []Balance, error) {
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		return nil, nil, cashier.Errorf(cashier.EInvalid, "kind %q is not one of sweep, deposit, payout, fee, refund, withdraw", q.Kind)
	}
	if !q.Start.IsZero() && !q.End.IsZero() && q.End.Before(q.Start) {
		return nil, nil, cashier.Errorf(cashier.EInvalid, "endTime is before startTime")
	}
	ks, err := s.targets(ctx, m, q.Filter)
	if err != nil {
		return nil, nil, err
	}
	var out []Entry
	var sums []Balance
	for _, k := range ks {
		cl, err := s.client(k.Chain)
		if err != nil {
			return nil, nil, err
		}
		hist, ok := cl.(cashier.TransferHistory)
		if !ok {
			return nil, nil, cashier.Errorf(cashier.EUnsupported, "the %s client cannot list transfers", k.Chain)
		}
		head, err := cl.Head(ctx)
		if err != nil {
			return nil, nil, err
		}
		names, err := s.names(ctx, k)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range s.tokens(k.Chain, q.Symbol) {
			trs, err := s.transfers(ctx, hist, k, t, head.Number)
			if err != nil {
				return nil, nil, err
			}
			entries, err := s.classify(ctx, k, t, trs, names)
			if err != nil {
				return nil, nil, err
			}
			sum := new(big.Int)
			for _, e := range entries {
				sum.Add(sum, e.Amount)
				if (q.Kind == "" || q.Kind == e.Kind) && (q.Start.IsZero() || !e.Time.Before(q.Start)) && (q.End.IsZero() || !e.Time.After(q.End)) {
					out = append(out, e)
				}
			}
			sums = append(sums, Balance{Chain: k.Chain, ContractID: k.ID, Contract: k.Address, Symbol: t.Symbol, Decimals: t.Decimals,
				OnChain: sum, Block: head.Number})
		}
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.Time.Compare(b.Time) })
	return out, sums, nil
}

// transfers returns every transfer of t into or out of k up to head. What
// lies deeper than the network's confirmations is kept and not read again.
func (s *Service) transfers(ctx context.Context, hist cashier.TransferHistory, k cashier.Contract, t cashier.Token, head uint64) ([]cashier.Transfer, error) {
	key := string(k.Chain) + "/" + k.Address + "/" + t.ContractAddress
	s.mu.Lock()
	if s.scans == nil {
		s.scans = map[string]*scan{}
	}
	sc := s.scans[key]
	if sc == nil {
		sc = &scan{next: s.From[k.Chain]}
		s.scans[key] = sc
	}
	s.mu.Unlock()
	sc.mu.Lock()
	defer sc.mu.Unlock()
	depth := uint64(1)
	if n, ok := s.Registry.Network(k.Chain); ok && n.Confirmations > 0 {
		depth = uint64(n.Confirmations)
	}
	var final uint64 // first block not yet deep enough
	if head+1 > depth {
		final = head + 1 - depth
	}
	if final > sc.next {
		got, err := hist.AccountTransfers(ctx, t.ContractAddress, k.Address, sc.next, final-1)
		if err != nil {
			return nil, err
		}
		sc.transfers = append(sc.transfers, got...)
		sc.next = final
	}
	out := slices.Clone(sc.transfers)
	if head >= sc.next {
		tail, err := hist.AccountTransfers(ctx, t.ContractAddress, k.Address, sc.next, head)
		if err != nil {
			return nil, err
		}
		out = append(out, tail...)
	}
	return out, nil
}

// names is what the service's records say about transactions of k.
type names struct {
	sweeps  map[string]string                // tx hash → sweep id
	payouts map[string][]cashier.PayoutOrder // tx hash → the balance-mode orders it paid
}

func txKey(h string) string { return strings.TrimPrefix(strings.ToLower(h), "0x") }

func (s *Service) names(ctx context.Context, k cashier.Contract) (*names, error) {
	n := &names{sweeps: map[string]string{}, payouts: map[string][]cashier.PayoutOrder{}}
	if sl, ok := s.Store.(SweepLister); ok {
		sw, err := sl.Sweeps(ctx, k.Chain, false)
		if err != nil {
			return nil, err
		}
		for _, x := range sw {
			if x.Status == cashier.SweepDone && x.TxHash != "" {
				n.sweeps[txKey(x.TxHash)] = x.ID
			}
		}
	}
	f := cashier.PayoutFilter{MerchantID: k.MerchantID, ContractID: k.ID, Status: cashier.PayoutSuccess, PageSize: 500}
	for f.Page = 1; ; f.Page++ {
		list, total, err := s.Store.Payouts(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, o := range list {
			if o.PayoutType == cashier.PayoutBalance && o.TxID != "" {
				n.payouts[txKey(o.TxID)] = append(n.payouts[txKey(o.TxID)], o)
			}
		}
		if f.Page*f.PageSize >= total {
			break
		}
	}
	return n, nil
}

// classify turns k's transfers of t into entries.
func (s *Service) classify(ctx context.Context, k cashier.Contract, t cashier.Token, trs []cashier.Transfer, n *names) ([]Entry, error) {
	out := make([]Entry, 0, len(trs))
	refundsOf := map[string][]RefundMove{}
	used := map[string]map[int]bool{} // tx → indexes of orders/refunds matched
	for _, tr := range trs {
		e := Entry{Chain: k.Chain, ContractID: k.ID, Contract: k.Address, Symbol: t.Symbol, Decimals: t.Decimals,
			Amount: new(big.Int).Set(tr.Amount), TxID: tr.TxHash, LogIndex: tr.LogIndex, Block: tr.BlockNumber, Time: tr.BlockTime.UTC()}
		tx := txKey(tr.TxHash)
		in := sameAddress(tr.To, k.Address)
		if in && sameAddress(tr.From, k.Address) {
			continue // to itself: no movement
		}
		if in {
			e.Counterparty = tr.From
			e.Kind = KindDeposit
			if id, ok := n.sweeps[tx]; ok {
				e.Kind, e.Ref = KindSweep, id
			}
			out = append(out, e)
			continue
		}
		e.Amount.Neg(e.Amount)
		e.Counterparty = tr.To
		e.Kind = KindWithdraw
		if used[tx] == nil {
			used[tx] = map[int]bool{}
		}
		orders := n.payouts[tx]
		if s.Refunds != nil {
			if _, ok := refundsOf[tx]; !ok {
				rs, err := s.Refunds.RefundsByTx(ctx, k.Chain, tr.TxHash)
				if err != nil {
					return nil, err
				}
				refundsOf[tx] = rs
			}
		}
		matched := false
		for i, r := range refundsOf[tx] {
			if !used[tx][-1-i] && sameAddress(r.Recipient, tr.To) && r.Amount.Cmp(tr.Amount) == 0 {
				used[tx][-1-i], matched = true, true
				e.Kind, e.Ref = KindRefund, r.RefundNo
				break
			}
		}
		for i, o := range orders {
			if matched {
				break
			}
			if !used[tx][i] && sameAddress(o.Recipient, tr.To) && o.Amount.Cmp(tr.Amount) == 0 {
				used[tx][i], matched = true, true
				e.Kind, e.Ref, e.GasAmount = KindPayout, o.OrderNo, o.GasAmount
			}
		}
		if !matched && (len(orders) > 0 || len(refundsOf[tx]) > 0) {
			// The transaction is the service's payout call: what it sent
			// besides its orders is the batch fee, to the fee address.
			e.Kind = KindFee
			var refs []string
			for _, o := range orders {
				refs = append(refs, o.OrderNo)
			}
			for _, r := range refundsOf[tx] {
				refs = append(refs, r.RefundNo)
			}
			e.Ref = strings.Join(refs, " ")
		}
		out = append(out, e)
	}
	return out, nil
}

// sameAddress compares two addresses of one network in canonical form:
// EVM hex case-insensitively, TRON base58 (case-sensitive) exactly.
func sameAddress(a, b string) bool {
	if strings.HasPrefix(a, "0x") || strings.HasPrefix(a, "0X") {
		return strings.EqualFold(a, b)
	}
	return a == b
}
