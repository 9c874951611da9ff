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
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
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
	// TrustedProxies are the proxies whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
}

// DefaultConfig is the production default.
func DefaultConfig() Config {
	return Config{SecureCookie: true, SessionTTL: 12 * time.Hour, IdleTimeout: 2 * time.Hour,
		SignInPerAccount: 5, SignInPerIP: 30}
}

// Deps are the parts of the service the dashboard works with.
type Deps struct {
	Store      cashier.AccountStore
	Registry   *cashier.Registry
	Clock      cashier.Clock
	Dispatcher *webhook.Dispatcher // test events and resends; nil: not offered
	Chains     map[cashier.Chain]cashier.ChainClient
	Logger     *slog.Logger
	// Reviewer is the payout review queue; nil: the page says it is not
	// available.
	Reviewer Reviewer
	// Provision issues keys and builds contract records.
	Provision Provisioner
}

// Server is the dashboard's http.Handler.
type Server struct {
	cfg Config
	Deps
	limiter *ratelimit.Limiter
	mux     *http.ServeMux

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
	s := &Server{cfg: cfg, Deps: d, limiter: ratelimit.New(d.Clock, 0), mux: http.NewServeMux()}
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

// signIn checks the credentials and creates a session. It returns the
// session token for the cookie.
func (s *Server) signIn(ctx context.Context, email, password, code, ip string) (string, *cashier.User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	res := s.limiter.Allow(
		ratelimit.Check{Rule: "signin-account", Bucket: email, Limit: s.cfg.SignInPerAccount},
		ratelimit.Check{Rule: "signin-ip", Bucket: ip, Limit: s.cfg.SignInPerIP},
	)
	if !res.Allowed {
		return "", nil, errLimited
	}
	u, err := s.Store.UserByEmail(ctx, email)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		// Spend the same time as a real check so timing does not reveal
		// which emails have accounts.
		_, _ = CheckPassword(dummyHash, password)
		return "", nil, errSignIn
	} else if err != nil {
		return "", nil, err
	}
	ok, err := CheckPassword(u.PasswordHash, password)
	if err != nil {
		return "", nil, err
	}
	if !ok || u.Disabled || (u.TOTPSecret != nil && !CheckTOTP(u.TOTPSecret, code, s.Clock.Now())) {
		return "", nil, errSignIn
	}
	tok := randomToken()
	now := s.Clock.Now()
	sess := &cashier.Session{TokenHash: hashToken(tok), UserID: u.ID, CSRF: randomToken(), IP: ip,
		CreatedAt: now, SeenAt: now, ExpiresAt: now.Add(s.cfg.SessionTTL)}
	err = s.Store.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		if err := tx.CreateSession(ctx, sess); err != nil {
			return err
		}
		return tx.AddAudit(ctx, &cashier.AuditEntry{At: now, UserID: u.ID, Email: u.Email, MerchantID: u.MerchantID,
			Action: "session.signin", Target: u.ID, Detail: "signed in", IP: ip})
	})
	if err != nil {
		return "", nil, err
	}
	return tok, u, nil
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
