package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/webhook"
)

// NewMerchant generates a merchant with fresh credentials from crypto/rand.
func NewMerchant(name string, clock cashier.Clock) (*cashier.Merchant, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 128 {
		return nil, fmt.Errorf("merchant name must be 1 to 128 characters")
	}
	return &cashier.Merchant{
		ID:         orders.NewID("m_"),
		Name:       name,
		APIKey:     "pk_" + randomToken(40),
		SecretKey:  "sk_" + randomToken(48),
		WebhookKey: "whk_" + randomToken(48),
		Status:     cashier.MerchantActive,
		CreatedAt:  clock.Now(),
	}, nil
}

// NewCashier checks the merchant and webhook URL (by the rules of the
// mode: sandbox allows http and private addresses) and builds a cashier.
func NewCashier(ctx context.Context, r cashier.Reader, merchantID, name, webhookURL string, sandbox bool, clock cashier.Clock) (*cashier.Cashier, error) {
	if _, err := r.Merchant(ctx, merchantID); err != nil {
		return nil, fmt.Errorf("merchant %s: %w", merchantID, err)
	}
	if err := CheckWebhookURL(webhookURL, sandbox); err != nil {
		return nil, err
	}
	if name == "" {
		name = "Default cashier"
	}
	return &cashier.Cashier{
		ID:         orders.NewID("c_"),
		MerchantID: merchantID,
		Name:       name,
		WebhookURL: webhookURL,
		Status:     cashier.CashierActive,
		CreatedAt:  clock.Now(),
	}, nil
}

// ContractSpec describes a payout contract to register.
type ContractSpec struct {
	MerchantID            string
	Chain                 string // either naming scheme
	Address               string
	WebhookURL            string // optional; default: the merchant's first cashier's
	DepositFactory        string // optional deposit factory sweeping into this contract
	DepositImplementation string // required with DepositFactory
	Sandbox               bool   // the webhook URL follows the sandbox rules
}

// NewContract checks the merchant, network and addresses, proves on chain
// that the contract (and its deposit factory) is the committed code naming
// the merchant's own signer (ProveContract), and builds the payout contract
// record. The CLI and the dashboard both register through it.
func NewContract(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, s ContractSpec, clock cashier.Clock) (*cashier.Contract, error) {
	if _, err := st.Merchant(ctx, s.MerchantID); err != nil {
		return nil, fmt.Errorf("merchant %s: %w", s.MerchantID, err)
	}
	chain, err := cashier.ParseChain(s.Chain)
	if err != nil {
		return nil, err
	}
	k := &cashier.Contract{
		ID:         orders.NewID("k_"),
		MerchantID: s.MerchantID,
		Chain:      chain,
		WebhookURL: s.WebhookURL,
		Status:     cashier.ContractActive,
		CreatedAt:  clock.Now(),
	}
	if k.Address, err = address.Validate(chain, s.Address); err != nil {
		return nil, fmt.Errorf("contract address: %w", err)
	}
	if err := CheckWebhookURL(s.WebhookURL, s.Sandbox); err != nil {
		return nil, err
	}
	if (s.DepositFactory == "") != (s.DepositImplementation == "") {
		return nil, fmt.Errorf("deposit factory and deposit implementation go together")
	}
	if s.DepositFactory != "" {
		if k.DepositFactory, err = address.Validate(chain, s.DepositFactory); err != nil {
			return nil, fmt.Errorf("deposit factory: %w", err)
		}
		if k.DepositImplementation, err = address.Validate(chain, s.DepositImplementation); err != nil {
			return nil, fmt.Errorf("deposit implementation: %w", err)
		}
	}
	if _, err := st.ContractByAddress(ctx, chain, k.Address); err == nil {
		return nil, cashier.Errorf(cashier.EDuplicate, "contract %s is registered on %s already", k.Address, chain)
	}
	rd, err := ContractReaderFor(chains, chain)
	if err != nil {
		return nil, err
	}
	signer, err := MerchantSigner(ctx, st, s.MerchantID, chain, clock)
	if err != nil {
		return nil, err
	}
	if err := ProveContract(ctx, rd, k, signer.Address); err != nil {
		return nil, err
	}
	k.Signer = signer.Address
	return k, nil
}

// CheckWebhookURL accepts an empty URL (no webhooks) or a URL the webhook
// sender may deliver to in the mode: https to a public host in production,
// http and private hosts too in sandbox. Host names are checked again,
// after DNS resolution, at every delivery.
func CheckWebhookURL(s string, sandbox bool) error {
	if s == "" {
		return nil
	}
	return webhook.CheckURL(s, sandbox)
}

const tokenAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// randomToken returns n characters drawn uniformly from tokenAlphabet.
func randomToken(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n*2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand does not fail on supported platforms
		}
		for _, b := range buf {
			// 248 = 4*62: rejecting larger bytes keeps the draw unbiased.
			if b < 248 && len(out) < n {
				out = append(out, tokenAlphabet[int(b)%len(tokenAlphabet)])
			}
		}
	}
	return string(out)
}
