package dashboard

import (
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// overviewDays is how many days the volume chart covers.
const overviewDays = 14

// overviewScan bounds the orders read to draw the charts.
const overviewScan = 20000

// Overview is the front page's data.
type Overview struct {
	Days           []DayVolume      `json:"days"`
	ByToken        []TokenVolume    `json:"byToken"`
	AwaitingReview int              `json:"awaitingReview"`
	FailingHooks   int              `json:"failingWebhooks"`
	HeldBatches    []HeldBatch      `json:"heldBatches"`
	Networks       []map[string]any `json:"networks"`
	Gas            []GasVolume      `json:"gas"`
	DayChart       Chart            `json:"-"`
	TokenChart     Chart            `json:"-"`
}

// HeldBatch is a payout batch that was not sent and waits, with why: a
// signer that refused it (Clef's rules), a gas cap, a paused token, a node
// that failed. Its orders stay PROCESSING until it is sent.
type HeldBatch struct {
	ExecID     string        `json:"execId"`
	ChainID    cashier.Chain `json:"chainId"`
	Contract   string        `json:"contract"`
	MerchantID string        `json:"merchantId"`
	Reason     string        `json:"reason"`
	Since      int64         `json:"since"` // Unix ms of its last attempt
}

// DayVolume is the paid collection volume of one UTC day per symbol, in
// whole-token decimal text.
type DayVolume struct {
	Day    string            `json:"day"`
	Volume map[string]string `json:"volume"`
	total  *big.Int          // base units at 18 decimals (overviewScale), for the chart
}

// TokenVolume is the paid collection volume per network and token.
type TokenVolume struct {
	ChainID cashier.Chain `json:"chainId"`
	Symbol  string        `json:"symbol"`
	Volume  string        `json:"volume"`
	Count   int           `json:"count"`
	units   *big.Int
}

// GasVolume is, per network and token, what the paid payouts of the
// chart's days collected (fees, and under fee+gas the gas charged in the
// token) against the gas their transactions cost the executor, in the
// network's coin.
type GasVolume struct {
	ChainID              cashier.Chain `json:"chainId"`
	Symbol               string        `json:"symbol"`
	Count                int           `json:"count"`
	Fees                 string        `json:"fees"`       // token
	GasCharged           string        `json:"gasCharged"` // token
	GasSpent             string        `json:"gasSpent"`   // coin
	Coin                 string        `json:"coin"`
	fees, charged, spent *big.Int
	decimals             int
}

// gasVolumes sums the SUCCESS payouts since start.
func (s *Server) gasVolumes(r *http.Request, mid string, start time.Time) ([]GasVolume, error) {
	byKey := map[string]*GasVolume{}
	coinDec := map[cashier.Chain]int{}
	for _, n := range s.Registry.Networks {
		coinDec[n.Chain] = n.Decimals
	}
	amount := func(s string, dec int) *big.Int {
		v, err := cashier.ParseAmount(s, dec)
		if err != nil {
			return new(big.Int) // a malformed figure counts as none, never as money
		}
		return v
	}
	f := cashier.OrderSearch{MerchantID: mid, Status: string(cashier.PayoutSuccess), Start: start, PageSize: 500}
	for f.Page = 1; (f.Page-1)*f.PageSize < overviewScan; f.Page++ {
		ps, total, err := s.Store.SearchPayouts(r.Context(), f)
		if err != nil {
			return nil, err
		}
		for _, o := range ps {
			k := string(o.Chain) + "/" + o.Symbol
			g := byKey[k]
			if g == nil {
				g = &GasVolume{ChainID: o.Chain, Symbol: o.Symbol, fees: new(big.Int), charged: new(big.Int), spent: new(big.Int), decimals: o.Decimals}
				if n, ok := s.Registry.Network(o.Chain); ok {
					g.Coin = n.Symbol
				}
				byKey[k] = g
			}
			g.Count++
			if o.Fee != nil {
				g.fees.Add(g.fees, o.Fee)
			}
			if o.GasSpent != "" { // fee+gas: gasAmount is the token charged
				g.charged.Add(g.charged, amount(o.GasAmount, o.Decimals))
				g.spent.Add(g.spent, amount(o.GasSpent, coinDec[o.Chain]))
			} else if o.GasAmount != "" {
				g.spent.Add(g.spent, amount(o.GasAmount, coinDec[o.Chain]))
			}
		}
		if f.Page*f.PageSize >= total {
			break
		}
	}
	out := []GasVolume{}
	for _, g := range byKey {
		g.Fees, g.GasCharged = cashier.FormatAmount(g.fees, g.decimals), cashier.FormatAmount(g.charged, g.decimals)
		g.GasSpent = cashier.FormatAmount(g.spent, coinDec[g.ChainID])
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		return string(out[i].ChainID)+out[i].Symbol < string(out[j].ChainID)+out[j].Symbol
	})
	return out, nil
}

func (s *Server) overview(r *http.Request, a *actor) (*Overview, error) {
	ctx := r.Context()
	mid := a.user.MerchantID
	if a.operator() {
		mid = r.URL.Query().Get("merchantId")
	}
	now := s.Clock.Now().UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(overviewDays - 1))
	ov := &Overview{}
	days := map[string]*DayVolume{}
	perDay := map[string]map[string]*big.Int{}
	for d := range overviewDays {
		key := start.AddDate(0, 0, d).Format("2006-01-02")
		dv := DayVolume{Day: key, Volume: map[string]string{}, total: new(big.Int)}
		ov.Days = append(ov.Days, dv)
		days[key] = &ov.Days[len(ov.Days)-1]
		perDay[key] = map[string]*big.Int{}
	}
	tokens := map[string]*TokenVolume{}
	decimals := map[string]int{} // per network and token: USDT has 6 on Ethereum, 18 on BSC
	f := cashier.OrderSearch{MerchantID: mid, Status: string(cashier.CollectionSuccess), Start: start, PageSize: 500}
	for f.Page = 1; (f.Page-1)*f.PageSize < overviewScan; f.Page++ {
		os, total, err := s.Store.SearchCollections(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, o := range os {
			amt := o.PaidAmount
			if amt == nil || amt.Sign() == 0 {
				amt = o.Amount
			}
			tk := string(o.Chain) + "/" + o.Symbol
			decimals[tk] = o.Decimals
			key := o.CreatedAt.UTC().Format("2006-01-02")
			if d, ok := days[key]; ok {
				// A symbol's day sums its networks, whose decimals may
				// differ: added at one scale that holds them all exactly.
				if perDay[key][o.Symbol] == nil {
					perDay[key][o.Symbol] = new(big.Int)
				}
				perDay[key][o.Symbol].Add(perDay[key][o.Symbol], scaleTo(amt, o.Decimals, overviewScale))
				d.total.Add(d.total, scaleTo(amt, o.Decimals, overviewScale))
			}
			if tokens[tk] == nil {
				tokens[tk] = &TokenVolume{ChainID: o.Chain, Symbol: o.Symbol, units: new(big.Int)}
			}
			tokens[tk].units.Add(tokens[tk].units, amt)
			tokens[tk].Count++
		}
		if f.Page*f.PageSize >= total {
			break
		}
	}
	for key, d := range days {
		for sym, v := range perDay[key] {
			d.Volume[sym] = cashier.FormatAmount(v, overviewScale)
		}
	}
	for _, t := range tokens {
		t.Volume = cashier.FormatAmount(t.units, decimals[string(t.ChainID)+"/"+t.Symbol])
		ov.ByToken = append(ov.ByToken, *t)
	}
	sort.Slice(ov.ByToken, func(i, j int) bool {
		return string(ov.ByToken[i].ChainID)+ov.ByToken[i].Symbol < string(ov.ByToken[j].ChainID)+ov.ByToken[j].Symbol
	})
	var bars []bar
	for _, d := range ov.Days {
		var parts []string
		for sym, v := range d.Volume {
			parts = append(parts, v+" "+sym)
		}
		sort.Strings(parts)
		bars = append(bars, bar{Label: d.Day[5:], Value: d.total, Title: d.Day + ": " + strings.Join(parts, ", "), Text: parts})
	}
	ov.DayChart = barChart(bars)
	bars = nil
	for _, t := range ov.ByToken {
		bars = append(bars, bar{Label: string(t.ChainID), Sub: t.Symbol, Value: scaleTo(t.units, decimals[string(t.ChainID)+"/"+t.Symbol], overviewScale), Count: t.Count,
			Title: fmt.Sprintf("%s %s: %s (%d)", t.ChainID, t.Symbol, t.Volume, t.Count), Text: []string{t.Volume + " " + t.Symbol}})
	}
	ov.TokenChart = barChart(bars)

	if s.Reviewer != nil {
		ps, err := s.Reviewer.Pending(ctx, mid)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if a.mayReadMerchant(p.MerchantID) {
				ov.AwaitingReview++
			}
		}
	}
	// Failing now (pending after a failed attempt) and given up, as the
	// failing-webhooks page lists them.
	failed, err := s.Store.Events(ctx, cashier.EventFilter{MerchantID: mid, State: cashier.EventFailed, Limit: 1000})
	if err != nil {
		return nil, err
	}
	pending, err := s.Store.Events(ctx, cashier.EventFilter{MerchantID: mid, State: cashier.EventPending, Limit: 1000})
	if err != nil {
		return nil, err
	}
	ov.FailingHooks = len(failed)
	for _, e := range pending {
		if e.Attempts > 0 {
			ov.FailingHooks++
		}
	}
	if ov.HeldBatches, err = s.heldBatches(r, a, mid); err != nil {
		return nil, err
	}
	if ov.Gas, err = s.gasVolumes(r, mid, start); err != nil {
		return nil, err
	}
	if ov.Networks, err = s.networks(r); err != nil {
		return nil, err
	}
	return ov, nil
}

// heldBatches lists the open payout batches whose last attempt was not
// sent, of merchant mid ("": every merchant a may read), oldest first.
func (s *Server) heldBatches(r *http.Request, a *actor, mid string) ([]HeldBatch, error) {
	ctx := r.Context()
	execs, err := s.Store.OpenExecs(ctx)
	if err != nil {
		return nil, err
	}
	held := []HeldBatch{}
	for _, e := range execs {
		if e.State != cashier.ExecCreated || e.LastError == "" {
			continue
		}
		k, err := s.Store.Contract(ctx, e.ContractID)
		if err != nil {
			return nil, err
		}
		if !a.mayReadMerchant(k.MerchantID) || mid != "" && k.MerchantID != mid {
			continue
		}
		held = append(held, HeldBatch{ExecID: e.ID, ChainID: e.Chain, Contract: e.Contract, MerchantID: k.MerchantID,
			Reason: urlsInText.ReplaceAllStringFunc(e.LastError, nodes.Redact), Since: e.UpdatedAt.UnixMilli()})
	}
	return held, nil
}

// urlsInText finds the URLs in an error's text: a node's error can quote
// its URL whole, and hosted nodes put the operator's API key in the path,
// which merchants' users must not see.
var urlsInText = regexp.MustCompile(`(?i)\b(?:https?|wss?)://[^\s"'<>]+`)

// overviewScale is the decimals the overview adds amounts of different
// tokens at: 18, the most any supported token has, so every sum is exact.
const overviewScale = 18

// scaleTo brings an amount of a token with decimals places to scale
// places (scale ≥ decimals: exact).
func scaleTo(v *big.Int, decimals, scale int) *big.Int {
	out := new(big.Int).Set(v)
	switch {
	case decimals > scale:
		out.Quo(out, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals-scale)), nil))
	case decimals < scale:
		out.Mul(out, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-decimals)), nil))
	}
	return out
}

// Chart is a bar chart laid out by the server and drawn by the template
// as a table, one row per bar: the label in its own cell (labels never
// overlap, whatever the width), the bar as an SVG rectangle whose width is
// its share of the largest (an attribute, not a style: the CSP forbids
// inline style), and the value as text.
type Chart struct {
	Bars []Bar
	Max  string
}

// Bar is one laid-out bar.
type Bar struct {
	Label, Sub, Title string
	Pct               string   // the bar's width, percent of the largest
	Values            []string // what the bar stands for, as text (an amount and token each)
	Count             int
}

type bar struct {
	Label, Sub, Title string
	Text              []string
	Value             *big.Int
	Count             int
}

func barChart(in []bar) Chart {
	c := Chart{}
	top := new(big.Int)
	for _, b := range in {
		if b.Value.Cmp(top) > 0 {
			top.Set(b.Value)
		}
	}
	c.Max = cashier.FormatAmount(top, overviewScale)
	for _, b := range in {
		per := int64(0) // tenths of a percent
		if top.Sign() > 0 {
			per = new(big.Int).Quo(new(big.Int).Mul(b.Value, big.NewInt(1000)), top).Int64()
		}
		if b.Value.Sign() > 0 && per == 0 {
			per = 1 // a day with sales is never drawn as none
		}
		c.Bars = append(c.Bars, Bar{Label: b.Label, Sub: b.Sub, Title: b.Title, Pct: fmt.Sprintf("%d.%d", per/10, per%10),
			Values: b.Text, Count: b.Count})
	}
	return c
}
