// Package nodes keeps the health of every chain node URL the process uses:
// whether its last request succeeded, how many failed in a row, the pause a
// provider asked for (Retry-After, TronGrid's "suspended for Ns") and
// whether it serves the right chain. The evm and tron clients share one
// record per URL, so a pause asked of one client holds for every client of
// that node, and /readyz and the metrics read them. State changes are
// logged once each, not per request.
package nodes

import (
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
)

// State is one node's health for reports.
type State struct {
	Chain      cashier.Chain `json:"chain"`
	URL        string        `json:"url"` // scheme and host only: keys live in paths
	Up         bool          `json:"up"`
	Failures   int           `json:"failures"` // in a row
	LastError  string        `json:"lastError,omitempty"`
	PausedFor  string        `json:"pausedFor,omitempty"` // a provider's Retry-After still running
	WrongChain string        `json:"wrongChain,omitempty"`
	Requests   int64         `json:"requests"`
	Errors     int64         `json:"errors"`
	RateLimits int64         `json:"rateLimits"`
}

// Node is one URL's record.
type Node struct {
	chain cashier.Chain
	name  string

	mu         sync.Mutex
	up         bool
	failures   int
	lastErr    string
	pauseUntil time.Time
	wrongChain string
	checked    bool      // the chain check has run (wrongChain is its verdict)
	loggedAt   time.Time // last repeated-failure log

	requests, errors, rateLimits atomic.Int64
}

var (
	mu     sync.Mutex
	all    = map[string]*Node{}
	logger atomic.Pointer[slog.Logger]
)

// SetLogger sets where state changes are logged (default: nowhere).
func SetLogger(l *slog.Logger) { logger.Store(l) }

func log() *slog.Logger {
	if l := logger.Load(); l != nil {
		return l
	}
	return slog.New(slog.DiscardHandler)
}

// Redact keeps a URL's scheme and host: hosted nodes put keys in the path.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "node"
	}
	return u.Scheme + "://" + u.Host
}

// urlHidden is an error whose text had a node's URL cut by Redact. Unwrap
// gives the error as it was.
type urlHidden struct {
	err error
	msg string
}

func (e urlHidden) Error() string { return e.msg }
func (e urlHidden) Unwrap() error { return e.err }

// HideURL returns err with every mention of rawURL redacted: Go's HTTP
// client quotes the whole URL in a transport error, and hosted nodes keep
// the operator's API key in the path.
func HideURL(err error, rawURL string) error {
	if err == nil || rawURL == "" || !strings.Contains(err.Error(), rawURL) {
		return err
	}
	return urlHidden{err, strings.ReplaceAll(err.Error(), rawURL, Redact(rawURL))}
}

// For returns the record of chain's node at rawURL, made on first use.
func For(chain cashier.Chain, rawURL string) *Node {
	mu.Lock()
	defer mu.Unlock()
	k := string(chain) + " " + rawURL
	n, ok := all[k]
	if !ok {
		// Two URLs of one host (keys in their paths) get two names.
		name, same := Redact(rawURL), 1
		for _, o := range all {
			if o.chain == chain && (o.name == name || strings.HasPrefix(o.name, name+" #")) {
				same++
			}
		}
		if same > 1 {
			name += " #" + strconv.Itoa(same)
		}
		n = &Node{chain: chain, name: name, up: true}
		all[k] = n
	}
	return n
}

// All reports every node, by chain and URL.
func All() []State {
	mu.Lock()
	list := make([]*Node, 0, len(all))
	for _, n := range all {
		list = append(list, n)
	}
	mu.Unlock()
	out := make([]State, 0, len(list))
	now := time.Now()
	for _, n := range list {
		out = append(out, n.State(now))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Chain != out[j].Chain {
			return out[i].Chain < out[j].Chain
		}
		return out[i].URL < out[j].URL
	})
	return out
}

// Of reports chain's nodes.
func Of(chain cashier.Chain) []State {
	var out []State
	for _, s := range All() {
		if s.Chain == chain {
			out = append(out, s)
		}
	}
	return out
}

// Check is one node's verdict from a chain check.
type Check struct {
	URL string // redacted
	Err error  // nil: serves the configured network
}

// Name is the URL as reported.
func (n *Node) Name() string { return n.name }

// State reports the node.
func (n *Node) State(now time.Time) State {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := State{Chain: n.chain, URL: n.name, Up: n.up && n.wrongChain == "", Failures: n.failures, LastError: n.lastErr,
		WrongChain: n.wrongChain,
		Requests:   n.requests.Load(), Errors: n.errors.Load(), RateLimits: n.rateLimits.Load()}
	if now.Before(n.pauseUntil) {
		s.PausedFor = n.pauseUntil.Sub(now).Round(time.Millisecond).String()
	}
	return s
}

// PausedUntil is the end of the pause the provider asked for (zero when
// none runs).
func (n *Node) PausedUntil(now time.Time) time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	if now.Before(n.pauseUntil) {
		return n.pauseUntil
	}
	return time.Time{}
}

// Pause records a provider's request to wait d before asking again.
func (n *Node) Pause(d time.Duration, why string) {
	if d <= 0 {
		return
	}
	n.rateLimits.Add(1)
	until := time.Now().Add(d)
	n.mu.Lock()
	first := !time.Now().Before(n.pauseUntil)
	if until.After(n.pauseUntil) {
		n.pauseUntil = until
	}
	n.mu.Unlock()
	if first {
		log().Debug("chain node asks to wait", "chain", string(n.chain), "node", n.name, "wait", d.String(), "answer", why)
	}
}

// Succeeded records an answer.
func (n *Node) Succeeded() {
	n.requests.Add(1)
	n.mu.Lock()
	was, fails := n.up, n.failures
	n.up, n.failures, n.lastErr = true, 0, ""
	n.mu.Unlock()
	if !was {
		log().Info("chain node answers again", "chain", string(n.chain), "node", n.name, "afterFailures", fails)
	}
}

// downAfter is how many failures in a row mark a node down: one lost
// answer is the internet, three are the node.
const downAfter = 3

// relog is how often a node that stays down is logged again.
const relog = time.Minute

// Failed records a failed request.
func (n *Node) Failed(err error) {
	n.requests.Add(1)
	n.errors.Add(1)
	now := time.Now()
	n.mu.Lock()
	n.failures++
	n.lastErr = err.Error()
	if len(n.lastErr) > 300 {
		n.lastErr = n.lastErr[:300] + "…"
	}
	wentDown := n.up && n.failures >= downAfter
	again := !n.up && now.Sub(n.loggedAt) >= relog
	if wentDown {
		n.up = false
	}
	if wentDown || again {
		n.loggedAt = now
	}
	fails, msg := n.failures, n.lastErr
	n.mu.Unlock()
	switch {
	case wentDown:
		log().Warn("chain node failing", "chain", string(n.chain), "node", n.name, "failures", fails, "err", msg)
	case again:
		log().Warn("chain node still failing", "chain", string(n.chain), "node", n.name, "failures", fails, "err", msg)
	}
}

// Up reports whether the node is neither failing nor on the wrong chain.
func (n *Node) Up() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.up && n.wrongChain == ""
}

// SetWrongChain marks the node as serving another chain (msg says which),
// or clears that with "".
func (n *Node) SetWrongChain(msg string) {
	n.mu.Lock()
	changed := n.wrongChain != msg
	n.wrongChain, n.checked = msg, true
	n.mu.Unlock()
	if changed && msg != "" {
		log().Error("chain node refused: wrong chain", "chain", string(n.chain), "node", n.name, "err", msg)
	}
}

// Checked reports whether the node's chain was checked.
func (n *Node) Checked() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.checked
}

// WrongChain is the reason the node was refused, or "".
func (n *Node) WrongChain() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.wrongChain
}

// maxPause bounds a pause a provider asks for, against a typo of theirs
// stopping the service for a day.
const maxPause = 10 * time.Minute

// RetryAfter reads a Retry-After header: seconds or an HTTP date.
func RetryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = t.Sub(now)
	}
	return min(max(d, 0), maxPause)
}

// suspendedRe finds TronGrid's "... suspended for 30s" (or "30 s").
var suspendedRe = regexp.MustCompile(`suspended for (\d+) ?s`)

// SuspendedFor reads the pause out of a TronGrid rate-limit message.
func SuspendedFor(msg string) time.Duration {
	m := suspendedRe.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	secs, _ := strconv.Atoi(m[1])
	return min(time.Duration(secs)*time.Second, maxPause)
}
