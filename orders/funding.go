package orders

import (
	"context"
	"math/big"
	"slices"
	"time"

	"github.com/stablecashier/cashier"
)

// Heads reads a network's latest block number. When Funds implements it,
// the head is read before the balances, so the settles of payments above
// that block count as still locked (see storePayouts).
type Heads interface {
	HeadNumber(ctx context.Context, c cashier.Chain) (uint64, error)
}

// Rules reads the payout contract's own rules. When Funds implements it,
// an order the contract would refuse is refused at creation.
type Rules interface {
	// Whitelisted reports whether the contract accepts recipient in mode:
	// true when the mode's whitelist is off or recipient is on it.
	Whitelisted(ctx context.Context, c cashier.Chain, contract string, mode cashier.PayoutType, recipient string) (bool, error)
}

// pool is one limited source of funds an order draws on, keyed by the
// on-chain contract (not its registration). A balance-mode order draws on
// its contract's token balance. An allowance-mode order draws on two: the
// allowance its wallet granted this contract, and the wallet's token
// balance, which every contract the wallet approved draws on too.
type pool struct {
	kind     poolKind
	chain    cashier.Chain
	contract string // contract address (contract and allowance pools)
	wallet   string // approving wallet (allowance and wallet pools)
	symbol   string
}

type poolKind int

const (
	contractBalance poolKind = iota
	walletAllowance
	walletBalance
)

// key is the pool's name in the store.
func (p pool) key() string {
	switch p.kind {
	case walletAllowance:
		return "allowance/" + string(p.chain) + "/" + p.contract + "/" + p.wallet + "/" + p.symbol
	case walletBalance:
		return "wallet/" + string(p.chain) + "/" + p.wallet + "/" + p.symbol
	}
	return "contract/" + string(p.chain) + "/" + p.contract + "/" + p.symbol
}

// short is the error code of a pool that cannot cover an order.
func (p pool) short() cashier.Code {
	switch p.kind {
	case walletAllowance:
		return cashier.EInsufficientAllow
	case walletBalance:
		return cashier.EInsufficientFunds
	}
	return cashier.EInsufficientContr
}

func poolsOf(o *cashier.PayoutOrder, contract string) []pool {
	if o.PayoutType == cashier.PayoutAllowance {
		return []pool{
			{kind: walletAllowance, chain: o.Chain, contract: contract, wallet: o.FromAddress, symbol: o.Symbol},
			{kind: walletBalance, chain: o.Chain, wallet: o.FromAddress, symbol: o.Symbol},
		}
	}
	return []pool{{kind: contractBalance, chain: o.Chain, contract: contract, symbol: o.Symbol}}
}

// PoolKeys names the funding pools o draws on, with k its contract.
func PoolKeys(o *cashier.PayoutOrder, k *cashier.Contract) []string {
	var out []string
	for _, p := range poolsOf(o, k.Address) {
		out = append(out, p.key())
	}
	return out
}

func need(o *cashier.PayoutOrder) *big.Int { return new(big.Int).Add(o.Amount, o.Fee) }

// locks reports whether an order in status st holds its funds locked.
func locks(st cashier.PayoutStatus) bool {
	return st == cashier.PayoutPending || st == cashier.PayoutProcessing
}

// storePayouts applies the funding rules to orders in sequence, each order
// seeing the amounts the previous ones locked, and stores the ones that are
// covered. Chain reads happen before the transaction; the running locked
// totals are read and raised inside it, so concurrent requests cannot both
// spend the same funds, and the cost per order does not grow with the
// number of pending orders. With refuse nil the first refused order fails
// the call; otherwise refuse is told about each order that is not stored.
func (s *Service) storePayouts(ctx context.Context, k *cashier.Contract, orders []*cashier.PayoutOrder, refuse func(int, error)) error {
	return s.storePayoutsWith(ctx, k, orders, refuse, nil)
}

// storePayoutsWith is storePayouts with first, when not nil, run first in
// the transaction that stores the orders (a refund's own checks and
// record): its error stores nothing.
func (s *Service) storePayoutsWith(ctx context.Context, k *cashier.Contract, orders []*cashier.PayoutOrder, refuse func(int, error), first func(cashier.Tx) error) error {
	if s.Funds == nil {
		return cashier.Errorf(cashier.EUnsupported, "payouts are not configured on %s", k.Chain)
	}
	refused := make([]bool, len(orders))
	fail := func(i int, err error) error {
		if refuse == nil {
			return err
		}
		refused[i] = true
		refuse(i, err)
		return nil
	}
	if rules, ok := s.Funds.(Rules); ok {
		for i, o := range orders {
			ok, err := rules.Whitelisted(ctx, k.Chain, k.Address, o.PayoutType, o.Recipient)
			if err != nil {
				return err
			}
			if !ok {
				if err := fail(i, cashier.Errorf(cashier.ENotWhitelisted, "recipient %s is not on contract %s's whitelist", o.Recipient, k.Address)); err != nil {
					return err
				}
			}
		}
	}
	// The head is read before the balances: every balance read is at or
	// above it, so a payment settled at or below it is already out of them.
	var after uint64
	if h, ok := s.Funds.(Heads); ok {
		n, err := h.HeadNumber(ctx, k.Chain)
		if err != nil {
			return err
		}
		after = n
	}
	readAt := s.Clock.Now()
	capacity := map[pool]*big.Int{}
	for i, o := range orders {
		if !refused[i] {
			if err := s.readPools(ctx, k, o, capacity); err != nil {
				return err
			}
		}
	}
	policy, err := s.Store.ReviewPolicy(ctx, k.MerchantID)
	if err != nil {
		return err
	}
	// Plain payout creation is safe beside other instances' writes: the
	// pools' rows are locked while read and raised (PoolLocked,
	// AddPoolLock), the order number is a unique key. A refund's first
	// step reads and writes more, so it runs alone.
	uctx := ctx
	if first == nil {
		uctx = cashier.ConcurrentWrite(ctx)
	}
	// The function may run again after a conflict with another instance:
	// it starts from the refusals known before it and reports its own
	// only once it has committed.
	before := slices.Clone(refused)
	type refusal struct {
		i   int
		err error
	}
	var late []refusal
	fail = func(i int, err error) error {
		if refuse == nil {
			return err
		}
		refused[i] = true
		late = append(late, refusal{i, err})
		return nil
	}
	err = s.Store.Update(uctx, func(tx cashier.Tx) error {
		copy(refused, before)
		late = late[:0]
		// Settles are kept for SettleRetention: a read older than half of it
		// might miss one, so it is not trusted.
		if s.Clock.Now().Sub(readAt) > s.Config.SettleRetention/2 {
			return cashier.Errorf(cashier.EInternal, "the chain read is too old to fund payouts; retry")
		}
		if first != nil {
			if err := first(tx); err != nil {
				return err
			}
		}
		locked := map[pool]*big.Int{}
		for i, o := range orders {
			if refused[i] {
				continue
			}
			n := need(o)
			var short pool
			var shortFree *big.Int
			for _, p := range poolsOf(o, k.Address) {
				if locked[p] == nil {
					l, err := tx.PoolLocked(ctx, p.key(), after)
					if err != nil {
						return err
					}
					locked[p] = l
				}
				free := new(big.Int).Sub(capacity[p], locked[p])
				if free.Cmp(n) < 0 && (shortFree == nil || free.Cmp(shortFree) < 0) {
					short, shortFree = p, free
				}
			}
			if shortFree != nil {
				if err := fail(i, insufficient(o, shortFree, short.short())); err != nil {
					return err
				}
				continue
			}
			o.NeedsReview = NeedsReview(policy, o)
			if err := tx.CreatePayout(ctx, o); err != nil {
				if refuse == nil || cashier.ErrorCode(err) != cashier.EDuplicate {
					return err
				}
				late = append(late, refusal{i, err})
				continue
			}
			for _, p := range poolsOf(o, k.Address) {
				locked[p].Add(locked[p], n)
				if err := tx.AddPoolLock(ctx, p.key(), n); err != nil {
					return err
				}
			}
			if err := s.addPayoutEvent(ctx, tx, o, k, o.CreatedAt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range late {
		refuse(r.i, r.err)
	}
	return nil
}

// releaseLocks takes o's amount off its pools' running totals once o has
// left the locking states. A paid order leaves a settle per pool at its
// block, so a balance read from before that block still sees it locked.
func (s *Service) releaseLocks(ctx context.Context, tx cashier.Tx, o *cashier.PayoutOrder, k *cashier.Contract, now time.Time) error {
	if locks(o.Status) {
		return nil
	}
	n := need(o)
	for _, p := range poolsOf(o, k.Address) {
		if err := tx.AddPoolLock(ctx, p.key(), new(big.Int).Neg(n)); err != nil {
			return err
		}
		if o.Status == cashier.PayoutSuccess {
			if err := tx.AddSettle(ctx, &cashier.Settle{OrderID: o.ID, Pool: p.key(), Block: o.BlockNumber, Amount: n, At: now}); err != nil {
				return err
			}
		}
	}
	return s.spendAllowance(ctx, tx, o, k)
}

// readPools reads from the chain the capacity of every pool o draws on that
// is not in capacity yet (funding rules 1 and 2: read in real time).
func (s *Service) readPools(ctx context.Context, k *cashier.Contract, o *cashier.PayoutOrder, capacity map[pool]*big.Int) error {
	ps := poolsOf(o, k.Address)
	if capacity[ps[0]] != nil {
		return nil
	}
	token, err := s.Registry.LookupToken(k.Chain, o.Symbol)
	if err != nil {
		return err
	}
	if o.PayoutType == cashier.PayoutAllowance {
		bal, allow, err := s.Funds.WalletFunds(ctx, k.Chain, token.ContractAddress, o.FromAddress, k.Address)
		if err != nil {
			return err
		}
		capacity[ps[0]] = allow
		if capacity[ps[1]] == nil {
			capacity[ps[1]] = bal
		}
		return nil
	}
	bal, err := s.Funds.ContractBalance(ctx, k.Chain, token.ContractAddress, k.Address)
	capacity[ps[0]] = bal
	return err
}

// NeedsReview applies a merchant's review policy to a new order.
func NeedsReview(p *cashier.ReviewPolicy, o *cashier.PayoutOrder) bool {
	switch p.Mode {
	case cashier.ReviewAlways:
		return true
	case cashier.ReviewNever:
		return false
	case cashier.ReviewAbove:
		limit, err := cashier.ParseAmount(p.Above, o.Decimals)
		return err != nil || o.Amount.Cmp(limit) > 0 // an unreadable limit reviews everything
	}
	return o.PayoutType == cashier.PayoutBalance
}

// RecomputeLocks sums amount+fee of every PENDING and PROCESSING order per
// pool by reading them all: the reference the running totals must equal.
func RecomputeLocks(ctx context.Context, r cashier.Reader) (map[string]*big.Int, error) {
	out := map[string]*big.Int{}
	contracts := map[string]*cashier.Contract{}
	for _, st := range []cashier.PayoutStatus{cashier.PayoutPending, cashier.PayoutProcessing} {
		f := cashier.PayoutFilter{Status: st, PageSize: 1000}
		for f.Page = 1; ; f.Page++ {
			list, total, err := r.Payouts(ctx, f)
			if err != nil {
				return nil, err
			}
			for i := range list {
				o := &list[i]
				k := contracts[o.ContractID]
				if k == nil {
					if k, err = r.Contract(ctx, o.ContractID); err != nil {
						return nil, err
					}
					contracts[o.ContractID] = k
				}
				for _, key := range PoolKeys(o, k) {
					if out[key] == nil {
						out[key] = new(big.Int)
					}
					out[key].Add(out[key], need(o))
				}
			}
			if f.Page*f.PageSize >= total {
				break
			}
		}
	}
	return out, nil
}
