package sweep

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
)

// The real tokens' own switches (USDT and USDC both have them; a token
// without them answers with an error, read as "no").
var (
	selPaused        = crypto.Keccak256([]byte("paused()"))[:4]
	selIsBlacklisted = crypto.Keccak256([]byte("isBlacklisted(address)"))[:4] // USDC
	selIsBlackListed = crypto.Keccak256([]byte("isBlackListed(address)"))[:4] // USDT
)

// viewer reads a token's view functions (the EVM and TRON clients).
type viewer interface {
	ViewUint(ctx context.Context, contract string, data []byte) (*big.Int, error)
}

// tokenSwitches is what a round learnt of a token's switches.
type tokenSwitches struct {
	paused  bool
	listSel []byte          // the blacklist's view selector; nil: no blacklist
	listed  map[string]bool // by address, asked this round
}

func (s *Sweeper) alerts() *cashier.TokenAlerts {
	if s.Alerts == nil {
		s.Alerts = &cashier.TokenAlerts{}
	}
	return s.Alerts
}

func (s *Sweeper) symbol(token string) string {
	if t, ok := s.Registry.TokenByAddress(s.Chain, token); ok {
		return t.Symbol
	}
	return ""
}

// tokenSwitches asks token (once per round: cache) whether it is paused
// and which blacklist it has. A paused token raises the alert and is
// logged at most once a minute; one found unpaused lowers it.
func (s *Sweeper) tokenSwitches(ctx context.Context, token string, cache map[string]*tokenSwitches) *tokenSwitches {
	if sw := cache[token]; sw != nil {
		return sw
	}
	sw := &tokenSwitches{listed: map[string]bool{}}
	if cache != nil {
		cache[token] = sw
	}
	v, ok := s.Client.(viewer)
	if token == "" || !ok {
		return sw
	}
	zero := make([]byte, 32)
	for _, sel := range [][]byte{selIsBlacklisted, selIsBlackListed} {
		if _, err := v.ViewUint(ctx, token, append(slices.Clone(sel), zero...)); err == nil {
			sw.listSel = sel
			break
		}
	}
	p, err := v.ViewUint(ctx, token, selPaused)
	if err != nil {
		return sw
	}
	if p.Sign() == 0 {
		if s.alerts().Clear(s.Chain, token, cashier.TokenPaused, "") {
			s.log().Info("token contract unpaused: its deposits are swept again", "chain", s.Chain, "symbol", s.symbol(token), "token", token)
		}
		return sw
	}
	sw.paused = true
	now := s.now()
	s.alerts().Set(cashier.TokenAlert{Chain: s.Chain, Symbol: s.symbol(token), Token: token, Kind: cashier.TokenPaused, Since: now})
	if s.pausedLogged == nil {
		s.pausedLogged = map[string]time.Time{}
	}
	if now.Sub(s.pausedLogged[token]) >= time.Minute {
		s.pausedLogged[token] = now
		s.log().Error("token contract paused: its deposits wait unswept until it is unpaused", "chain", s.Chain, "symbol", s.symbol(token), "token", token)
	}
	return sw
}

// stuck reports whether token blacklisted addr (what: a deposit address or
// the payout contract it is swept into): its balance cannot move, or could
// not be paid out, so it is left unswept, with an alert naming it, logged
// when it is first seen, until the token lifts it.
func (s *Sweeper) stuck(ctx context.Context, token string, sw *tokenSwitches, addr, what string, attrs ...any) bool {
	if sw.listSel == nil || addr == "" {
		return false
	}
	key := strings.ToLower(addr)
	if listed, ok := sw.listed[key]; ok {
		return listed
	}
	a, err := address.Parse(s.Chain, addr)
	if err != nil {
		return false
	}
	v, err := s.Client.(viewer).ViewUint(ctx, token, append(slices.Clone(sw.listSel), common.LeftPadBytes(a.Bytes(), 32)...))
	listed := err == nil && v.Sign() != 0
	sw.listed[key] = listed
	args := append([]any{"chain", s.Chain, "symbol", s.symbol(token), "token", token, "address", addr}, attrs...)
	if !listed {
		if s.alerts().Clear(s.Chain, token, cashier.TokenBlacklisted, addr) {
			s.log().Info(what+" no longer blacklisted by the token contract: swept again", args...)
		}
		return false
	}
	if s.alerts().Set(cashier.TokenAlert{Chain: s.Chain, Symbol: s.symbol(token), Token: token, Kind: cashier.TokenBlacklisted, Account: addr, Since: s.now()}) {
		s.log().Error(what+" blacklisted by the token contract: left unswept while it is", args...)
	}
	return true
}
