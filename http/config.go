package http

import (
	"net/http"

	"github.com/stablecashier/cashier"
)

// cashierInfo is the data of the cashier info response.
type cashierInfo struct {
	CashierID         string           `json:"cashierId"`
	MerchantID        string           `json:"merchantId"`
	MerchantName      string           `json:"merchantName"`
	SupportedNetworks []cashierNetwork `json:"supportedNetworks"`
	SupportedCoins    []cashierCoin    `json:"supportedCoins"`
	PaymentMethods    []paymentMethod  `json:"paymentMethods"`
	WebhookURL        string           `json:"webhookUrl"`
	Status            string           `json:"status"`
	CreatedAt         int64            `json:"createdAt"`
}

type cashierNetwork struct {
	ChainID     string `json:"chainId"`
	NetworkName string `json:"networkName"`
	Symbol      string `json:"symbol"`
	Decimals    int    `json:"decimals"`
}

type cashierCoin struct {
	Symbol          string `json:"symbol"`
	Name            string `json:"name"`
	ChainID         string `json:"chainId"`
	ContractAddress string `json:"contractAddress"`
	Decimals        int    `json:"decimals"`
	MinAmount       string `json:"minAmount"`
	MaxAmount       string `json:"maxAmount"`
}

type paymentMethod struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// coin is an entry of the coin list: one token symbol across networks.
type coin struct {
	Symbol   string        `json:"symbol"`
	Name     string        `json:"name"`
	Networks []coinNetwork `json:"networks"`
}

type coinNetwork struct {
	ChainID         string `json:"chainId"`
	NetworkName     string `json:"networkName"`
	ContractAddress string `json:"contractAddress"`
	Decimals        int    `json:"decimals"`
	MinAmount       string `json:"minAmount"`
	MaxAmount       string `json:"maxAmount"`
	WithdrawFee     string `json:"withdrawFee"`
}

// network is an entry of the network list.
type network struct {
	ChainID      string `json:"chainId"`
	NetworkName  string `json:"networkName"`
	ShortName    string `json:"shortName"`
	Symbol       string `json:"symbol"`
	Decimals     int    `json:"decimals"`
	ExplorerURL  string `json:"explorerUrl"`
	RPCURL       string `json:"rpcUrl"`
	Status       string `json:"status"`
	AvgBlockTime int    `json:"avgBlockTime"`
	AvgGasFee    string `json:"avgGasFee"`
}

// handleCashierInfo answers for an inactive cashier too, with status
// "inactive": the status field exists to say so (ERROR_000102 is kept for
// operations that need an open cashier).
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
	out := cashierInfo{
		CashierID: k.ID, MerchantID: c.merchant.ID, MerchantName: c.merchant.Name,
		SupportedNetworks: []cashierNetwork{}, SupportedCoins: []cashierCoin{},
		PaymentMethods: []paymentMethod{
			{Type: "wallet", Name: "Wallet", Enabled: true},
			{Type: "scan", Name: "Scan QR code", Enabled: true},
		},
		WebhookURL: k.WebhookURL, Status: string(k.Status), CreatedAt: cashier.Millis(k.CreatedAt),
	}
	for _, n := range s.reg.Networks {
		out.SupportedNetworks = append(out.SupportedNetworks, cashierNetwork{ChainID: n.Chain.ConfigID(), NetworkName: n.NetworkName, Symbol: n.Symbol, Decimals: n.Decimals})
	}
	for _, t := range s.reg.Tokens {
		out.SupportedCoins = append(out.SupportedCoins, cashierCoin{
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
	out := []coin{}
	index := map[string]int{}
	for _, t := range s.reg.Tokens {
		i, ok := index[t.Symbol]
		if !ok {
			i = len(out)
			index[t.Symbol] = i
			out = append(out, coin{Symbol: t.Symbol, Name: t.Name, Networks: []coinNetwork{}})
		}
		n, _ := s.reg.Network(t.Chain)
		out[i].Networks = append(out[i].Networks, coinNetwork{
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
	out := make([]network, 0, len(s.reg.Networks))
	for _, n := range s.reg.Networks {
		out = append(out, network{
			ChainID: n.Chain.ConfigID(), NetworkName: n.NetworkName, ShortName: n.ShortName, Symbol: n.Symbol,
			Decimals: n.Decimals, ExplorerURL: n.ExplorerURL, RPCURL: n.RPCURL, Status: string(n.Status),
			AvgBlockTime: n.AvgBlockTime, AvgGasFee: n.AvgGasFee,
		})
	}
	s.ok(w, r, out)
	return nil
}
