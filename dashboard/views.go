package dashboard

import (
	"context"
	"math"
	"math/big"
	"net/http"
	"net/netip"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
)

// ms is Unix milliseconds, 0 for an unset time.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// chainTimeout bounds every chain read a page makes, so a slow node makes
// a page show "unavailable" instead of hanging.
const chainTimeout = 3 * time.Second

// contractProof is what a registration rests on (as app.ContractProof):
// "unproven" for one made before ownership proofs that nobody proved again
// or confirmed (its payouts wait), "confirmed" for one the operator let
// the shared service signer sign, "proven" for the merchant's own signer.
func (s *Server) contractProof(ctx context.Context, k *cashier.Contract) string {
	if k.Signer == "" {
		return "unproven"
	}
	if ms, err := s.Store.MerchantSigner(ctx, k.MerchantID, k.Chain); err == nil && strings.EqualFold(ms.Address, k.Signer) {
		return "proven"
	}
	return "confirmed"
}

// contractJSON is a contract with its balance per token and, for
// allowance mode, the wallets that approved it (those its allowance-mode
// payouts named) with their allowances, when the network has a client.
func (s *Server) contractJSON(r *http.Request, k *cashier.Contract) map[string]any {
	out := map[string]any{"contractId": k.ID, "merchantId": k.MerchantID, "chainId": k.Chain, "address": k.Address,
		"webhookUrl": k.WebhookURL, "status": k.Status, "createdAt": ms(k.CreatedAt),
		"explorerUrl": s.explorer(k.Chain, "address", k.Address), "signer": k.Signer, "proof": s.contractProof(r.Context(), k)}
	cl, ok := s.Chains[k.Chain]
	if !ok {
		out["chainConfigured"] = false
		return out
	}
	out["chainConfigured"] = true
	ctx, cancel := context.WithTimeout(r.Context(), chainTimeout)
	defer cancel()
	balances := []map[string]any{}
	wallets := map[string]bool{}
	ps, _, _ := s.Store.SearchPayouts(ctx, cashier.OrderSearch{MerchantID: k.MerchantID, Chain: k.Chain, PageSize: 200})
	for _, p := range ps {
		if p.ContractID == k.ID && p.PayoutType == cashier.PayoutAllowance && p.FromAddress != "" {
			wallets[p.FromAddress] = true
		}
	}
	// Allowances as last seen on chain: the recorded approvals to the
	// contract, less what its payouts took since.
	recorded := map[string]*cashier.Allowance{}
	as, _ := s.Store.Allowances(ctx, k.Chain, k.Address)
	for i := range as {
		wallets[as[i].Owner] = true
		recorded[as[i].Owner+"/"+as[i].Symbol] = &as[i]
	}
	approvals := []map[string]any{}
	for _, t := range s.Registry.Tokens {
		if t.Chain != k.Chain {
			continue
		}
		b := map[string]any{"symbol": t.Symbol}
		if v, err := cl.TokenBalance(ctx, t.ContractAddress, k.Address); err == nil {
			b["balance"] = cashier.FormatAmount(v, t.Decimals)
		} else {
			b["error"] = "unavailable"
		}
		balances = append(balances, b)
		for w := range wallets {
			a := s.allowanceJSON(ctx, recorded[w+"/"+t.Symbol], t, w, k)
			if v, err := cl.TokenBalance(ctx, t.ContractAddress, w); err == nil {
				a["balance"] = cashier.FormatAmount(v, t.Decimals)
			}
			approvals = append(approvals, a)
		}
	}
	sort.Slice(approvals, func(i, j int) bool {
		return approvals[i]["wallet"].(string)+approvals[i]["symbol"].(string) < approvals[j]["wallet"].(string)+approvals[j]["symbol"].(string)
	})
	out["balances"], out["approvals"] = balances, approvals
	return out
}

// explorer links a transaction ("tx") or an address on the network's
// block explorer; empty when the registry has no explorer URL.
func (s *Server) explorer(c cashier.Chain, kind, id string) string {
	n, ok := s.Registry.Network(c)
	if !ok || n.ExplorerURL == "" || id == "" {
		return ""
	}
	// The sandbox's chains are on this machine: a public explorer would
	// show another network's transaction under the same id, or nothing.
	// Only a local explorer is linked.
	if s.cfg.Sandbox && !localURL(n.ExplorerURL) {
		return ""
	}
	base := strings.TrimRight(n.ExplorerURL, "/")
	if c == cashier.ChainTRON {
		if kind == "tx" {
			return base + "/#/transaction/" + id
		}
		return base + "/#/address/" + id
	}
	return base + "/" + kind + "/" + id
}

// networkStatus is the registry's status unless an operator overrode it.
func (s *Server) networkStatus(ctx context.Context) (map[cashier.Chain]cashier.NetworkStatus, error) {
	out := map[cashier.Chain]cashier.NetworkStatus{}
	for _, n := range s.Registry.Networks {
		out[n.Chain] = n.Status
	}
	states, err := s.Store.NetworkStates(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range states {
		out[st.Chain] = st.Status
	}
	return out, nil
}

// networks is each network's status and health: head, lag, confirmations.
func (s *Server) networks(r *http.Request) ([]map[string]any, error) {
	status, err := s.networkStatus(r.Context())
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, n := range s.Registry.Networks {
		row := map[string]any{"chainId": n.Chain, "networkName": n.NetworkName, "status": status[n.Chain],
			"confirmations": n.Confirmations, "explorerUrl": n.ExplorerURL}
		if cl, ok := s.Chains[n.Chain]; ok {
			ctx, cancel := context.WithTimeout(r.Context(), chainTimeout)
			head, err := cl.Head(ctx)
			cancel()
			if err != nil {
				row["health"] = "unreachable"
			} else {
				// A head stamped ahead of this clock counts as no lag.
				lag := max(s.Clock.Now().Sub(head.Time), 0).Round(time.Second)
				row["head"], row["headTime"], row["lagSeconds"] = head.Number, ms(head.Time), int64(lag/time.Second)
				row["health"] = "ok"
			}
		} else {
			row["health"] = "not configured"
		}
		out = append(out, row)
	}
	return out, nil
}

// reviewQueue lists the payouts awaiting review with the funds of the
// pool each draws on.
func (s *Server) reviewQueue(r *http.Request, a *actor) (map[string]any, error) {
	if s.Reviewer == nil {
		return map[string]any{"available": false, "list": []any{}}, nil
	}
	mid := a.user.MerchantID
	if a.operator() {
		mid = r.URL.Query().Get("merchantId")
	}
	ps, err := s.Reviewer.Pending(r.Context(), mid)
	if err != nil {
		return nil, err
	}
	pools := map[string]map[string]any{}
	list := []map[string]any{}
	for _, p := range ps {
		if !a.mayReadMerchant(p.MerchantID) {
			continue
		}
		row := payoutJSON(&p)
		key := poolKey(&p)
		if _, ok := pools[key]; !ok {
			out := map[string]any{"contractId": p.ContractID, "symbol": p.Symbol}
			if f, err := s.pool(r.Context(), &p); err != nil {
				out["error"] = "unavailable"
			} else {
				out["balance"], out["committed"], out["free"] = cashier.FormatAmount(f.funds, p.Decimals),
					cashier.FormatAmount(f.committed, p.Decimals), cashier.FormatAmount(f.free, p.Decimals)
			}
			pools[key] = out
		}
		row["pool"] = pools[key]
		list = append(list, row)
	}
	return map[string]any{"available": true, "list": list}, nil
}

// poolKey names the funds a payout draws on: its contract's balance of the
// token, or in allowance mode the approving wallet's funds for it.
func poolKey(o *cashier.PayoutOrder) string {
	if o.PayoutType == cashier.PayoutAllowance {
		return "w/" + o.ContractID + "/" + o.FromAddress + "/" + o.Symbol
	}
	return "c/" + o.ContractID + "/" + o.Symbol
}

type poolState struct {
	funds     *big.Int // on chain: contract balance, or min(wallet balance, allowance)
	committed *big.Int // approved and not yet paid, or being paid
	free      *big.Int // funds − committed (may be negative)
}

// pool reads the funds of the pool o draws on and what approved payouts
// have committed of them.
func (s *Server) pool(ctx context.Context, o *cashier.PayoutOrder) (*poolState, error) {
	k, err := s.Store.Contract(ctx, o.ContractID)
	if err != nil {
		return nil, err
	}
	cl, ok := s.Chains[k.Chain]
	if !ok {
		return nil, cashier.Errorf(cashier.EUnsupported, "%s has no node configured", k.Chain)
	}
	t, ok := s.Registry.Token(k.Chain, o.Symbol)
	if !ok {
		return nil, cashier.Errorf(cashier.EUnsupported, "%s is not a token of %s", o.Symbol, k.Chain)
	}
	cctx, cancel := context.WithTimeout(ctx, chainTimeout)
	defer cancel()
	var funds *big.Int
	if o.PayoutType == cashier.PayoutAllowance {
		bal, err := cl.TokenBalance(cctx, t.ContractAddress, o.FromAddress)
		if err != nil {
			return nil, err
		}
		allow, err := cl.Allowance(cctx, t.ContractAddress, o.FromAddress, k.Address)
		if err != nil {
			return nil, err
		}
		funds = bal
		if allow.Cmp(bal) < 0 {
			funds = allow
		}
	} else if funds, err = cl.TokenBalance(cctx, t.ContractAddress, k.Address); err != nil {
		return nil, err
	}
	committed := new(big.Int)
	key := poolKey(o)
	for _, st := range []cashier.PayoutStatus{cashier.PayoutPending, cashier.PayoutProcessing} {
		f := cashier.OrderSearch{Status: string(st), Chain: k.Chain, Symbol: o.Symbol, PageSize: 200}
		for f.Page = 1; ; f.Page++ {
			ps, total, err := s.Store.SearchPayouts(ctx, f)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				if poolKey(&p) == key && (p.Status == cashier.PayoutProcessing || !p.NeedsReview) {
					committed.Add(committed, p.Amount)
					if p.Fee != nil {
						committed.Add(committed, p.Fee)
					}
				}
			}
			if f.Page*f.PageSize >= total {
				break
			}
		}
	}
	return &poolState{funds: funds, committed: committed, free: new(big.Int).Sub(funds, committed)}, nil
}

// allowanceJSON is what wallet w allows contract k to draw of token t as
// last seen on chain (its newest confirmed Approval less the payouts paid
// since), what pending payouts lock of it and what is left for new ones.
// Without a recorded approval only the lock is shown.
func (s *Server) allowanceJSON(ctx context.Context, a *cashier.Allowance, t cashier.Token, w string, k *cashier.Contract) map[string]any {
	out := map[string]any{"wallet": w, "symbol": t.Symbol}
	locked, err := s.Store.PoolLocked(ctx, orders.PoolKeys(&cashier.PayoutOrder{Chain: k.Chain, PayoutType: cashier.PayoutAllowance,
		FromAddress: w, Symbol: t.Symbol}, k)[0], math.MaxUint64)
	if err != nil {
		locked = new(big.Int)
	}
	out["locked"] = cashier.FormatAmount(locked, t.Decimals)
	if a == nil {
		out["allowance"], out["error"] = "", "no approval recorded"
		return out
	}
	left := a.Left()
	avail := new(big.Int).Sub(left, locked)
	if avail.Sign() < 0 {
		avail.SetInt64(0)
	}
	out["allowance"], out["approved"], out["available"] = cashier.FormatAmount(left, t.Decimals), cashier.FormatAmount(a.Approved, t.Decimals),
		cashier.FormatAmount(avail, t.Decimals)
	out["approvalTx"], out["approvalBlock"], out["approvedAt"] = a.TxHash, a.Block, ms(a.BlockTime)
	out["approvalUrl"] = s.explorer(k.Chain, "tx", a.TxHash)
	return out
}

// localURL reports whether u's host is this machine (loopback).
func localURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := p.Hostname()
	if h == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.IsLoopback()
}
