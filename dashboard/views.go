package dashboard

import (
	"context"
	"math/big"
	"net/http"
	"net/netip"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
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
	if _, ok := s.Chains[k.Chain]; !ok {
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
		if s.Ledger == nil {
			b["error"] = "unavailable"
		} else if f, err := s.Ledger.ContractFunds(ctx, k, t); err == nil {
			b["balance"], b["locked"], b["available"] = cashier.FormatAmount(f.OnChain, t.Decimals),
				cashier.FormatAmount(f.Locked, t.Decimals), cashier.FormatAmount(f.Available, t.Decimals)
		} else {
			b["error"] = "unavailable"
		}
		balances = append(balances, b)
		for w := range wallets {
			approvals = append(approvals, s.allowanceJSON(ctx, recorded[w+"/"+t.Symbol], t, w, k))
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
	health := map[cashier.Chain]cashier.NetworkHealth{}
	if s.Networks != nil {
		for _, h := range s.Networks() {
			health[h.Chain] = h
		}
	}
	out := []map[string]any{}
	for _, n := range s.Registry.Networks {
		row := map[string]any{"chainId": n.Chain, "networkName": n.NetworkName, "status": status[n.Chain],
			"confirmations": n.Confirmations, "explorerUrl": n.ExplorerURL}
		if h, ok := health[n.Chain]; ok && !h.Active {
			// Nothing watches it: its orders are refused whatever its status.
			row["health"], row["reason"] = "inactive: "+h.State, h.Reason
		} else if cl, ok := s.Chains[n.Chain]; ok {
			ctx, cancel := context.WithTimeout(r.Context(), chainTimeout)
			head, err := cl.Head(ctx)
			cancel()
			if err != nil {
				row["health"], row["reason"] = "unreachable", health[n.Chain].Reason
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
// pool each draws on, as the Balances page and the API's balance read them
// (poolFunds), and how much of the pool's locked amount awaits review.
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
	inReview := map[string]*big.Int{}
	for _, p := range ps {
		k := poolKey(&p)
		if inReview[k] == nil {
			inReview[k] = new(big.Int)
		}
		inReview[k].Add(inReview[k], need(&p))
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
			if p.PayoutType == cashier.PayoutAllowance {
				out["wallet"] = p.FromAddress
			}
			if f, err := s.poolFunds(r.Context(), &p); err != nil {
				out["error"] = "unavailable"
			} else {
				out["balance"], out["locked"], out["available"] = cashier.FormatAmount(f.balance, p.Decimals),
					cashier.FormatAmount(f.locked, p.Decimals), cashier.FormatAmount(f.available, p.Decimals)
				out["awaitingReview"] = cashier.FormatAmount(inReview[key], p.Decimals)
				if f.allowance != nil {
					out["allowance"] = cashier.FormatAmount(f.allowance, p.Decimals)
				}
			}
			pools[key] = out
		}
		row["pool"] = pools[key]
		list = append(list, row)
	}
	return map[string]any{"available": true, "list": list}, nil
}

// need is what a payout takes from its pool: amount and fee.
func need(o *cashier.PayoutOrder) *big.Int {
	n := new(big.Int).Set(o.Amount)
	if o.Fee != nil {
		n.Add(n, o.Fee)
	}
	return n
}

// poolKey names the funds a payout draws on: its contract's balance of the
// token, or in allowance mode the approving wallet's funds for it.
func poolKey(o *cashier.PayoutOrder) string {
	if o.PayoutType == cashier.PayoutAllowance {
		return "w/" + o.ContractID + "/" + o.FromAddress + "/" + o.Symbol
	}
	return "c/" + o.ContractID + "/" + o.Symbol
}

// funds is one pool as the ledger reads it (ledger.ContractFunds or
// WalletFunds): balance is what the pool can pay on chain (the contract's
// balance, or in allowance mode the lesser of the allowance and the
// wallet's balance), locked what its PENDING and PROCESSING payouts hold
// (those awaiting review included), available balance − locked (never
// below zero).
type funds struct {
	balance, locked, available *big.Int
	allowance, wallet          *big.Int // allowance mode: the allowance and the wallet's balance
}

// poolFunds reads the pool o draws on through the ledger, the one place
// the figures are computed.
func (s *Server) poolFunds(ctx context.Context, o *cashier.PayoutOrder) (*funds, error) {
	if s.Ledger == nil {
		return nil, cashier.Errorf(cashier.EUnsupported, "balances are not available on this server")
	}
	k, err := s.Store.Contract(ctx, o.ContractID)
	if err != nil {
		return nil, err
	}
	t, ok := s.Registry.Token(k.Chain, o.Symbol)
	if !ok {
		return nil, cashier.Errorf(cashier.EUnsupported, "%s is not a token of %s", o.Symbol, k.Chain)
	}
	cctx, cancel := context.WithTimeout(ctx, chainTimeout)
	defer cancel()
	if o.PayoutType == cashier.PayoutAllowance {
		w, err := s.Ledger.WalletFunds(cctx, k, t, o.FromAddress)
		if err != nil {
			return nil, err
		}
		bal := w.Balance
		if w.Allowance.Cmp(bal) < 0 {
			bal = w.Allowance
		}
		return &funds{balance: bal, locked: w.Locked, available: w.Available, allowance: w.Allowance, wallet: w.Balance}, nil
	}
	b, err := s.Ledger.ContractFunds(cctx, k, t)
	if err != nil {
		return nil, err
	}
	return &funds{balance: b.OnChain, locked: b.Locked, available: b.Available}, nil
}

// allowanceJSON is what wallet w allows contract k to draw of token t,
// what pending payouts lock of it and what is left for new ones, read by
// the ledger as every page reads them; with the wallet's newest recorded
// Approval (its transaction) when the chain watcher saw one.
func (s *Server) allowanceJSON(ctx context.Context, a *cashier.Allowance, t cashier.Token, w string, k *cashier.Contract) map[string]any {
	out := map[string]any{"wallet": w, "symbol": t.Symbol}
	if s.Ledger == nil {
		out["error"] = "unavailable"
		return out
	}
	f, err := s.Ledger.WalletFunds(ctx, k, t, w)
	if err != nil {
		out["error"] = "unavailable"
		return out
	}
	out["allowance"], out["locked"], out["available"], out["balance"] = cashier.FormatAmount(f.Allowance, t.Decimals),
		cashier.FormatAmount(f.Locked, t.Decimals), cashier.FormatAmount(f.Available, t.Decimals), cashier.FormatAmount(f.Balance, t.Decimals)
	if a == nil {
		out["note"] = "no approval recorded"
		return out
	}
	out["approved"] = cashier.FormatAmount(a.Approved, t.Decimals)
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
