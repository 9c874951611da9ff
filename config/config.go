package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// Config is the process configuration. Every field can be set by a flag or
// by a CASHIER_* environment variable, both listed in fields(); a flag wins
// over the environment, the environment over the default.
type Config struct {
	Data      string
	Addr      string
	Mode      string
	PublicURL string
	Registry  string
	// NetworkPreset chooses the built-in registry: mainnet or testnet
	// (Sepolia, Arbitrum Sepolia, Nile).
	NetworkPreset string
	MasterKey     string
	LogLevel      string

	HeaderPrefix   string
	SignEncodings  string
	SignField      string
	UnknownFields  string
	IntegerStrings string
	ErrorStatus    string
	RecvWindow     time.Duration
	RecvWindowMax  time.Duration
	FutureSkew     time.Duration
	RateKey        int
	RateIP         int
	RateEndpoint   int
	TrustedProxies string
	CollectionTTL  time.Duration

	WebhookTimeout  time.Duration
	WebhookSchedule string
	WebhookWorkers  int
	WebhookLease    time.Duration

	// EVMRPC holds, per EVM network, its comma-separated JSON-RPC URLs
	// (--eth-rpc, --arb-rpc, --bsc-rpc, --polygon-rpc, --base-rpc). Set it
	// with SetNodeURLs: a Config is copied by value and the map is shared.
	EVMRPC map[cashier.Chain]string
	// EVMFinality chooses, per EVM network, when a collection payment is
	// final: "confirmations" (the registry's count) or "finalized" (the
	// chain's finalized block tag); --eth-finality, --bsc-finality, ...
	EVMFinality map[cashier.Chain]string
	TRONAPI     string
	TRONAPIKey  string

	LateWindow            time.Duration // after expiry, how long a full payment still completes an order
	WatchInterval         time.Duration // pause between chain watcher rounds
	ScanChunk             int           // blocks per transfer scan query
	ServiceKeys           string        // CHAIN.ROLE=HEX,… (signer, executor, sweeper); env only
	WebhookSignature      string        // Signature-V2 scheme: raw or sorted
	WebhookBody           string        // body value types: typed or strings
	IPv6Prefix            int           // rate-limit bucket of an IPv6 client: its /N prefix
	SweepMin              string        // smallest batch worth a sweep's gas, whole tokens; "0" sweeps any amount
	SweepInterval         time.Duration // pause between sweep rounds; 0 turns sweeping off
	PayoutBatchSize       int           // most orders per payout contract call
	PayoutWindow          time.Duration // how long a partial payout batch waits for more orders
	PayoutMinGas          string        // CHAIN=AMOUNT,…: executor balance below which payouts wait
	LedgerFrom            string        // CHAIN=BLOCK,…: the first block payout contracts' ledgers read
	PayoutGasCap          string        // BASE+PER: most gas (TRON: energy) one payout call may use, per recipient added
	GasPolicy             string        // CHAIN=fee|fee+gas,…: whether batch fees also carry the gas (default fee)
	GasPrice              string        // CHAIN=PRICE|feed:ADDR,…: token units per coin for fee+gas
	MaxInFlight           int           // API requests handled at once; more are refused with 503
	WriteQueue            int           // writes waiting for the database writer; more are refused with 503
	CacheTTL              time.Duration // how long a cached merchant, cashier or contract is trusted
	PprofAddr             string        // listen address of the profiling endpoint; empty: off
	DashboardSecureCookie string
	DatabaseURL           string        // postgres://…: PostgreSQL instead of the SQLite file in Data
	WatchNative           string        // on: the chain watchers also record ETH/TRX sent to deposit addresses; off
	LeaseTTL              time.Duration // how long a lease on one-owner work lasts without renewal
	MetricsAddr           string        // listen address of /metrics (and the health checks); empty: off
	MaxWait               time.Duration // wait an API write may meet before it is refused (admission, writer wait); 0: fixed bounds only
	MaxCPUWait            time.Duration // CPU wait (90th percentile) beyond which every API request is refused at once while the demand outruns the service, and the wait bound of new writes then; 0: off

	DashboardPasswordChecks int // dashboard sign-in password checks run at once; 0: automatic (leaves a CPU free)

	KeyGrace time.Duration // how long a rotated API key (and its secret) still works; 0: it stops at once

	SignerClef          string // Clef endpoint signing the batches of merchant signers it holds (EVM networks)
	ExecutorClef        string // CHAIN=ENDPOINT,…: the executor's transactions signed by Clef
	ExecutorClefAccount string // CHAIN=ADDRESS,…: the executor's account in that Clef
}

// Default is the configuration before flags and environment.
func Default() Config {
	return Config{
		Data:           "data",
		Addr:           "127.0.0.1:8080",
		Mode:           "production",
		NetworkPreset:  PresetMainnet,
		LogLevel:       "info",
		HeaderPrefix:   "Service",
		SignEncodings:  "raw",
		SignField:      "optional",
		UnknownFields:  "reject",
		IntegerStrings: "accept",
		ErrorStatus:    "http",
		RecvWindow:     30 * time.Second,
		RecvWindowMax:  60 * time.Second,
		FutureSkew:     time.Second,
		RateKey:        1000,
		RateIP:         2000,
		RateEndpoint:   100,
		CollectionTTL:  30 * time.Minute,

		WebhookTimeout:  10 * time.Second,
		WebhookSchedule: "1m,5m,30m,2h,24h",
		WebhookWorkers:  32,
		WebhookLease:    2 * time.Minute,

		LateWindow:            7 * 24 * time.Hour,
		WatchInterval:         time.Second,
		ScanChunk:             1000,
		WebhookSignature:      "raw",
		WebhookBody:           "typed",
		IPv6Prefix:            64,
		SweepMin:              "10",
		SweepInterval:         time.Minute,
		PayoutBatchSize:       100,
		PayoutWindow:          2 * time.Second,
		PayoutMinGas:          "ETH=0.005,ARB=0.0005,TRON=100,BSC=0.005,POLYGON=1,BASE=0.0005",
		PayoutGasCap:          "200000+60000",
		MaxInFlight:           1024,
		WriteQueue:            1024,
		CacheTTL:              time.Second,
		DashboardSecureCookie: "auto",
		WatchNative:           "on",
		LeaseTTL:              10 * time.Second,
		MaxWait:               100 * time.Millisecond,
		MaxCPUWait:            5 * time.Millisecond,
		KeyGrace:              24 * time.Hour,
		EVMRPC:                map[cashier.Chain]string{},
		EVMFinality:           map[cashier.Chain]string{},
	}
}

// NodeURLs is the node setting of network ch: its comma-separated JSON-RPC
// URLs, or TRON's full-node HTTP API URLs.
func (c Config) NodeURLs(ch cashier.Chain) string {
	if ch == cashier.ChainTRON {
		return c.TRONAPI
	}
	return c.EVMRPC[ch]
}

// SetNodeURLs sets the node setting of ch on c alone: the map is copied,
// so a Config copied from c before keeps its own.
func (c *Config) SetNodeURLs(ch cashier.Chain, urls string) {
	if ch == cashier.ChainTRON {
		c.TRONAPI = urls
		return
	}
	m := make(map[cashier.Chain]string, len(c.EVMRPC)+1)
	for k, v := range c.EVMRPC {
		m[k] = v
	}
	m[ch] = urls
	c.EVMRPC = m
}

// SetFinality sets the finality setting of EVM network ch on c alone.
func (c *Config) SetFinality(ch cashier.Chain, v string) {
	m := make(map[cashier.Chain]string, len(c.EVMFinality)+1)
	for k, v := range c.EVMFinality {
		m[k] = v
	}
	m[ch] = v
	c.EVMFinality = m
}

// NodeSetting names the environment variable of ch's node URLs, for
// messages: CASHIER_ETH_RPC, CASHIER_BSC_RPC, CASHIER_TRON_API, ...
func NodeSetting(ch cashier.Chain) string {
	if ch == cashier.ChainTRON {
		return "CASHIER_TRON_API"
	}
	return "CASHIER_" + string(ch) + "_RPC"
}

// flagName is ch's part of its settings' flag names: eth, bsc, polygon.
func flagName(ch cashier.Chain) string { return strings.ToLower(string(ch)) }

// Load fills c from the environment, then from args parsed with fs (whose
// flags it registers). It returns the remaining arguments.
func (c *Config) Load(fs *flag.FlagSet, args []string, getenv func(string) string) ([]string, error) {
	fields := c.fields()
	explicit := map[string]bool{} // set by the environment or a flag
	for _, f := range fields {
		if v := getenv(f.env); v != "" {
			if err := f.set(v); err != nil {
				return nil, fmt.Errorf("%s: %w", f.env, err)
			}
			explicit[f.flag] = true
		}
	}
	settings := map[string]bool{} // the flags registered here, not the command's own
	for _, f := range fields {
		// A command's own flag of the same name wins: `payout policy
		// --mode never` is the review mode, and that command takes the
		// service mode from CASHIER_MODE or the data directory.
		if f.flag != "-" && fs.Lookup(f.flag) == nil {
			settings[f.flag] = true
			usage := f.usage + " ($" + f.env
			if d := f.get(); d != "" {
				usage += ", default " + d
			}
			set := f.set
			fs.Func(f.flag, usage+")", func(v string) error { explicit[f.flag] = true; return set(v) })
		}
	}
	if fs.Name() != "serve" && fs.Name() != "sandbox" {
		fs.Usage = func() { briefUsage(fs, settings) }
	} else {
		fs.Usage = func() { groupedUsage(fs, settings) }
	}
	if err := Parse(fs, args); err != nil {
		return nil, err
	}
	if err := c.applyRemembered(fields, explicit); err != nil {
		return nil, err
	}
	return fs.Args(), c.Validate()
}

// Parse parses args with fs and reports a bad flag once: the flag package
// would print the error and the whole usage, and the caller the error again.
// -h prints the usage and returns flag.ErrHelp.
func Parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if fs.Usage != nil {
			fs.Usage()
		} else {
			fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
		return err
	case err != nil:
		return fmt.Errorf("%s: %w (cashier %s -h lists the flags)", fs.Name(), err, fs.Name())
	}
	return nil
}

// Finality settings (eth-finality, arb-finality).
const (
	FinalityConfirmations = "confirmations"
	FinalityFinalized     = "finalized"
)

// Finalized reports whether c's collection payments wait for the
// finalized block instead of a confirmation count.
func (c Config) Finalized(ch cashier.Chain) bool {
	return ch.IsEVM() && c.EVMFinality[ch] == FinalityFinalized
}

// topics groups the service's settings in `serve -h`, in this order; a
// setting not listed falls under "other" (TestEverySettingHasATopic).
var topics = []struct {
	name  string
	flags []string
}{
	{"service", []string{"data", "database-url", "addr", "mode", "public-url", "network-preset", "registry", "log-level"}},
	{"API requests and signing", []string{"header-prefix", "sign-encodings", "sign-field", "unknown-fields", "integer-strings", "error-status", "recv-window", "recv-window-max", "future-skew", "collection-ttl"}},
	{"limits and load", []string{"rate-per-key", "rate-per-ip", "rate-per-endpoint", "trusted-proxies", "ipv6-prefix", "max-inflight", "write-queue", "max-wait", "max-cpu-wait", "cache-ttl"}},
	{"webhooks", []string{"webhook-timeout", "webhook-schedule", "webhook-workers", "webhook-lease", "webhook-signature", "webhook-body"}},
	{"chains", chainFlags()},
	{"payouts and sweeps", []string{"payout-batch-size", "payout-window", "payout-min-gas", "payout-gas-cap", "gas-policy", "gas-price", "sweep-min", "sweep-interval", "ledger-from"}},
	{"several instances", []string{"lease-ttl"}},
	{"dashboard", []string{"dashboard-secure-cookie", "dashboard-password-checks"}},
	{"monitoring", []string{"metrics-addr", "pprof-addr"}},
	{"keys", []string{"key-grace", "signer-clef", "executor-clef", "executor-clef-account"}},
}

// chainFlags are the chains topic: each network's node and finality
// settings, then the watcher's.
func chainFlags() []string {
	var out []string
	for _, ch := range cashier.EVMChains {
		out = append(out, flagName(ch)+"-rpc")
	}
	out = append(out, "tron-api")
	for _, ch := range cashier.EVMChains {
		out = append(out, flagName(ch)+"-finality")
	}
	return append(out, "late-window", "watch-interval", "scan-chunk", "watch-native")
}

// groupedUsage is the -h of the service (serve, sandbox): the command's own
// flags, then the settings by topic, then the ones read only from the
// environment (secrets stay out of process listings).
func groupedUsage(fs *flag.FlagSet, setting map[string]bool) {
	w := fs.Output()
	fmt.Fprintf(w, "Usage of %s:\n", fs.Name())
	section := func(title string, names []string) {
		sub := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		sub.SetOutput(w)
		n := 0
		for _, name := range names {
			if f := fs.Lookup(name); f != nil {
				sub.Var(f.Value, f.Name, f.Usage)
				n++
			}
		}
		if n == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		sub.PrintDefaults()
	}
	var own, other []string
	placed := map[string]bool{}
	for _, t := range topics {
		for _, n := range t.flags {
			placed[n] = true
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case !setting[f.Name]:
			own = append(own, f.Name)
		case !placed[f.Name]:
			other = append(other, f.Name)
		}
	})
	section(fs.Name(), own)
	for _, t := range topics {
		section(t.name, t.flags)
	}
	section("other", other)
	fmt.Fprintln(w, "\nenvironment only (secrets, kept out of process listings):")
	fmt.Fprintln(w, "  CASHIER_MASTER_KEY     the master key sealing stored secrets (default: DATA/master.key)")
	fmt.Fprintln(w, "  CASHIER_SERVICE_KEYS   service keys CHAIN.ROLE=HEX,... (signer, executor, sweeper)")
	fmt.Fprintln(w, "  CASHIER_TRON_API_KEY   API key of the TRON full-node provider")
	fmt.Fprintln(w, "\nEvery setting is also read from its environment variable, named in its line; a flag wins.")
}

// briefUsage is the -h of a command that is not the service: its own flags
// and where its data is, not the forty settings of the service, which it
// accepts too but rarely needs.
func briefUsage(fs *flag.FlagSet, setting map[string]bool) {
	own := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	own.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if !setting[f.Name] || f.Name == "data" || f.Name == "database-url" {
			own.Var(f.Value, f.Name, f.Usage)
		}
	})
	fmt.Fprintf(fs.Output(), "Usage of %s:\n", fs.Name())
	own.PrintDefaults()
	fmt.Fprintln(fs.Output(), "Every setting that `cashier serve -h` lists is accepted too, as a flag or from its environment variable.")
}

// Validate checks values that have a fixed set of choices.
func (c *Config) Validate() error {
	choices := []struct {
		name, v string
		ok      []string
	}{
		{"mode", c.Mode, []string{"production", "sandbox"}},
		{"network-preset", c.NetworkPreset, []string{PresetMainnet, PresetTestnet}},
		{"sign-field", c.SignField, []string{"optional", "require", "match", "ignore"}},
		{"unknown-fields", c.UnknownFields, []string{"reject", "ignore"}},
		{"integer-strings", c.IntegerStrings, []string{"accept", "reject"}},
		{"error-status", c.ErrorStatus, []string{"http", "always200"}},
		{"log-level", c.LogLevel, []string{"debug", "info", "warn", "error"}},
		{"webhook-signature", c.WebhookSignature, []string{"raw", "sorted"}},
		{"webhook-body", c.WebhookBody, []string{"typed", "strings"}},
		{"dashboard-secure-cookie", c.DashboardSecureCookie, []string{"auto", "true", "false"}},
	}
	for _, ch := range choices {
		found := false
		for _, o := range ch.ok {
			found = found || ch.v == o
		}
		if !found {
			return fmt.Errorf("%s must be one of %s, not %q", ch.name, strings.Join(ch.ok, ", "), ch.v)
		}
	}
	if c.WebhookWorkers < 1 || c.WebhookTimeout <= 0 {
		return fmt.Errorf("webhook workers and timeout must be positive")
	}
	if c.WebhookLease < 2*c.WebhookTimeout {
		return fmt.Errorf("webhook lease must be at least twice the webhook timeout, or a slow delivery could be sent twice")
	}
	if c.PayoutBatchSize < 1 || c.PayoutBatchSize > 200 || c.PayoutWindow < 0 {
		return fmt.Errorf("payout-batch-size must be 1..200 (the contract's maximum) and payout-window not negative")
	}
	if c.RateKey < 1 || c.RateIP < 1 || c.RateEndpoint < 1 {
		return fmt.Errorf("rate limits must be positive")
	}
	if c.RecvWindow <= 0 || c.RecvWindowMax < c.RecvWindow {
		return fmt.Errorf("recv-window must be positive and not above recv-window-max")
	}
	if c.FutureSkew < 0 {
		return fmt.Errorf("future-skew must not be negative, or no request time would be accepted")
	}
	if c.IPv6Prefix < 1 || c.IPv6Prefix > 128 {
		return fmt.Errorf("ipv6-prefix must be between 1 and 128")
	}
	if c.CollectionTTL <= 0 {
		return fmt.Errorf("collection-ttl must be positive, or every collection order would be created expired")
	}
	if c.LateWindow < 0 || c.WatchInterval <= 0 || c.ScanChunk < 1 {
		return fmt.Errorf("late-window must not be negative, watch-interval and scan-chunk must be positive")
	}
	if _, err := cashier.ParseAmount(c.SweepMin, 18); err != nil || c.SweepInterval < 0 {
		return fmt.Errorf("sweep-min must be a decimal amount (%q) and sweep-interval not negative", c.SweepMin)
	}
	for ch, v := range c.EVMFinality {
		if v != "" && v != FinalityConfirmations && v != FinalityFinalized {
			return fmt.Errorf("%s-finality must be confirmations or finalized, not %q", flagName(ch), v)
		}
	}
	if c.WatchNative != "on" && c.WatchNative != "off" {
		return fmt.Errorf("watch-native must be on or off, not %q", c.WatchNative)
	}
	if c.KeyGrace < 0 {
		return fmt.Errorf("key-grace must not be negative (0: a rotated key stops at once)")
	}
	if c.DashboardPasswordChecks < 0 {
		return fmt.Errorf("dashboard-password-checks must not be negative (0: automatic)")
	}
	if c.MaxInFlight < 1 || c.WriteQueue < 1 {
		return fmt.Errorf("max-inflight and write-queue must be positive")
	}
	if c.MaxCPUWait < 0 {
		return fmt.Errorf("max-cpu-wait must not be negative (0 turns it off)")
	}
	if c.MaxWait < 0 {
		return fmt.Errorf("max-wait must not be negative (0 turns it off)")
	}
	if c.CacheTTL < 0 {
		return fmt.Errorf("cache-ttl must not be negative (0 turns the cache off)")
	}
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		return fmt.Errorf("database-url must be a postgres:// or postgresql:// URL (empty: SQLite in the data directory)")
	}
	if c.LeaseTTL < time.Second {
		return fmt.Errorf("lease-ttl must be at least 1s (%s)", c.LeaseTTL)
	}
	return nil
}

type field struct {
	env, flag, usage string
	value
}

// value reads a setting from text and shows its current value (the
// default, in help).
type value struct {
	set func(string) error
	get func() string
}

// fields lists the settings with setters; kept explicit rather than
// reflective so each conversion is visible.
func (c *Config) fields() []field {
	str := func(p *string) value {
		return value{func(v string) error { *p = v; return nil }, func() string { return *p }}
	}
	dur := func(p *time.Duration) value {
		return value{func(v string) error {
			d, err := time.ParseDuration(v)
			if err != nil {
				return err
			}
			*p = d
			return nil
		}, func() string { return p.String() }}
	}
	num := func(p *int) value {
		return value{func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return err
			}
			*p = n
			return nil
		}, func() string { return strconv.Itoa(*p) }}
	}
	f := func(env, flag, usage string, v value) field { return field{env, flag, usage, v} }
	// Each EVM network's node and finality settings, from its line in
	// cashier's chain table: --eth-rpc / CASHIER_ETH_RPC, --bsc-rpc, ...
	var chains []field
	for _, ch := range cashier.EVMChains {
		ch := ch
		rpc := value{func(v string) error { c.SetNodeURLs(ch, v); return nil }, func() string { return c.EVMRPC[ch] }}
		fin := value{func(v string) error { c.SetFinality(ch, v); return nil }, func() string {
			if v := c.EVMFinality[ch]; v != "" {
				return v
			}
			return FinalityConfirmations
		}}
		name := ch.DisplayName()
		chains = append(chains,
			f(NodeSetting(ch), flagName(ch)+"-rpc", "comma-separated "+name+" JSON-RPC URLs", rpc),
			f("CASHIER_"+string(ch)+"_FINALITY", flagName(ch)+"-finality", "when a "+name+" collection payment is final: confirmations (the registry's count) or finalized (the finalized block tag)", fin))
	}
	return append(chains, []field{
		f("CASHIER_DATA", "data", "data directory (database, master key)", str(&c.Data)),
		f("CASHIER_ADDR", "addr", "listen address HOST:PORT", str(&c.Addr)),
		f("CASHIER_MODE", "mode", "production or sandbox (sandbox allows http and loopback webhook targets)", str(&c.Mode)),
		f("CASHIER_PUBLIC_URL", "public-url", "external base URL for payment links (default: the scheme and host of each request)", str(&c.PublicURL)),
		f("CASHIER_NETWORK_PRESET", "network-preset", "built-in networks and tokens: mainnet, or testnet (Ethereum Sepolia, Arbitrum Sepolia, TRON Nile with their issuers' test tokens)", str(&c.NetworkPreset)),
		f("CASHIER_REGISTRY", "registry", "JSON file overriding the built-in networks and tokens", str(&c.Registry)),
		f("CASHIER_MASTER_KEY", "-", "", str(&c.MasterKey)),
		f("CASHIER_LOG_LEVEL", "log-level", "debug, info, warn or error", str(&c.LogLevel)),
		f("CASHIER_HEADER_PREFIX", "header-prefix", "brand prefix of the API header names", str(&c.HeaderPrefix)),
		f("CASHIER_SIGN_ENCODINGS", "sign-encodings", "accepted signature value encodings: raw, urlencoded or raw,urlencoded", str(&c.SignEncodings)),
		f("CASHIER_SIGN_FIELD", "sign-field", "body field sign: optional (must equal the header when sent), require (also required on collection create; match is an alias) or ignore", str(&c.SignField)),
		f("CASHIER_UNKNOWN_FIELDS", "unknown-fields", "unknown request fields: reject or ignore", str(&c.UnknownFields)),
		f("CASHIER_INTEGER_STRINGS", "integer-strings", "integer request fields (payoutType) given as a string of digits (\"1\"): accept or reject", str(&c.IntegerStrings)),
		f("CASHIER_ERROR_STATUS", "error-status", "HTTP status of errors: http or always200", str(&c.ErrorStatus)),
		f("CASHIER_RECV_WINDOW", "recv-window", "default request validity window", dur(&c.RecvWindow)),
		f("CASHIER_RECV_WINDOW_MAX", "recv-window-max", "largest validity window a client may ask for", dur(&c.RecvWindowMax)),
		f("CASHIER_FUTURE_SKEW", "future-skew", "how far ahead of the server clock a request time may be", dur(&c.FutureSkew)),
		f("CASHIER_RATE_PER_KEY", "rate-per-key", "requests per minute per API key", num(&c.RateKey)),
		f("CASHIER_RATE_PER_IP", "rate-per-ip", "requests per minute per client IP", num(&c.RateIP)),
		f("CASHIER_RATE_PER_ENDPOINT", "rate-per-endpoint", "requests per minute per endpoint and caller", num(&c.RateEndpoint)),
		f("CASHIER_TRUSTED_PROXIES", "trusted-proxies", "comma-separated CIDRs whose X-Forwarded-For is believed", str(&c.TrustedProxies)),
		f("CASHIER_COLLECTION_TTL", "collection-ttl", "lifetime of a collection order", dur(&c.CollectionTTL)),
		f("CASHIER_WEBHOOK_TIMEOUT", "webhook-timeout", "time a webhook receiver has to answer", dur(&c.WebhookTimeout)),
		f("CASHIER_WEBHOOK_SCHEDULE", "webhook-schedule", "webhook retry times after the first attempt, comma-separated", str(&c.WebhookSchedule)),
		f("CASHIER_WEBHOOK_WORKERS", "webhook-workers", "concurrent webhook deliveries", num(&c.WebhookWorkers)),
		f("CASHIER_WEBHOOK_LEASE", "webhook-lease", "how long an instance holds a claimed webhook before another may take it over", dur(&c.WebhookLease)),
		f("CASHIER_TRON_API", "tron-api", "comma-separated TRON full-node HTTP API URLs", str(&c.TRONAPI)),
		f("CASHIER_TRON_API_KEY", "-", "", str(&c.TRONAPIKey)),
		f("CASHIER_LATE_WINDOW", "late-window", "after expiry, how long a full payment still completes a collection order", dur(&c.LateWindow)),
		f("CASHIER_WATCH_INTERVAL", "watch-interval", "pause between chain watcher rounds", dur(&c.WatchInterval)),
		f("CASHIER_SCAN_CHUNK", "scan-chunk", "blocks per transfer scan query of the chain watcher", num(&c.ScanChunk)),
		f("CASHIER_SERVICE_KEYS", "-", "", str(&c.ServiceKeys)),
		f("CASHIER_WEBHOOK_SIGNATURE", "webhook-signature", "webhook Signature-V2: raw (body + &time=) or sorted (key=value + &time=)", str(&c.WebhookSignature)),
		f("CASHIER_WEBHOOK_BODY", "webhook-body", "webhook body values: typed (documented number types) or strings (every value a string)", str(&c.WebhookBody)),
		f("CASHIER_IPV6_PREFIX", "ipv6-prefix", "rate limits count an IPv6 client by this prefix length", num(&c.IPv6Prefix)),
		f("CASHIER_PAYOUT_BATCH_SIZE", "payout-batch-size", "most payout orders per contract call (1-200)", num(&c.PayoutBatchSize)),
		f("CASHIER_PAYOUT_WINDOW", "payout-window", "how long a partial payout batch waits for more orders", dur(&c.PayoutWindow)),
		f("CASHIER_LEDGER_FROM", "ledger-from", "per network, the first block the payout contracts' ledgers read (below the first contract's deployment), CHAIN=BLOCK,…; absent: block 0", str(&c.LedgerFrom)),
		f("CASHIER_PAYOUT_MIN_GAS", "payout-min-gas", "executor coin balance below which payouts wait, CHAIN=AMOUNT,…", str(&c.PayoutMinGas)),
		f("CASHIER_GAS_POLICY", "gas-policy", "per network: fee (fixed fee, the operator pays gas) or fee+gas (the batch fee also carries the gas, in tokens), CHAIN=POLICY,…", str(&c.GasPolicy)),
		f("CASHIER_GAS_PRICE", "gas-price", "fee+gas: token units per coin, CHAIN=PRICE or CHAIN=feed:ADDRESS (Chainlink AggregatorV3), …", str(&c.GasPrice)),
		f("CASHIER_PAYOUT_GAS_CAP", "payout-gas-cap", "most gas (TRON: energy) of one payout call, BASE+PER_RECIPIENT", str(&c.PayoutGasCap)),
		f("CASHIER_SWEEP_MIN", "sweep-min", "smallest batch, in whole tokens, worth a sweep into the payout contract", str(&c.SweepMin)),
		f("CASHIER_SWEEP_INTERVAL", "sweep-interval", "pause between sweep rounds (0: no sweeping)", dur(&c.SweepInterval)),
		f("CASHIER_MAX_INFLIGHT", "max-inflight", "API requests held at once (a memory bound; max-wait bounds the wait); beyond it requests get 503 with Retry-After", num(&c.MaxInFlight)),
		f("CASHIER_WRITE_QUEUE", "write-queue", "writes waiting for the database writer; beyond it API requests get 503 with Retry-After", num(&c.WriteQueue)),
		f("CASHIER_CACHE_TTL", "cache-ttl", "how long a cached merchant, cashier or contract is trusted before it is read again (0: no cache)", dur(&c.CacheTTL)),
		f("CASHIER_PPROF_ADDR", "pprof-addr", "listen address of the profiling endpoint (net/http/pprof), a separate listener; empty: off", str(&c.PprofAddr)),
		f("CASHIER_WATCH_NATIVE", "watch-native", "chain watchers also record native coin (ETH, TRX) sent to deposit addresses: on or off", str(&c.WatchNative)),
		f("CASHIER_DASHBOARD_SECURE_COOKIE", "dashboard-secure-cookie", "dashboard cookies Secure: auto (all but sandbox mode), true or false", str(&c.DashboardSecureCookie)),
		f("CASHIER_DASHBOARD_PASSWORD_CHECKS", "dashboard-password-checks", "dashboard sign-in password checks (64 MiB each) run at once; more sign-ins get 503 with Retry-After (0: automatic, leaving a CPU free)", num(&c.DashboardPasswordChecks)),
		f("CASHIER_DATABASE_URL", "database-url", "PostgreSQL database (postgres://user:pass@host:port/db); empty: SQLite in the data directory", str(&c.DatabaseURL)),
		f("CASHIER_LEASE_TTL", "lease-ttl", "how long an instance holds one-owner work (watchers, payouts, sweeps, expiry) without renewing; renewed every third of it", dur(&c.LeaseTTL)),
		f("CASHIER_METRICS_ADDR", "metrics-addr", "listen address of Prometheus /metrics (and /healthz, /readyz), a separate listener; empty: off", str(&c.MetricsAddr)),
		f("CASHIER_MAX_WAIT", "max-wait", "wait an API write may meet: a write that would wait longer (writes ahead × the time one takes at capacity, or for the database writer) gets 503 with a Retry-After after which the same request is served (0: only max-inflight and write-queue)", dur(&c.MaxWait)),
		f("CASHIER_KEY_GRACE", "key-grace", "how long a merchant's previous API key and secret keep working after a rotation (0: they stop at once; revoking the old key ends it early)", dur(&c.KeyGrace)),
		f("CASHIER_SIGNER_CLEF", "signer-clef", "Clef (IPC path or http URL) that signs the payout batches of merchant signers it holds (cashier key import --clef-account); EVM networks", str(&c.SignerClef)),
		f("CASHIER_EXECUTOR_CLEF", "executor-clef", "the executor's transactions signed by Clef instead of a sealed key, CHAIN=ENDPOINT,… (one Clef per chain id; EVM networks)", str(&c.ExecutorClef)),
		f("CASHIER_EXECUTOR_CLEF_ACCOUNT", "executor-clef-account", "the executor's account in each network's Clef, CHAIN=ADDRESS,…", str(&c.ExecutorClefAccount)),
		f("CASHIER_MAX_CPU_WAIT", "max-cpu-wait", "while new API requests arrive faster than the service serves them (an open-loop overload: more than it serves, holds and drains within --max-wait over the last 250 ms), every API request is refused at once while its goroutines wait longer than this for a CPU (90th percentile), and a new write is admitted only while the wait ahead of it is within this (0: off)", dur(&c.MaxCPUWait)),
	}...)
}
