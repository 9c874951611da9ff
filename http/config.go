package http

import (
	"context"
	"net/http"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/api"
)

// handleCashierInfo answers ERROR_000102 for a cashier its merchant closed
// in the dashboard: the interface's code for exactly this.
func (s *server) handleCashierInfo(w http.ResponseWriter, r *http.Request, c *call) error {
	f := newFields(c.params, "", s.cfg.UnknownFields, cashierInfoFields...)
	id := f.str("cashierId", true)
	if f.err != nil {
		return f.err
	}
	k, err := s.store.Cashier(r.Context(), id)
	notFound := cashier.Errorf(cashier.ECashierNotFound, "cashier %s does not exist", id)
	switch cashier.ErrorCode(err) {
	case "":
	case cashier.ENotFound, cashier.ECashierNotFound:
		return notFound
	default:
		return err
	}
	if k.MerchantID != c.merchant.ID {
		return notFound // another merchant's cashier is not disclosed
	}
	if k.Status != cashier.CashierActive {
		return cashier.Errorf(cashier.ECashierClosed, "cashier %s is closed", k.ID)
	}
	out := api.CashierInfo{
		CashierID: k.ID, MerchantID: c.merchant.ID, MerchantName: c.merchant.Name,
		SupportedNetworks: []api.CashierNetwork{}, SupportedCoins: []api.CashierCoin{},
		PaymentMethods: []api.PaymentMethod{
			{Type: "wallet", Name: "Wallet", Enabled: true},
			{Type: "scan", Name: "Scan QR code", Enabled: true},
		},
		Status: string(k.Status), CreatedAt: cashier.Millis(k.CreatedAt),
	}
	if c.signed {
		// The webhook URL is configuration a merchant may keep private;
		// the public API key alone does not reveal it.
		out.WebhookURL = k.WebhookURL
	}
	for _, n := range s.reg.Networks {
		if s.inactive(n.Chain) {
			continue
		}
		out.SupportedNetworks = append(out.SupportedNetworks, api.CashierNetwork{ChainID: n.Chain.ConfigID(), NetworkName: n.NetworkName, Symbol: n.Symbol, Decimals: n.Decimals})
	}
	for _, t := range s.reg.Tokens {
		if s.inactive(t.Chain) {
			continue
		}
		out.SupportedCoins = append(out.SupportedCoins, api.CashierCoin{
			Symbol: t.Symbol, Name: t.Name, ChainID: t.Chain.ConfigID(), ContractAddress: t.ContractAddress, Decimals: t.Decimals,
			MinAmount: cashier.FormatAmount(t.MinAmount, t.Decimals), MaxAmount: cashier.FormatAmount(t.MaxAmount, t.Decimals),
		})
	}
	s.ok(w, r, out)
	return nil
}

func (s *server) handleCoinList(w http.ResponseWriter, r *http.Request, c *call) error {
	if err := newFields(c.params, "", s.cfg.UnknownFields).err; err != nil {
		return err
	}
	out := []api.Coin{}
	index := map[string]int{}
	for _, t := range s.reg.Tokens {
		if s.inactive(t.Chain) {
			continue
		}
		i, ok := index[t.Symbol]
		if !ok {
			i = len(out)
			index[t.Symbol] = i
			out = append(out, api.Coin{Symbol: t.Symbol, Name: t.Name, Networks: []api.CoinNetwork{}})
		}
		n, _ := s.reg.Network(t.Chain)
		out[i].Networks = append(out[i].Networks, api.CoinNetwork{
			ChainID: t.Chain.ConfigID(), NetworkName: n.NetworkName, ContractAddress: t.ContractAddress, Decimals: t.Decimals,
			MinAmount: cashier.FormatAmount(t.MinAmount, t.Decimals), MaxAmount: cashier.FormatAmount(t.MaxAmount, t.Decimals),
			WithdrawFee: cashier.FormatAmount(t.WithdrawFee, t.Decimals),
		})
	}
	s.ok(w, r, out)
	return nil
}

func (s *server) handleNetworkList(w http.ResponseWriter, r *http.Request, c *call) error {
	if err := newFields(c.params, "", s.cfg.UnknownFields).err; err != nil {
		return err
	}
	out := make([]api.Network, 0, len(s.reg.Networks))
	states, err := s.networkStates(r)
	if err != nil {
		return err
	}
	for _, n := range s.reg.Networks {
		if st, ok := states[n.Chain]; ok {
			n.Status = st
		}
		if s.inactive(n.Chain) {
			n.Status = cashier.NetworkMaintenance // nothing watches it: no order is taken
		}
		out = append(out, api.Network{
			ChainID: n.Chain.ConfigID(), NetworkName: n.NetworkName, ShortName: n.ShortName, Symbol: n.Symbol,
			Decimals: n.Decimals, ExplorerURL: n.ExplorerURL, RPCURL: n.RPCURL, Status: string(n.Status),
			AvgBlockTime: n.AvgBlockTime, AvgGasFee: n.AvgGasFee,
		})
	}
	s.ok(w, r, out)
	return nil
}

// networkStates are the operators' network status overrides (set in the
// dashboard), when the store keeps them.
func (s *server) networkStates(r *http.Request) (map[cashier.Chain]cashier.NetworkStatus, error) {
	out := map[cashier.Chain]cashier.NetworkStatus{}
	ns, ok := s.store.(interface {
		NetworkStates(ctx context.Context) ([]cashier.NetworkState, error)
	})
	if !ok {
		return out, nil
	}
	states, err := ns.NetworkStates(r.Context())
	for _, st := range states {
		out[st.Chain] = st.Status
	}
	return out, err
}

// inactive reports whether nothing watches c (Config.Inactive).
func (s *server) inactive(c cashier.Chain) bool {
	return s.cfg.Inactive != nil && s.cfg.Inactive(c) != nil
}
