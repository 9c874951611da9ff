package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stablecashier/cashier"
)

// A rotation's result is shown on one page view: the form's POST stores the
// keys and redirects to a GET naming a random token, so a refresh or a back
// button re-runs a read, never the rotation, and the keys cannot be shown a
// second time. The result waits in the store (sealed, under the token's
// hash and the session's), not in this process, because behind a load
// balancer the GET may reach another instance. A result not viewed within
// oneTimeTTL is gone (the keys are rotated again if they were lost).
const oneTimeTTL = 10 * time.Minute

// putOneTime stores k for one view by session and returns the view's token.
func (s *Server) putOneTime(ctx context.Context, session []byte, k *Keys) (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(b)
	body, err := json.Marshal(k)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(tok))
	now := s.Clock.Now()
	err = s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		return tx.PutOneTimeView(ctx, &cashier.OneTimeView{TokenHash: h[:], Session: session, Body: body, Until: now.Add(oneTimeTTL)}, now)
	})
	if err != nil {
		return "", err
	}
	return tok, nil
}

// takeOneTime returns the keys stored under tok for session and forgets
// them; nil when there are none (taken, expired, another session's).
func (s *Server) takeOneTime(ctx context.Context, session []byte, tok string) (*Keys, error) {
	if tok == "" {
		return nil, nil
	}
	h := sha256.Sum256([]byte(tok))
	var body []byte
	err := s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		var err error
		body, err = tx.TakeOneTimeView(ctx, h[:], session, s.Clock.Now())
		return err
	})
	if err != nil || body == nil {
		return nil, err
	}
	var k Keys
	if err := json.Unmarshal(body, &k); err != nil {
		return nil, fmt.Errorf("dashboard: one-time view: %w", err)
	}
	return &k, nil
}
