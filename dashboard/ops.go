package dashboard

import (
	"context"
	"fmt"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/webhook"
)

// The operations behind both the pages and the admin JSON API. Each
// checks the role table and the merchant scope, validates fully, and makes
// its change and audit entry in one transaction.

// Reviewer is the payout review queue of the payout service.
type Reviewer interface {
	// Pending lists the merchant's payouts awaiting review ("" : all).
	Pending(ctx context.Context, merchantID string) ([]cashier.PayoutOrder, error)
	// Approve and Refuse act on the merchant's payouts by id, all or none.
	Approve(ctx context.Context, merchantID string, ids []string) error
	Refuse(ctx context.Context, merchantID string, ids []string, reason string) error
}

// Provisioner creates credentials and contract records by the same rules
// as the CLI.
type Provisioner interface {
	NewKeys() (apiKey, secretKey, webhookKey string, err error)
	NewContract(ctx context.Context, r cashier.Reader, merchantID, chain, address, webhookURL string) (*cashier.Contract, error)
}

// Keys are a merchant's credentials, shown once.
type Keys struct {
	MerchantID string `json:"merchantId"`
	APIKey     string `json:"apiKey"`
	SecretKey  string `json:"secretKey"`
	WebhookKey string `json:"webhookKey"`
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

// RotateKeys replaces the merchant's API, secret and webhook keys; the old
// API key stops working at once. After a revoke it issues keys again.
func (s *Server) RotateKeys(ctx context.Context, a *actor, merchantID string) (*Keys, error) {
	if s.Provision == nil {
		return nil, cashier.Errorf(cashier.EInternal, "key issuing is not configured")
	}
	api, secret, wh, err := s.Provision.NewKeys()
	if err != nil {
		return nil, err
	}
	err = s.change(ctx, a, OpKeysRotate, merchantID, merchantID, "new API, secret and webhook keys", func(tx cashier.AccountTx) error {
		m, err := tx.Merchant(ctx, merchantID)
		if err != nil {
			return err
		}
		m.APIKey, m.SecretKey, m.WebhookKey, m.Status = api, secret, wh, cashier.MerchantActive
		return tx.ReplaceMerchantKeys(ctx, m)
	})
	if err != nil {
		return nil, err
	}
	return &Keys{MerchantID: merchantID, APIKey: api, SecretKey: secret, WebhookKey: wh}, nil
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
		return tx.ReplaceMerchantKeys(ctx, m)
	})
}

// CashierChange is an update of a cashier; nil fields stay as they are.
type CashierChange struct {
	Name       *string `json:"name,omitempty"`
	WebhookURL *string `json:"webhookUrl,omitempty"`
	Status     *string `json:"status,omitempty"`
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
	k, err := s.Provision.NewContract(ctx, s.Store, mid, req.ChainID, req.Address, req.WebhookURL)
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

// Review approves or refuses payouts awaiting review. A refusal needs a
// reason.
func (s *Server) Review(ctx context.Context, a *actor, merchantID string, ids []string, approve bool, reason string) error {
	if !a.can(OpReview) {
		return errForbidden
	}
	if s.Reviewer == nil {
		return cashier.Errorf(cashier.EInternal, "payout review is not available")
	}
	mid, err := s.merchantOf(ctx, a, merchantID)
	if err != nil {
		return err
	}
	if len(ids) == 0 || len(ids) > 500 {
		return cashier.Errorf(cashier.EInvalid, "choose 1 to 500 payouts")
	}
	reason = strings.TrimSpace(reason)
	if !approve && (reason == "" || len(reason) > 500) {
		return cashier.Errorf(cashier.EMissing, "a refusal needs a reason (at most 500 characters)")
	}
	verb := "approve"
	if !approve {
		verb = "refuse: " + reason
	}
	// The review service makes its own transaction with the payouts' state
	// changes and events; the audit entry follows it.
	if approve {
		err = s.Reviewer.Approve(ctx, mid, ids)
	} else {
		err = s.Reviewer.Refuse(ctx, mid, ids, reason)
	}
	if err != nil {
		return err
	}
	return s.change(ctx, a, OpReview, mid, strings.Join(ids, ","), verb, nil)
}

// SetTOTP turns the user's own second factor on (secret and a code from
// it) or off (nil secret, with a current code).
func (s *Server) SetTOTP(ctx context.Context, a *actor, secret []byte, code string) error {
	now := s.Clock.Now()
	check := secret
	if check == nil {
		check = a.user.TOTPSecret
	}
	if check == nil || !CheckTOTP(check, code, now) {
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
		u.TOTPSecret = secret
		return tx.UpdateUser(ctx, u)
	})
}
