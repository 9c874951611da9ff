package cashier

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// Kinds of TokenAlert.
const (
	TokenPaused      = "paused"      // the token contract refuses every transfer
	TokenBlacklisted = "blacklisted" // the token refuses transfers from Account
)

// TokenAlert is a token contract's own switch holding up this instance's
// payouts: the token paused, or a paying account on its blacklist.
type TokenAlert struct {
	Chain   Chain     `json:"chainId"`
	Symbol  string    `json:"symbol"`
	Token   string    `json:"token"`
	Kind    string    `json:"kind"`
	Account string    `json:"account,omitempty"` // the blacklisted account
	Since   time.Time `json:"since"`
}

// TokenAlerts is the set of current token alerts, for the logs' readers:
// metrics and /readyz show it. Safe for concurrent use; the zero value is
// empty and ready.
type TokenAlerts struct {
	mu sync.Mutex
	m  map[string]TokenAlert
}

func (a TokenAlert) key() string {
	return string(a.Chain) + "/" + strings.ToLower(a.Token) + "/" + a.Kind + "/" + strings.ToLower(a.Account)
}

// Set raises a (keeping the time it was first raised); it reports whether
// it is new.
func (t *TokenAlerts) Set(a TokenAlert) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]TokenAlert{}
	}
	if _, ok := t.m[a.key()]; ok {
		return false
	}
	t.m[a.key()] = a
	return true
}

// Clear lowers every alert of token on c of the given kind and account
// ("" for any account); it reports whether one was raised.
func (t *TokenAlerts) Clear(c Chain, token, kind, account string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	found := false
	for k, a := range t.m {
		if a.Chain == c && strings.EqualFold(a.Token, token) && a.Kind == kind && (account == "" || strings.EqualFold(a.Account, account)) {
			delete(t.m, k)
			found = true
		}
	}
	return found
}

// List returns the raised alerts in a stable order.
func (t *TokenAlerts) List() []TokenAlert {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]TokenAlert, 0, len(t.m))
	for _, a := range t.m {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b TokenAlert) int { return strings.Compare(a.key(), b.key()) })
	return out
}
