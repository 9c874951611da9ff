package dashboard

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/webhook"
)

// The operations behind both the pages and the admin JSON API. Each
// checks the role table and the merchant scope, validates fully, and makes
// its change and audit entry in one transaction.

// Reviewer is the payout review of the payout service.
type Reviewer interface {
	// Pending lists the payouts awaiting review of a merchant ("": all).
	Pending(ctx context.Context, merchantID string) ([]cashier.PayoutOrder, error)
	// Approve releases one payout to execution; Refuse refuses it.
	Approve(ctx context.Context, id string) error
	Refuse(ctx context.Context, id, reason string) error
	// Policy reads and SetPolicy checks and stores a merchant's review
	// policy (mode default, always, never or above with an amount).
	Policy(ctx context.Context, merchantID string) (*cashier.ReviewPolicy, error)
	SetPolicy(ctx context.Context, merchantID, mode, above string) (*cashier.ReviewPolicy, error)
}

// Provisioner creates credentials and contract records by the same rules
// as the CLI.
type Provisioner interface {
	NewKeys() (apiKey, secretKey, webhookKey string, err error)
	// NewContract proves the contract on chain to be the merchant's (the
	// CLI's check) and builds its record.
	NewContract(ctx context.Context, merchantID, chain, address, webhookURL string) (*cashier.Contract, error)
	// Signer is the merchant's signer address on chain, which the
	// merchant's contracts must name as signer().
	Signer(ctx context.Context, merchantID, chain string) (string, error)
}

// Keys are a merchant's credentials, shown once.
type Keys struct {
	MerchantID string `json:"merchantId"`
	APIKey     string `json:"apiKey"`
	SecretKey  string `json:"secretKey"`
	WebhookKey string `json:"webhookKey"`
	// PreviousKeyUntil is when the replaced API key stops working (Unix
	// ms); 0: it stopped at the rotation.
	PreviousKeyUntil int64 `json:"previousKeyUntil"`
	// PreviousKeyPrefix is the start of the replaced key, to tell them apart.
	PreviousKeyPrefix string `json:"previousKeyPrefix,omitempty"`
}

// merchantOf resolves the merchant an operation acts on: the user's own,
// or for operators the one named (which must exist).
func (s *Server) merchantOf(ctx context.Context, a *actor, named string) (string, error) {
	if !a.operator() {
		if named != "" && named != a.user.MerchantID {
			return "", errNotFound
		}
		return a.user.MerchantID, nil
	}
	if named == "" {
		return "", cashier.Errorf(cashier.EMissing, "choose a merchant")
	}
	if _, err := s.Store.Merchant(ctx, named); err != nil {
		return "", errNotFound
	}
	return named, nil
}

// RotateKeys replaces the merchant's API, secret and webhook keys. The
// old API key and its secret keep working for the key grace (KeyGrace) so
// callers can switch without an outage; a revoked merchant's old key
// never comes back. After a revoke it issues keys again.
func (s *Server) RotateKeys(ctx context.Context, a *actor, merchantID string) (*Keys, error) {
	if s.Provision == nil {
		return nil, cashier.Errorf(cashier.EInternal, "key issuing is not configured")
	}
	api, secret, wh, err := s.Provision.NewKeys()
	if err != nil {
		return nil, err
	}
	k := &Keys{MerchantID: merchantID, APIKey: api, SecretKey: secret, WebhookKey: wh}
	err = s.change(ctx, a, OpKeysRotate, merchantID, merchantID, "new API, secret and webhook keys", func(tx cashier.AccountTx) error {
		m, err := tx.Merchant(ctx, merchantID)
		if err != nil {
			return err
		}
		m.PrevKeyUntil, m.PrevKeyPrefix = time.Time{}, ""
		if s.cfg.KeyGrace > 0 && m.Status == cashier.MerchantActive {
			m.PrevKeyUntil = s.Clock.Now().Add(s.cfg.KeyGrace)
			k.PreviousKeyUntil = m.PrevKeyUntil.UnixMilli()
		}
		m.APIKey, m.SecretKey, m.WebhookKey, m.Status = api, secret, wh, cashier.MerchantActive
		return tx.ReplaceMerchantKeys(ctx, m)
	})
	if err != nil {
		return nil, err
	}
	if s.OnKeys != nil {
		s.OnKeys(k)
	}
	return k, nil
}

// RevokeOldKey ends a rotation's grace at once: the previous API key is
// refused from now on, the current one keeps working.
func (s *Server) RevokeOldKey(ctx context.Context, a *actor, merchantID string) error {
	return s.change(ctx, a, OpKeysRevoke, merchantID, merchantID, "previous API key revoked", func(tx cashier.AccountTx) error {
		if err := tx.EndPreviousKey(ctx, merchantID); cashier.ErrorCode(err) == cashier.ENotFound {
			return cashier.Errorf(cashier.EInvalid, "merchant %s has no previous API key to revoke", merchantID)
		} else if err != nil {
			return err
		}
		return nil
	})
}

// RevokeKeys disables the merchant's API key: every API call with it is
// refused until keys are issued again.
func (s *Server) RevokeKeys(ctx context.Context, a *actor, merchantID string) error {
	return s.change(ctx, a, OpKeysRevoke, merchantID, merchantID, "API key revoked", func(tx cashier.AccountTx) error {
		m, err := tx.Merchant(ctx, merchantID)
		if err != nil {
			return err
		}
		// A fresh random key replaces the stored hash too, so the old key
		// cannot come back by re-enabling the merchant.
		api, secret, wh, err := s.Provision.NewKeys()
		if err != nil {
			return err
		}
		m.APIKey, m.SecretKey, m.WebhookKey, m.Status = api, secret, wh, cashier.MerchantDisabled
		m.PrevKeyUntil = time.Time{} // and any previous key with it
		return tx.ReplaceMerchantKeys(ctx, m)
	})
}

// CashierChange is an update of a cashier; nil fields stay as they are.
type CashierChange struct {
	Name       *string `json:"name,omitempty"`
	WebhookURL *string `json:"webhookUrl,omitempty"`
	Status     *string `json:"status,omitempty"`
	// AllowedOrigins is the comma-separated list of merchant pages whose
	// widget SDK may create orders (docs/checkout.md); "" clears it.
	AllowedOrigins *string `json:"allowedOrigins,omitempty"`
}

// UpdateCashier changes a cashier's name, webhook URL or status.
func (s *Server) UpdateCashier(ctx context.Context, a *actor, id string, ch CashierChange) (*cashier.Cashier, error) {
	c, err := s.Store.Cashier(ctx, id)
	if err != nil || !a.mayReadMerchant(c.MerchantID) {
		return nil, errNotFound
	}
	var detail []string
	if ch.Name != nil {
		n := strings.TrimSpace(*ch.Name)
		if n == "" || len(n) > 128 {
			return nil, cashier.Errorf(cashier.EInvalid, "name must be 1 to 128 characters")
		}
		c.Name = n
		detail = append(detail, "name="+n)
	}
	if ch.WebhookURL != nil {
		u := strings.TrimSpace(*ch.WebhookURL)
		if u != "" {
			if err := webhook.CheckURL(u, s.cfg.Sandbox); err != nil {
				return nil, cashier.Errorf(cashier.EInvalid, "webhook URL: %v", err)
			}
		}
		c.WebhookURL = u
		detail = append(detail, "webhookUrl="+u)
	}
	if ch.Status != nil {
		switch st := cashier.CashierStatus(*ch.Status); st {
		case cashier.CashierActive, cashier.CashierInactive:
			c.Status = st
		default:
			return nil, cashier.Errorf(cashier.EInvalid, "status must be active or inactive, not %q", *ch.Status)
		}
		detail = append(detail, "status="+*ch.Status)
	}
	if ch.AllowedOrigins != nil {
		list, err := cashier.ParseOrigins(*ch.AllowedOrigins)
		if err != nil {
			return nil, err
		}
		c.AllowedOrigins = list
		detail = append(detail, "allowedOrigins="+strings.Join(list, ","))
	}
	if len(detail) == 0 {
		return nil, cashier.Errorf(cashier.EMissing, "nothing to change")
	}
	err = s.change(ctx, a, OpCashierUpdate, c.MerchantID, c.ID, strings.Join(detail, " "), func(tx cashier.AccountTx) error {
		return tx.UpdateCashier(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// TestCashier sends a signed test event to the cashier's webhook URL.
func (s *Server) TestCashier(ctx context.Context, a *actor, id string) (*webhook.TestResult, error) {
	c, err := s.Store.Cashier(ctx, id)
	if err != nil || !a.mayReadMerchant(c.MerchantID) {
		return nil, errNotFound
	}
	if !a.can(OpCashierTest) {
		return nil, errForbidden
	}
	if c.WebhookURL == "" {
		return nil, cashier.Errorf(cashier.EInvalid, "cashier %s has no webhook URL", c.ID)
	}
	if s.Dispatcher == nil {
		return nil, cashier.Errorf(cashier.EInternal, "webhooks are not running")
	}
	res, err := s.Dispatcher.SendTest(ctx, c.MerchantID, c.WebhookURL)
	if err != nil {
		return nil, err
	}
	detail := fmt.Sprintf("test event to %s: HTTP %d %s", res.URL, res.HTTPStatus, res.Error)
	if err := s.change(ctx, a, OpCashierTest, c.MerchantID, c.ID, strings.TrimSpace(detail), nil); err != nil {
		return nil, err
	}
	return res, nil
}

// ContractRequest registers a payout contract.
type ContractRequest struct {
	MerchantID string `json:"merchantId,omitempty"`
	ChainID    string `json:"chainId"`
	Address    string `json:"address"`
	WebhookURL string `json:"webhookUrl,omitempty"`
}

// CreateContract registers a deployed payout contract for the merchant.
func (s *Server) CreateContract(ctx context.Context, a *actor, req ContractRequest) (*cashier.Contract, error) {
	if !a.can(OpContractCreate) {
		return nil, errForbidden
	}
	mid, err := s.merchantOf(ctx, a, req.MerchantID)
	if err != nil {
		return nil, err
	}
	if s.Provision == nil {
		return nil, cashier.Errorf(cashier.EInternal, "contract registration is not configured")
	}
	k, err := s.Provision.NewContract(ctx, mid, req.ChainID, req.Address, req.WebhookURL)
	if err != nil {
		return nil, cashier.Errorf(cashier.EInvalid, "%v", err)
	}
	err = s.change(ctx, a, OpContractCreate, mid, k.ID, string(k.Chain)+" "+k.Address, func(tx cashier.AccountTx) error {
		return tx.CreateContract(ctx, k)
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// ResendEvent queues a webhook event for delivery again.
func (s *Server) ResendEvent(ctx context.Context, a *actor, id string) error {
	e, err := s.Store.Event(ctx, id)
	if err != nil || !a.mayReadMerchant(e.MerchantID) {
		return errNotFound
	}
	if !a.can(OpEventResend) {
		return errForbidden
	}
	if s.Dispatcher == nil {
		return cashier.Errorf(cashier.EInternal, "webhooks are not running")
	}
	// The resend and its audit entry are two writes: the outbox has its
	// own transaction. Audit first, so a resend never goes unrecorded.
	if err := s.change(ctx, a, OpEventResend, e.MerchantID, e.ID, "resend "+string(e.Type)+" "+e.OrderNo, nil); err != nil {
		return err
	}
	return s.Dispatcher.Resend(ctx, id)
}

// SetNetworkStatus puts a network in or out of maintenance.
func (s *Server) SetNetworkStatus(ctx context.Context, a *actor, chainID, status string) error {
	if !a.can(OpNetworkState) {
		return errForbidden
	}
	ch, err := cashier.ParseChain(chainID)
	if err != nil {
		return err
	}
	st := cashier.NetworkStatus(status)
	if st != cashier.NetworkActive && st != cashier.NetworkMaintenance {
		return cashier.Errorf(cashier.EInvalid, "status must be active or maintenance, not %q", status)
	}
	return s.change(ctx, a, OpNetworkState, "", string(ch), "status="+status, func(tx cashier.AccountTx) error {
		return tx.SetNetworkState(ctx, cashier.NetworkState{Chain: ch, Status: st, UpdatedAt: s.Clock.Now()})
	})
}

// Review approves or refuses payouts awaiting review. The whole selection
// is checked first (the user's merchant, each order waiting for review,
// and for approval that every pool covers what is approved), then each
// order goes through the payout service's own operation, as the CLI's
// does. A refusal needs a reason.
func (s *Server) Review(ctx context.Context, a *actor, merchantID string, ids []string, approve bool, reason string) error {
	if !a.can(OpReview) {
		return errForbidden
	}
	if s.Reviewer == nil {
		return cashier.Errorf(cashier.EInternal, "payout review is not available")
	}
	if len(ids) == 0 || len(ids) > 500 {
		return cashier.Errorf(cashier.EInvalid, "choose 1 to 500 payouts")
	}
	reason = strings.TrimSpace(reason)
	if !approve && reason == "" {
		return cashier.Errorf(cashier.EMissing, "a refusal needs a reason (at most %d characters)", orders.MaxReasonLen)
	}
	if !approve && len([]rune(reason)) > orders.MaxReasonLen {
		return cashier.Errorf(cashier.EInvalid, "the reason is %d characters long; a refusal reason has at most %d", len([]rune(reason)), orders.MaxReasonLen)
	}
	var picked []*cashier.PayoutOrder
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		o, err := s.Store.Payout(ctx, id)
		if err != nil || !a.mayReadMerchant(o.MerchantID) || (merchantID != "" && o.MerchantID != merchantID) {
			return cashier.Errorf(cashier.ENotFound, "payout %s not found", id)
		}
		if o.Status != cashier.PayoutPending || !o.NeedsReview {
			return cashier.Errorf(cashier.EInvalidStatus, "payout %s is %s and not waiting for review", o.OrderNo, o.Status)
		}
		picked = append(picked, o)
	}
	if approve {
		if err := s.checkPools(ctx, picked); err != nil {
			return err
		}
	}
	verb := "approve"
	if !approve {
		verb = "refuse: " + reason
	}
	byMerchant := map[string][]string{}
	for _, o := range picked {
		var err error
		if approve {
			err = s.Reviewer.Approve(ctx, o.ID)
		} else {
			err = s.Reviewer.Refuse(ctx, o.ID, reason)
		}
		if err != nil {
			return fmt.Errorf("payout %s: %w", o.OrderNo, err)
		}
		byMerchant[o.MerchantID] = append(byMerchant[o.MerchantID], o.OrderNo)
	}
	for mid, nos := range byMerchant {
		if err := s.change(ctx, a, OpReview, mid, strings.Join(nos, ","), verb, nil); err != nil {
			return err
		}
	}
	return nil
}

// checkPools refuses an approval that would commit more than a pool
// holds. The pool's figures are the ones every page shows (poolFunds):
// its locked amount holds every pending payout, those awaiting review
// included, so what approved payouts hold is locked less what awaits
// review, and per pool that plus this selection must fit in the balance.
func (s *Server) checkPools(ctx context.Context, picked []*cashier.PayoutOrder) error {
	want := map[string]*big.Int{}
	first := map[string]*cashier.PayoutOrder{}
	for _, o := range picked {
		k := poolKey(o)
		if want[k] == nil {
			want[k], first[k] = new(big.Int), o
		}
		want[k].Add(want[k], need(o))
	}
	for k, n := range want {
		o := first[k]
		f, err := s.poolFunds(ctx, o)
		if err != nil {
			return cashier.Errorf(cashier.EInsufficientContr, "the funds of %s cannot be read, so nothing is approved: %v", o.ContractID, err)
		}
		pending, err := s.Reviewer.Pending(ctx, o.MerchantID)
		if err != nil {
			return err
		}
		approved := new(big.Int).Set(f.locked)
		for i := range pending {
			if poolKey(&pending[i]) == k {
				approved.Sub(approved, need(&pending[i]))
			}
		}
		approved = maxZero(approved)
		if free := new(big.Int).Sub(f.balance, approved); n.Cmp(free) > 0 {
			return cashier.Errorf(cashier.EInsufficientContr,
				"the pool holds %s %s, of which approved payouts hold %s: %s %s is free for approval; the selection needs %s %s",
				cashier.FormatAmount(f.balance, o.Decimals), o.Symbol, cashier.FormatAmount(approved, o.Decimals),
				cashier.FormatAmount(maxZero(free), o.Decimals), o.Symbol, cashier.FormatAmount(n, o.Decimals), o.Symbol)
		}
	}
	return nil
}

func maxZero(v *big.Int) *big.Int {
	if v.Sign() < 0 {
		return new(big.Int)
	}
	return v
}

// SetReviewPolicy changes which of the merchant's payouts wait for review.
func (s *Server) SetReviewPolicy(ctx context.Context, a *actor, merchantID, mode, above string) (*cashier.ReviewPolicy, error) {
	if !a.can(OpReviewPolicy) {
		return nil, errForbidden
	}
	if s.Reviewer == nil {
		return nil, cashier.Errorf(cashier.EInternal, "payout review is not available")
	}
	mid, err := s.merchantOf(ctx, a, merchantID)
	if err != nil {
		return nil, err
	}
	var p *cashier.ReviewPolicy
	// The payout service stores the policy in its own transaction; the
	// audit entry follows it.
	if p, err = s.Reviewer.SetPolicy(ctx, mid, strings.TrimSpace(mode), strings.TrimSpace(above)); err != nil {
		return nil, err
	}
	detail := "mode=" + string(p.Mode)
	if p.Above != "" {
		detail += " above=" + p.Above
	}
	return p, s.change(ctx, a, OpReviewPolicy, mid, mid, detail, nil)
}

// SetTOTP turns the user's own second factor on (secret and a code from
// it) or off (nil secret, with a current code).
func (s *Server) SetTOTP(ctx context.Context, a *actor, secret []byte, code string) error {
	now := s.Clock.Now()
	check := secret
	if check == nil {
		check = a.user.TOTPSecret
	}
	if check == nil {
		return cashier.Errorf(cashier.EInvalid, "the code does not match")
	}
	// The code is spent like a sign-in's, so one seen here cannot sign in.
	step, ok := MatchTOTP(check, code, now, 0)
	if !ok {
		return cashier.Errorf(cashier.EInvalid, "the code does not match")
	}
	detail := "second factor on"
	if secret == nil {
		detail = "second factor off"
	}
	return s.change(ctx, a, OpOwnAccount, a.user.MerchantID, a.user.ID, detail, func(tx cashier.AccountTx) error {
		u, err := tx.User(ctx, a.user.ID)
		if err != nil {
			return err
		}
		if err := tx.AcceptTOTPStep(ctx, u.ID, step); err != nil {
			return err
		}
		u.TOTPSecret = secret
		return tx.UpdateUser(ctx, u)
	})
}
