// Package http is the service's merchant HTTP API: the nine endpoints of
// the interface, the hosted payment page and the widget entry, with
// authentication, request signatures, strict input decoding, rate limits,
// trace ids and structured logs. It adapts HTTP to the orders service and
// the domain; it holds no business rules of its own.
package http

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/ledger"
	"github.com/stablecashier/cashier/orders"
	"github.com/stablecashier/cashier/ratelimit"
	"github.com/stablecashier/cashier/shed"
	"github.com/stablecashier/cashier/sign"
)

// SignFieldPolicy decides what happens to the body field "sign" (required
// by the interface on collection create) relative to the header signature.
type SignFieldPolicy string

const (
	// SignFieldOptional (the default) accepts a request without the field:
	// the provider's own client sends none and the header signature alone
	// authenticates. When the field is sent it must equal the header.
	SignFieldOptional SignFieldPolicy = "optional"
	// SignFieldRequire requires the field on collection create and, wherever
	// it is sent, requires it to equal the Signature-V2 header.
	SignFieldRequire SignFieldPolicy = "require"
	// SignFieldMatch is the earlier name of SignFieldRequire, still accepted.
	SignFieldMatch SignFieldPolicy = "match"
	// SignFieldIgnore accepts and ignores the field everywhere.
	SignFieldIgnore SignFieldPolicy = "ignore"
)

// UnknownFieldPolicy decides what happens to body fields and query
// parameters an endpoint does not define. The fields real clients send
// (custNo on collection create, chainId on payout create) are defined, so
// both policies accept them.
type UnknownFieldPolicy string

const (
	UnknownReject UnknownFieldPolicy = "reject" // refuse the request, naming the field
	UnknownIgnore UnknownFieldPolicy = "ignore" // drop the field (it is still signed)
)

// ErrorStatusMode selects the HTTP status of error responses.
type ErrorStatusMode string

const (
	// StatusHTTP answers errors with the status of the error table.
	StatusHTTP ErrorStatusMode = "http"
	// StatusAlways200 answers every response with 200, for clients that
	// treat any other status as a transport failure; the envelope's code
	// and success still tell the outcome.
	StatusAlways200 ErrorStatusMode = "always200"
)

// RateLimits are requests per minute. Zero means the default, a negative
// value disables the limit.
type RateLimits struct {
	PerKey      int // per API key (1000)
	PerIP       int // per client IP (2000)
	PerEndpoint int // per endpoint and API key, or endpoint and IP for public calls (100)
	// BrowserOrders bounds the orders the widget SDK creates per client IP
	// (30): the API key is public, so a page's visitor is limited, not
	// the merchant.
	BrowserOrders int
	MaxKeys       int // counters kept per window (ratelimit.DefaultMaxKeys)
	// IPv6Prefix is the prefix length an IPv6 client is counted by: one
	// subscriber usually holds a whole /64, so counting per address would
	// let it escape the per-IP limits (64).
	IPv6Prefix int
}

// DefaultMaxBodyBytes bounds request bodies.
const DefaultMaxBodyBytes = 64 << 10

// Config holds the server's settings. Zero fields take the defaults of
// DefaultConfig.
type Config struct {
	HeaderPrefix   string          // header brand prefix, "Service"
	Window         sign.Window     // request time rule
	Encodings      []sign.Encoding // accepted signature encodings; default raw only
	SignField      SignFieldPolicy
	UnknownFields  UnknownFieldPolicy
	MaxBodyBytes   int64
	RateLimits     RateLimits
	TrustedProxies []netip.Prefix // peers whose X-Forwarded-For is believed; default none
	ErrorStatus    ErrorStatusMode
	// PublicBaseURL is where customers reach this server, the base of
	// payment links; empty: the scheme and host of each request.
	PublicBaseURL string
	// MaxInFlight bounds the requests handled at once; beyond it a request
	// is refused at once with 503 and Retry-After (EOverloaded) instead of
	// queueing behind the others: a bound on the work held in memory, not
	// on the wait (MaxWait). Default 1024.
	MaxInFlight int
	// Instances, when set, returns the number of live instances sharing
	// the rate limits; each enforces its share (ratelimit.Limiter.Share).
	Instances func() int
	// Inactive, when set, says why a network nothing watches (no node,
	// or every node on another chain) takes no orders: the network list
	// shows it in maintenance, the coin list and cashier info leave it out.
	Inactive func(cashier.Chain) error
	// Observe, when set, is told of every served request: its route
	// pattern, status and duration (metrics).
	Observe func(route string, status int, d time.Duration)
	// MaxWait is the queueing an accepted write may meet: a write that
	// would wait longer (writes ahead × the time one takes at capacity) is
	// refused with a booked place (package shed). Default 100 ms;
	// negative leaves only MaxInFlight.
	MaxWait time.Duration
	// MaxCPUWait: while new requests outrun what the service serves (an
	// open-loop overload) and goroutines wait longer than this for a CPU
	// (90th percentile), every request is refused at once, a write with a
	// booked place; while they outrun it, a new write is admitted only
	// within this wait (package shed). Default 5 ms; negative: off.
	MaxCPUWait time.Duration
	// RejectIntegerStrings refuses integer fields (payoutType) sent as a
	// JSON string of digits; by default "1" is read as 1, as the
	// provider's clients that build requests from string maps send it.
	RejectIntegerStrings bool
	// Ledger answers the balance and ledger endpoints; nil: they answer
	// EUnsupported.
	Ledger *ledger.Service
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		HeaderPrefix:  sign.DefaultPrefix,
		Window:        sign.DefaultWindow,
		Encodings:     []sign.Encoding{sign.Raw},
		SignField:     SignFieldOptional,
		UnknownFields: UnknownReject,
		MaxBodyBytes:  DefaultMaxBodyBytes,
		RateLimits:    RateLimits{PerKey: 1000, PerIP: 2000, PerEndpoint: 100, BrowserOrders: 30, MaxKeys: ratelimit.DefaultMaxKeys, IPv6Prefix: 64},
		ErrorStatus:   StatusHTTP,
		MaxInFlight:   1024,
		MaxWait:       100 * time.Millisecond,
		MaxCPUWait:    5 * time.Millisecond,
	}
}

func (c Config) withDefaults() (Config, error) {
	d := DefaultConfig()
	if c.HeaderPrefix == "" {
		c.HeaderPrefix = d.HeaderPrefix
	}
	if c.Window == (sign.Window{}) {
		c.Window = d.Window
	}
	if len(c.Encodings) == 0 {
		c.Encodings = d.Encodings
	}
	switch c.SignField {
	case "":
		c.SignField = d.SignField
	case SignFieldMatch:
		c.SignField = SignFieldRequire
	case SignFieldOptional, SignFieldRequire, SignFieldIgnore:
	default:
		return c, fmt.Errorf("http: unknown sign field policy %q (use optional, require or ignore)", c.SignField)
	}
	switch c.UnknownFields {
	case "":
		c.UnknownFields = d.UnknownFields
	case UnknownReject, UnknownIgnore:
	default:
		return c, fmt.Errorf("http: unknown field policy %q (use reject or ignore)", c.UnknownFields)
	}
	switch c.ErrorStatus {
	case "":
		c.ErrorStatus = d.ErrorStatus
	case StatusHTTP, StatusAlways200:
	default:
		return c, fmt.Errorf("http: unknown error status mode %q (use http or always200)", c.ErrorStatus)
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = d.MaxBodyBytes
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = d.MaxInFlight
	}
	if c.MaxWait == 0 {
		c.MaxWait = d.MaxWait
	}
	if c.MaxCPUWait == 0 {
		c.MaxCPUWait = d.MaxCPUWait
	}
	fill := func(v *int, def int) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			*v = 0 // ratelimit treats 0 as disabled
		}
	}
	fill(&c.RateLimits.PerKey, d.RateLimits.PerKey)
	fill(&c.RateLimits.PerIP, d.RateLimits.PerIP)
	fill(&c.RateLimits.PerEndpoint, d.RateLimits.PerEndpoint)
	fill(&c.RateLimits.BrowserOrders, d.RateLimits.BrowserOrders)
	if c.RateLimits.MaxKeys <= 0 {
		c.RateLimits.MaxKeys = d.RateLimits.MaxKeys
	}
	if c.RateLimits.IPv6Prefix == 0 {
		c.RateLimits.IPv6Prefix = d.RateLimits.IPv6Prefix
	}
	if c.RateLimits.IPv6Prefix < 1 || c.RateLimits.IPv6Prefix > 128 {
		return c, fmt.Errorf("http: IPv6 prefix %d is not between 1 and 128", c.RateLimits.IPv6Prefix)
	}
	return c, nil
}

// server is the handler NewServer returns.
type server struct {
	cfg     Config
	hdr     sign.Headers
	svc     *orders.Service
	store   cashier.Store
	reg     *cashier.Registry
	clock   cashier.Clock
	log     *slog.Logger
	limiter *ratelimit.Limiter
	admit   shed.Admission
	// writes is the store's write load when it bounds the wait of its
	// writes; POST requests are refused up front when it is busy.
	writes   cashier.WriteLoad
	refusals shed.RefusalLog
	cpu      shed.CPUWait // CPU saturation (package shed)
	reading  atomic.Int64 // bodies being read ahead of admission (package shed)
	gate     shed.CPUGate // the Ps write requests compute on (package shed)
	seed     maphash.Seed // names refused writes (package shed)

	mux    *http.ServeMux
	routes map[string]*route // by mux pattern
	paths  map[string]bool   // exact paths of API routes, to tell 405 from 404
}

// NewServer returns the HTTP handler of the merchant API. All routes are
// in routes.go.
func NewServer(cfg Config, svc *orders.Service, store cashier.Store, reg *cashier.Registry, clock cashier.Clock, logger *slog.Logger) (http.Handler, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if svc == nil || store == nil || reg == nil || clock == nil {
		return nil, fmt.Errorf("http: NewServer needs the orders service, store, registry and clock")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &server{
		cfg: cfg, hdr: sign.HeaderNames(cfg.HeaderPrefix),
		svc: svc, store: store, reg: reg, clock: clock, log: logger,
		limiter: ratelimit.New(clock, cfg.RateLimits.MaxKeys),
		mux:     http.NewServeMux(),
		routes:  map[string]*route{},
		paths:   map[string]bool{},
		seed:    maphash.MakeSeed(),
	}
	s.limiter.Share = cfg.Instances
	s.writes, _ = store.(cashier.WriteLoad)
	s.addRoutes()
	return s, nil
}

// reqInfo travels in the request context: what the middleware learned.
type reqInfo struct {
	trace    string
	family   family
	merchant string           // merchant id once authenticated, for logs
	err      error            // the error answered, for logs
	limit    ratelimit.Result // most constraining rate limit counted so far
	held     ratelimit.Result // an overflow refusal held back until authentication (Limit > 0)
	request  string           // X-Request-Id: the caller's, or the trace
	slot     *shed.Slot       // a write request's CPU slot (package shed)
	writeID  uint64           // a write request's name for its booked place (package shed); 0: none
}

type ctxKey struct{}

func info(r *http.Request) *reqInfo {
	if i, ok := r.Context().Value(ctxKey{}).(*reqInfo); ok {
		return i
	}
	return &reqInfo{family: familyOf(r.URL.Path)}
}

// statusWriter remembers the status for the access log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// ServeHTTP assigns the trace id, applies the rate limits, dispatches, and
// turns panics into 000101 responses.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The body is read first, so that slow clients wait outside the
	// requests in progress (package shed); overload is refused next, before
	// any work and without a log line of its own (package shed).
	r = widgetAtRoot(r)
	body := shed.ReadAhead(r, s.cfg.MaxBodyBytes, &s.reading)
	if !s.admit.Enter(s.cfg.MaxInFlight) {
		s.refuse(w, r, shed.ErrInFlight, time.Second)
		return
	}
	defer s.admit.Leave()
	cpuBusy := s.cfg.MaxCPUWait > 0 && s.cpu.Saturated(time.Now(), s.cfg.MaxCPUWait, s.cfg.MaxWait, s.admit.InFlight())
	ticketed := false
	var writeID uint64
	if r.Method == http.MethodPost {
		maxWait := s.cfg.MaxWait
		if s.cfg.MaxCPUWait > 0 && maxWait > s.cfg.MaxCPUWait && s.cpu.Overrun() {
			// An open-loop overload: its excess is refused however long
			// the queue, which would only add its wait to every create
			// accepted; the wait bound shrinks to max-cpu-wait (still
			// with 16 ahead admitted) while it lasts (package shed).
			maxWait = s.cfg.MaxCPUWait
		}
		var why error
		switch {
		case cpuBusy:
			why = shed.ErrCPUBusy
		case s.writes != nil && s.writes.WritesBusy():
			why = shed.ErrWritesBusy
		}
		id := shed.WriteID(s.seed, r, s.hdr.APIKey, body)
		writeID = id
		ok, held, retry, hold := s.admit.AdmitWrite(time.Now(), id, maxWait, why != nil)
		if held || hold > 0 {
			s.cpu.Returning() // back for its place: not new demand (package shed)
		}
		if hold > 0 {
			// Back before its Retry-After: kept until its place is due.
			t := time.NewTimer(hold)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
			ok, held, retry, _ = s.admit.AdmitWrite(time.Now(), id, maxWait, why != nil)
		}
		if !ok {
			if why == nil {
				why = shed.ErrWaitTooLong
			}
			s.refuse(w, r, why, retry)
			return
		}
		ticketed = held
		defer func() { s.admit.WriteDone(time.Now()) }()
	} else if cpuBusy {
		s.refuse(w, r, shed.ErrCPUBusy, time.Second)
		return
	}
	defer s.cpu.Answered()
	start := time.Now()
	ri := &reqInfo{trace: newTrace(), family: familyOf(r.URL.Path)}
	ri.request = requestID(r, ri.trace)
	if r.Method == http.MethodPost && !ticketed {
		ri.writeID = writeID
	}
	ctx := context.WithValue(r.Context(), ctxKey{}, ri)
	if !ticketed {
		// A request holding a booked place waits for the writer rather
		// than be refused again (package shed).
		ctx = cashier.RefuseWhenBusy(ctx)
	}
	r = r.WithContext(cashier.WithRequestID(ctx, ri.request))
	if r.Method == http.MethodPost {
		// The slot is taken once the body is read (readBody).
		ri.slot = shed.NewSlot(&s.gate)
		r = r.WithContext(cashier.WithCPUSlot(r.Context(), ri.slot))
		defer ri.slot.Done()
	}
	sw := &statusWriter{ResponseWriter: w}
	sw.Header().Set("X-Request-Id", ri.request)
	setSecurityHeaders(sw.Header())
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.ErrorContext(r.Context(), "panic", "trace", ri.trace, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if sw.status == 0 {
				s.error(sw, r, cashier.Errorf(cashier.EInternal, "internal error"))
			}
		}
		s.logRequest(r, ri, sw.status, time.Since(start))
		s.observe(r, sw.status, time.Since(start))
	}()

	_, pattern := s.mux.Handler(r)
	rt := s.routes[pattern]
	if !s.applyLimitsDeferring(sw, r, s.callerChecks(r, rt), rt != nil && rt.auth != authPublic) {
		return
	}
	if rt == nil {
		if s.paths[r.URL.Path] {
			s.errorStatus(sw, r, cashier.Errorf(cashier.EInvalid, "method %s is not allowed on %s", r.Method, r.URL.Path), http.StatusMethodNotAllowed)
			return
		}
		s.error(sw, r, cashier.Errorf(cashier.ENotFound, "no endpoint %s %s", r.Method, r.URL.Path))
		return
	}
	s.mux.ServeHTTP(sw, r)
}

func (s *server) logRequest(r *http.Request, ri *reqInfo, status int, d time.Duration) {
	attrs := []slog.Attr{
		slog.String("trace", ri.trace),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", status),
		slog.Duration("duration", d),
		slog.String("ip", s.clientIP(r).String()),
	}
	if ri.merchant != "" {
		attrs = append(attrs, slog.String("merchant", ri.merchant))
	}
	level := slog.LevelInfo
	if ri.err != nil {
		code := cashier.ErrorCode(ri.err)
		attrs = append(attrs, slog.String("code", string(code)), slog.String("error", ri.err.Error()))
		if code == cashier.EInternal {
			level = slog.LevelError
		}
	}
	s.log.LogAttrs(r.Context(), level, "request", attrs...)
}

// newTrace returns a random version-4 UUID, the provider's trace format.
func newTrace() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
