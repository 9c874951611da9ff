package app

import (
	"context"
	stdhttp "net/http"
	"net/netip"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/dashboard"
	"github.com/stablecashier/cashier/orders"
)

// mountDashboard builds the dashboard and serves it under /dashboard/
// beside the merchant API, which keeps every other path.
func (s *Service) mountDashboard(trusted []netip.Prefix) error {
	dc := dashboard.DefaultConfig()
	dc.Sandbox = s.Config.Mode == "sandbox"
	// auto: Secure except in sandbox mode, which is served over plain http.
	dc.SecureCookie = s.Config.DashboardSecureCookie == "true" || (s.Config.DashboardSecureCookie == "auto" && !dc.Sandbox)
	dc.TrustedProxies = trusted
	dc.IPv6Prefix = s.Config.IPv6Prefix
	dc.PasswordChecks = s.Config.DashboardPasswordChecks
	dc.KeyGrace = s.Config.KeyGrace
	dc.PublicBaseURL = strings.TrimRight(s.Config.PublicURL, "/")
	dc.RefundReasonMax = s.Orders.Config.MaxTextLen

	dc.HeaderPrefix = s.Config.HeaderPrefix
	d, err := dashboard.New(dc, dashboard.Deps{
		Store: s.Store, Registry: s.Registry, Clock: s.Clock, Dispatcher: s.Dispatcher, Chains: s.Chains, Networks: s.NetworkHealth,
		Logger: s.Logger.With("component", "dashboard"), Provision: provisioner{s.Clock, dc.Sandbox, s.Store, s.Chains},
		Reviewer: reviewer{s.Orders}, Ledger: s.Ledger, Refunds: refundRecords{s.Store}, Refunder: s.Orders,
	})
	if err != nil {
		return err
	}
	s.Dashboard = d
	mux := stdhttp.NewServeMux()
	mux.Handle(dashboard.Prefix, d)
	mux.Handle("/", s.Handler)
	s.Handler = mux
	return nil
}

// provisioner issues keys and contract records for the dashboard by the
// CLI's rules.
type provisioner struct {
	clock   cashier.Clock
	sandbox bool
	store   cashier.Store
	chains  map[cashier.Chain]cashier.ChainClient
}

func (p provisioner) NewKeys() (string, string, string, error) {
	m, err := NewMerchant("keys", p.clock)
	if err != nil {
		return "", "", "", err
	}
	return m.APIKey, m.SecretKey, m.WebhookKey, nil
}

func (p provisioner) NewContract(ctx context.Context, merchantID, chain, address, webhookURL string) (*cashier.Contract, error) {
	return NewContract(ctx, p.store, p.chains, ContractSpec{MerchantID: merchantID, Chain: strings.TrimSpace(chain), Address: strings.TrimSpace(address),
		WebhookURL: strings.TrimSpace(webhookURL), Sandbox: p.sandbox}, p.clock)
}

// Signer returns the merchant's signer address on the network, creating
// the key on first use: the address its contracts must name.
func (p provisioner) Signer(ctx context.Context, merchantID, chain string) (string, error) {
	c, err := cashier.ParseChain(strings.TrimSpace(chain))
	if err != nil {
		return "", err
	}
	k, err := MerchantSigner(ctx, p.store, merchantID, c, p.clock)
	if err != nil {
		return "", err
	}
	return k.Address, nil
}

// reviewer is the payout service's review operations, as the dashboard
// uses them.
type reviewer struct{ svc *orders.Service }

func (r reviewer) Pending(ctx context.Context, merchantID string) ([]cashier.PayoutOrder, error) {
	out := []cashier.PayoutOrder{}
	f := cashier.PayoutFilter{MerchantID: merchantID, Status: cashier.PayoutPending, PageSize: 200}
	for f.Page = 1; ; f.Page++ {
		ps, total, err := r.svc.ListPayouts(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p.NeedsReview {
				out = append(out, p)
			}
		}
		if f.Page*f.PageSize >= total {
			return out, nil
		}
	}
}

func (r reviewer) Approve(ctx context.Context, id string) error {
	_, err := r.svc.ApprovePayout(ctx, id)
	return err
}

func (r reviewer) Refuse(ctx context.Context, id, reason string) error {
	_, err := r.svc.RefusePayout(ctx, id, reason)
	return err
}

func (r reviewer) Policy(ctx context.Context, merchantID string) (*cashier.ReviewPolicy, error) {
	return r.svc.Store.ReviewPolicy(ctx, merchantID)
}

func (r reviewer) SetPolicy(ctx context.Context, merchantID, mode, above string) (*cashier.ReviewPolicy, error) {
	return r.svc.SetReviewPolicy(ctx, merchantID, cashier.ReviewMode(mode), above)
}
