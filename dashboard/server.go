// Package dashboard is the web application where merchants manage keys,
// cashiers, contracts and payouts, and operators run the service. It is
// served by the same binary under /dashboard/: server-rendered pages from
// embedded files plus the admin JSON API behind them, both on the same
// operations and role table.
package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/ledger"
	"github.com/stablecashier/cashier/ratelimit"
	"github.com/stablecashier/cashier/webhook"
)

// Prefix is where the dashboard is mounted.
const Prefix = "/dashboard/"

// Cookie names. Both are scoped to Prefix, so the customer pages (/pay,
// /widget) never receive them.
const (
	sessionCookie = "cashier_dashboard"
	preCookie     = "cashier_dashboard_pre" // sign-in form token before a session exists
	langCookie    = "cashier_dashboard_lang"
)

// Config is the dashboard's behaviour.
type Config struct {
	// SecureCookie marks cookies Secure (sent over https only). Off only
	// for a sandbox served over plain http.
	SecureCookie bool
	// Sandbox applies the sandbox's webhook URL rules (http, loopback).
	Sandbox bool
	// SessionTTL is a session's absolute lifetime; IdleTimeout ends it
	// earlier when unused.
	SessionTTL  time.Duration
	IdleTimeout time.Duration
	// Sign-in attempts per minute per account and per client IP.
	SignInPerAccount int
	SignInPerIP      int
	// IPv6Prefix is the prefix length an IPv6 client is counted by, as
	// the API counts it (ratelimit.IPBucket): one subscriber usually holds
	// a whole /64.
	IPv6Prefix int
	// PasswordChecks is how many password checks (argon2id, 64 MiB and two
	// CPUs each) run at once; a sign-in finding them all busy is refused at
	// once with 503. 0: DefaultPasswordChecks.
	PasswordChecks int
	// TrustedProxies are the proxies whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// KeyGrace is how long a rotated API key keeps working; 0: it stops
	// at the rotation.
	KeyGrace time.Duration
	// PublicBaseURL is where customers reach the service (refund links),
	// as the API's links use it; "": the request's scheme and host.
	PublicBaseURL string
	// RefundReasonMax is the longest refund reason the payout service
	// takes (its text limit), which the refund form allows. 0: 256.
	RefundReasonMax int

	// HeaderPrefix is the brand prefix of the webhook headers the
	// rotation page names ("" : sign.DefaultPrefix).
	HeaderPrefix string
}

// DefaultConfig is the production default.
func DefaultConfig() Config {
	return Config{SecureCookie: true, SessionTTL: 12 * time.Hour, IdleTimeout: 2 * time.Hour,
		SignInPerAccount: 5, SignInPerIP: 30, IPv6Prefix: 64}
}

// DefaultPasswordChecks leaves at least one CPU to everything else: a check
// keeps as many CPUs busy as the hash has lanes, and GOMAXPROCS may count
// the spare P the service adds for reading requests (app/procs.go), hence
// GOMAXPROCS-2 CPUs for checks, and at least one check.
func DefaultPasswordChecks() int {
	return max(1, (runtime.GOMAXPROCS(0)-2)/int(argonParams.threads))
}

// Deps are the parts of the service the dashboard works with.
type Deps struct {
	Store      cashier.AccountStore
	Registry   *cashier.Registry
	Clock      cashier.Clock
	Dispatcher *webhook.Dispatcher // test events and resends; nil: not offered
	Chains     map[cashier.Chain]cashier.ChainClient
	// Networks reports whether each network is watched (its nodes); nil:
	// a network with a chain client is.
	Networks func() []cashier.NetworkHealth
	Logger   *slog.Logger
	// Reviewer is the payout review queue; nil: the page says it is not
	// available.
	Reviewer Reviewer
	// Provision issues keys and builds contract records.
	Provision Provisioner
	// Ledger reads balances and the ledger; nil: not offered.
	Ledger *ledger.Service
	// Refunds lists refunds for the refunds export; nil: the export is
	// its header alone.
	Refunds RefundExporter
	// Refunder creates refunds by the API's own operation; nil: the
	// collection page offers no refund.
	Refunder Refunder
	// OnKeys, when set, learns every merchant's new keys after a rotation
	// commits (the sandbox keeps sandbox.json current with it).
	OnKeys func(k *Keys)
}

// Server is the dashboard's http.Handler.
type Server struct {
	cfg Config
	Deps
	limiter *ratelimit.Limiter
	mux     *http.ServeMux
	// checks holds a token per password check running (PasswordChecks).
	checks chan struct{}

	apiPatterns []string
}

// New returns the dashboard.
func New(cfg Config, d Deps) (*Server, error) {
	if d.Store == nil || d.Registry == nil || d.Clock == nil {
		return nil, errors.New("dashboard: New needs a store, registry and clock")
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	def := DefaultConfig()
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = def.SessionTTL
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = def.IdleTimeout
	}
	if cfg.SignInPerAccount <= 0 {
		cfg.SignInPerAccount = def.SignInPerAccount
	}
	if cfg.SignInPerIP <= 0 {
		cfg.SignInPerIP = def.SignInPerIP
	}
	if cfg.IPv6Prefix == 0 {
		cfg.IPv6Prefix = def.IPv6Prefix
	}
	if cfg.IPv6Prefix < 1 || cfg.IPv6Prefix > 128 {
		return nil, fmt.Errorf("dashboard: IPv6 prefix %d is not between 1 and 128", cfg.IPv6Prefix)
	}
	if cfg.PasswordChecks < 0 {
		return nil, fmt.Errorf("dashboard: %d password checks at once is negative", cfg.PasswordChecks)
	}
	if cfg.RefundReasonMax <= 0 {
		cfg.RefundReasonMax = 256
	}
	if cfg.PasswordChecks == 0 {
		cfg.PasswordChecks = DefaultPasswordChecks()
	}
	s := &Server{cfg: cfg, Deps: d, limiter: ratelimit.New(d.Clock, 0), mux: http.NewServeMux(),
		checks: make(chan struct{}, cfg.PasswordChecks)}
	s.routes()
	return s, nil
}

// ServeHTTP sets the security headers every answer carries, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// actor is the signed-in user of a request.
type actor struct {
	user    *cashier.User
	session *cashier.Session
	ip      string
}

func (a *actor) can(op Op) bool { return a != nil && Can(a.user.Role, op) }

// operator reports whether the user runs the whole service.
func (a *actor) operator() bool { return a.user.Role == cashier.RoleOperator }

// mayReadMerchant reports whether the user may see merchantID's data.
func (a *actor) mayReadMerchant(merchantID string) bool {
	return a.operator() || (merchantID != "" && a.user.MerchantID == merchantID)
}

func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func (s *Server) setCookie(w http.ResponseWriter, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: Prefix, MaxAge: maxAge,
		Secure: s.cfg.SecureCookie, HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

// clientIP is the request's peer, or the nearest untrusted address of
// X-Forwarded-For when the peer is a trusted proxy.
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	trusted := func(a netip.Addr) bool {
		for _, p := range s.cfg.TrustedProxies {
			if p.Contains(a.Unmap()) {
				return true
			}
		}
		return false
	}
	if !trusted(ip) {
		return ip.Unmap().String()
	}
	hops := strings.Split(r.Header.Get("X-Forwarded-For"), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if ip = a; !trusted(a) {
			break
		}
	}
	return ip.Unmap().String()
}

// ipBucket is the sign-in limit's bucket of a client address: the
// address for IPv4, its configured prefix for IPv6, as the API counts.
func (s *Server) ipBucket(ip string) string {
	if a, err := netip.ParseAddr(ip); err == nil {
		return ratelimit.IPBucket(a, s.cfg.IPv6Prefix)
	}
	return ip
}

// authenticate returns the request's signed-in user, or nil. An expired
// or idle session is deleted.
func (s *Server) authenticate(r *http.Request) (*actor, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	ctx := r.Context()
	hash := hashToken(c.Value)
	sess, err := s.Store.SessionByHash(ctx, hash)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	if !now.Before(sess.ExpiresAt) || now.Sub(sess.SeenAt) >= s.cfg.IdleTimeout {
		return nil, s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.DeleteSession(ctx, hash) })
	}
	u, err := s.Store.User(ctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		return nil, nil
	}
	// Refresh the idle clock at most once a minute: a write per page view
	// would queue behind order traffic on the one write connection.
	if now.Sub(sess.SeenAt) > time.Minute {
		if err := s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error { return tx.TouchSession(ctx, hash, now) }); err != nil {
			return nil, err
		}
	}
	return &actor{user: u, session: sess, ip: s.clientIP(r)}, nil
}

// checkCSRF compares the request's token (header X-CSRF-Token or form
// field csrf) with the session's, in constant time.
func checkCSRF(r *http.Request, a *actor) bool {
	tok := r.Header.Get("X-CSRF-Token")
	if tok == "" {
		tok = r.PostFormValue("csrf")
	}
	return tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(a.session.CSRF)) == 1
}

// errSignIn is the one answer to every failed sign-in, so it does not tell
// which of email, password or code was wrong.
var errSignIn = errors.New("email, password or code is not right")

// errLimited: too many sign-in attempts.
var errLimited = errors.New("too many sign-in attempts; wait a minute and try again")

// errBusy: every password check slot is taken.
var errBusy = errors.New("the service is busy checking other sign-ins; try again in a moment")

// signIn checks the credentials and creates a session. It returns the
// session token for the cookie.
func (s *Server) signIn(ctx context.Context, email, password, code, ip string) (string, *cashier.User, error) {
	u, ok, err := s.checkPassword(ctx, email, password, ip)
	if err != nil {
		return "", nil, err
	}
	now := s.Clock.Now()
	var step int64 // the TOTP step the code spends; 0: no second factor
	if u.TOTPSecret != nil {
		var match bool
		if step, match = MatchTOTP(u.TOTPSecret, code, now, u.TOTPStep); !match {
			ok = false
		}
	}
	if !ok || u.Disabled {
		return "", nil, errSignIn
	}
	tok := randomToken()
	sess := &cashier.Session{TokenHash: hashToken(tok), UserID: u.ID, CSRF: randomToken(), IP: ip,
		CreatedAt: now, SeenAt: now, ExpiresAt: now.Add(s.cfg.SessionTTL)}
	err = s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		// Spending the step in the session's transaction lets one of two
		// sign-ins racing with the same code through, on any instance.
		if step > 0 {
			if err := tx.AcceptTOTPStep(ctx, u.ID, step); err != nil {
				return err
			}
		}
		if err := tx.CreateSession(ctx, sess); err != nil {
			return err
		}
		return tx.AddAudit(ctx, &cashier.AuditEntry{At: now, UserID: u.ID, Email: u.Email, MerchantID: u.MerchantID,
			Action: "session.signin", Target: u.ID, Detail: "signed in", IP: ip})
	})
	if errors.Is(err, cashier.ErrTOTPReused) {
		return "", nil, errSignIn
	} else if err != nil {
		return "", nil, err
	}
	return tok, u, nil
}

// checkPassword counts the attempt against the sign-in limits, then looks
// the user up and checks the password. An unknown email gives errSignIn.
//
// A check holds 64 MiB and two CPUs for a good part of a second, and
// anyone may ask for one (an unknown email spends one too), so at most
// PasswordChecks run at once and an attempt finding them all busy is
// refused at once: attempts waiting for a slot would hold their requests'
// memory and pile up behind a flood. The slot is taken before the limits
// are counted, so a refusal for a busy service costs nobody an attempt,
// and given back before the session is written.
func (s *Server) checkPassword(ctx context.Context, email, password, ip string) (*cashier.User, bool, error) {
	select {
	case s.checks <- struct{}{}:
		defer func() { <-s.checks }()
	default:
		return nil, false, errBusy
	}
	email = strings.ToLower(strings.TrimSpace(email))
	res := s.limiter.Allow(
		ratelimit.Check{Rule: "signin-account", Bucket: email, Limit: s.cfg.SignInPerAccount},
		ratelimit.Check{Rule: "signin-ip", Bucket: s.ipBucket(ip), Limit: s.cfg.SignInPerIP},
	)
	if !res.Allowed {
		return nil, false, errLimited
	}
	u, err := s.Store.UserByEmail(ctx, email)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		// Spend the same time as a real check so timing does not reveal
		// which emails have accounts.
		_, _ = CheckPassword(dummyHash, password)
		return nil, false, errSignIn
	} else if err != nil {
		return nil, false, err
	}
	ok, err := CheckPassword(u.PasswordHash, password)
	return u, ok, err
}

var dummyHash = func() string {
	h, err := HashPassword("a password nobody has, for timing")
	if err != nil {
		panic(err)
	}
	return h
}()

// change runs fn in one transaction with the audit entry of the change.
func (s *Server) change(ctx context.Context, a *actor, op Op, merchantID, target, detail string, fn func(tx cashier.AccountTx) error) error {
	if !a.can(op) {
		return errForbidden
	}
	if merchantID != "" && !a.mayReadMerchant(merchantID) {
		return errNotFound
	}
	return s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		if fn != nil {
			if err := fn(tx); err != nil {
				return err
			}
		}
		return tx.AddAudit(ctx, &cashier.AuditEntry{At: s.Clock.Now(), UserID: a.user.ID, Email: a.user.Email,
			MerchantID: merchantID, Action: string(op), Target: target, Detail: detail, IP: a.ip})
	})
}

var (
	errForbidden = cashier.Errorf(cashier.EUnauthorized, "your role may not do this")
	errNotFound  = cashier.Errorf(cashier.ENotFound, "not found")
)
