package dashboard

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// oneTime keeps rotation results for the one page view that shows them:
// the form's POST stores the keys and redirects to a GET naming a random
// token, so a refresh or a back button re-runs a read, never the rotation,
// and the keys cannot be shown a second time. Kept in memory: a result
// not viewed within oneTimeTTL, or across a restart, is gone (the keys
// are rotated again if they were lost).
type oneTime struct {
	mu      sync.Mutex
	entries map[string]oneTimeEntry
}

type oneTimeEntry struct {
	session string // hex of the session's token hash: only its owner sees it
	keys    *Keys
	until   time.Time
}

const oneTimeTTL = 10 * time.Minute

func newOneTime() *oneTime { return &oneTime{entries: map[string]oneTimeEntry{}} }

// put stores k for one view by session and returns the view's token.
func (o *oneTime) put(session []byte, k *Keys, now time.Time) string {
	b := make([]byte, 16)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	o.mu.Lock()
	defer o.mu.Unlock()
	for t, e := range o.entries { // few entries: sweeping on write is enough
		if !now.Before(e.until) {
			delete(o.entries, t)
		}
	}
	o.entries[tok] = oneTimeEntry{hex.EncodeToString(session), k, now.Add(oneTimeTTL)}
	return tok
}

// take returns the keys stored under tok for session and forgets them.
func (o *oneTime) take(session []byte, tok string, now time.Time) *Keys {
	o.mu.Lock()
	defer o.mu.Unlock()
	e, ok := o.entries[tok]
	if !ok || e.session != hex.EncodeToString(session) {
		return nil
	}
	delete(o.entries, tok)
	if !now.Before(e.until) {
		return nil
	}
	return e.keys
}
