package http

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/ratelimit"
)

func ruleText(rule string) string {
	switch rule {
	case ruleKey:
		return "per API key"
	case ruleIP:
		return "per client IP"
	}
	return "per endpoint"
}

const (
	ruleKey      = "key"
	ruleIP       = "ip"
	ruleEndpoint = "endpoint"
)

// Rate limits apply in two steps. Before anything else, every request
// counts against its client IP (and, on public routes, against the route
// per IP). Only a request whose API key, time and signature check out
// counts against that merchant's key and the route per merchant: the API
// key travels in widget URLs that customers see, and a stranger holding it
// must not be able to use up the merchant's quota with requests it could
// never sign.

// callerChecks are the limits counted before authentication.
func (s *server) callerChecks(r *http.Request, rt *route) []ratelimit.Check {
	ip := s.ipBucket(s.clientIP(r))
	checks := []ratelimit.Check{{Rule: ruleIP, Bucket: ip, Limit: s.cfg.RateLimits.PerIP}}
	if rt == nil || rt.auth == authPublic {
		endpoint := "unknown"
		if rt != nil {
			endpoint = rt.pattern
		}
		checks = append(checks, ratelimit.Check{Rule: ruleEndpoint, Bucket: endpoint + " ip:" + ip, Limit: s.cfg.RateLimits.PerEndpoint})
	}
	return checks
}

// merchantChecks are the limits counted once the merchant is proven.
func (s *server) merchantChecks(rt *route, merchantID string) []ratelimit.Check {
	return []ratelimit.Check{
		{Rule: ruleKey, Bucket: merchantID, Limit: s.cfg.RateLimits.PerKey, Authenticated: true},
		{Rule: ruleEndpoint, Bucket: rt.pattern + " merchant:" + merchantID, Limit: s.cfg.RateLimits.PerEndpoint, Authenticated: true},
	}
}

// applyLimits counts checks, sets the X-RateLimit headers to the most
// constraining limit seen so far in this request, and answers 429 when one
// is exhausted (reporting false).
func (s *server) applyLimits(w http.ResponseWriter, r *http.Request, checks []ratelimit.Check) bool {
	return s.applyLimitsDeferring(w, r, checks, false)
}

// applyLimitsDeferring is applyLimits; with deferOverflow a refusal by the
// shared overflow counter (the anonymous table is full, the caller's own
// IP has no counter) is held back until authentication: a proven merchant
// goes ahead on its own buckets, anyone else gets the 429 then.
func (s *server) applyLimitsDeferring(w http.ResponseWriter, r *http.Request, checks []ratelimit.Check, deferOverflow bool) bool {
	res := s.limiter.Allow(checks...)
	ri := info(r)
	if !res.Allowed && res.Overflow && deferOverflow {
		ri.held = res
		return true
	}
	if res.Limit > 0 && (ri.limit.Limit == 0 || !res.Allowed || res.Remaining < ri.limit.Remaining) {
		ri.limit = res
	}
	if l := ri.limit; l.Limit > 0 { // no headers when every limit is disabled
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(l.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(l.Remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(l.Reset.Unix(), 10))
	}
	if res.Allowed {
		return true
	}
	s.refuseLimited(w, r, res)
	return false
}

// refuseLimited answers 429 for the refusing result res.
func (s *server) refuseLimited(w http.ResponseWriter, r *http.Request, res ratelimit.Result) {
	w.Header().Set("Retry-After", strconv.Itoa(int(res.RetryAfter(s.clock.Now())/time.Second)))
	s.error(w, r, cashier.Errorf(cashier.ERateLimited, "rate limit exceeded: %d requests per minute %s; retry after %s",
		res.Limit, ruleText(res.Rule), res.Reset.UTC().Format(time.RFC3339)))
}

// ipBucket is the per-IP rate-limit bucket of a client: the address for
// IPv4, its configured prefix for IPv6.
func (s *server) ipBucket(a netip.Addr) string {
	return ratelimit.IPBucket(a, s.cfg.RateLimits.IPv6Prefix)
}

// callChecks are the limits of an authenticated call: a signed call counts
// against its merchant; a key-only call (cashier info without a signature)
// proves only that the caller knows the public API key, so it counts per
// endpoint and client IP instead and never spends the merchant's quota.
func (s *server) callChecks(r *http.Request, rt *route, c *call) []ratelimit.Check {
	if c.signed {
		return s.merchantChecks(rt, c.merchant.ID)
	}
	return []ratelimit.Check{{Rule: ruleEndpoint, Bucket: rt.pattern + " ip:" + s.ipBucket(s.clientIP(r)), Limit: s.cfg.RateLimits.PerEndpoint}}
}

// clientIP is the peer address, or, when the peer is a trusted proxy, the
// rightmost X-Forwarded-For entry that is not itself a trusted proxy.
func (s *server) clientIP(r *http.Request) netip.Addr {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	var addr netip.Addr
	if err == nil {
		addr = peer.Addr().Unmap()
	} else if a, err := netip.ParseAddr(r.RemoteAddr); err == nil {
		addr = a.Unmap()
	}
	if !s.trusted(addr) {
		return addr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a garbled entry: trust nothing left of it
		}
		addr = a.Unmap()
		if !s.trusted(addr) {
			return addr
		}
	}
	return addr
}

func (s *server) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
