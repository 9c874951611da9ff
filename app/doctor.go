package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/webhook"
)

// The preflight (`cashier doctor`): what an operator gets wrong before the
// first real payment, each checked apart and reported with its fix.

// Check is one preflight verdict.
type Check struct {
	Status string // ok, warn or fail
	Name   string
	Detail string
	Fix    string // what to do; empty for ok
}

// Check statuses.
const (
	CheckOK   = "ok"
	CheckWarn = "warn"
	CheckFail = "fail"
)

// BackupFile, in the data directory, records the last `cashier backup`.
const BackupFile = "last-backup.json"

// Backup is what BackupFile holds.
type Backup struct {
	At  time.Time `json:"at"`
	Out string    `json:"out"`
}

// RecordBackup notes a finished backup for the preflight's age check.
func RecordBackup(data, out string, at time.Time) error {
	b, err := json.Marshal(Backup{At: at.UTC(), Out: out})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(data, BackupFile), b, 0o600)
}

// Doctor limits: a head older than headStale (or than twenty of the
// network's blocks, whichever is more) is stale; a node's head time
// ahead of this clock by more than clockAhead means this clock is behind;
// a backup older than backupAge is old.
const (
	headStale  = 2 * time.Minute
	clockAhead = 30 * time.Second
	backupAge  = 26 * time.Hour
)

// Doctor runs every check on cfg's data directory with reg's networks
// (nil: the configured registry) and chains (nil: dialled from cfg).
func Doctor(ctx context.Context, cfg config.Config, reg *cashier.Registry, chains map[cashier.Chain]cashier.ChainClient, now time.Time) []Check {
	var out []Check
	add := func(status, name, detail, fix string) {
		out = append(out, Check{Status: status, Name: name, Detail: detail, Fix: fix})
	}
	production := cfg.Mode != "sandbox"

	// The master key.
	if cfg.MasterKey != "" {
		add(CheckOK, "master key", "from CASHIER_MASTER_KEY", "")
	} else {
		path := filepath.Join(cfg.Data, "master.key")
		switch fi, err := os.Stat(path); {
		case err != nil:
			add(CheckFail, "master key", err.Error(), "restore master.key from its backup, or set CASHIER_MASTER_KEY")
			// Opening the store now would make a new key: a database
			// whose secrets nothing can open.
			if HasDatabase(cfg) {
				add(CheckFail, "database", "not opened without its master key", "restore master.key first")
			}
			return out
		case fi.Mode().Perm()&0o077 != 0:
			add(CheckFail, "master key", fmt.Sprintf("%s is readable by others (%v)", path, fi.Mode().Perm()), "chmod 600 "+path+" (and keep it owned by the service's user)")
		default:
			add(CheckOK, "master key", fmt.Sprintf("%s, mode %v", path, fi.Mode().Perm()), "")
		}
	}

	// Database and migrations.
	if !HasDatabase(cfg) {
		add(CheckFail, "database", fmt.Sprintf("no database in %q", cfg.Data), "check --data, or create one with `cashier init --data "+cfg.Data+"`")
		return out
	}
	store, err := OpenStore(ctx, cfg)
	if err != nil {
		add(CheckFail, "database", err.Error(), "check --database-url and the master key the database was created with")
		return out
	}
	defer store.Close()
	if _, err := store.ListLeases(ctx); err != nil {
		add(CheckFail, "database", "opened but not readable: "+err.Error(), "check the database server and its permissions")
	} else if cfg.DatabaseURL != "" {
		add(CheckOK, "database", "PostgreSQL reachable, migrations applied", "")
	} else {
		add(CheckOK, "database", "SQLite "+filepath.Join(cfg.Data, DBFile)+", migrations applied", "")
	}

	// Networks and their nodes.
	if reg == nil {
		if reg, err = config.LoadRegistry(cfg.Registry); err != nil {
			add(CheckFail, "registry", err.Error(), "fix the --registry file")
			return out
		}
	}
	if chains == nil {
		if chains, err = DialChains(ctx, cfg, reg, cashier.SystemClock{}); err != nil {
			add(CheckFail, "networks", err.Error(), "fix the node URL settings")
			chains = map[cashier.Chain]cashier.ChainClient{}
		}
	}
	active := 0
	var noNode []int // indexes in out of the networks without a node
	var skewChecked bool
	for _, n := range reg.Networks {
		name := "network " + string(n.Chain)
		cl := chains[n.Chain]
		if cl == nil {
			// A failure when nothing else is watched; beside a watched
			// network, a choice (reported, not failing).
			noNode = append(noNode, len(out))
			add(CheckFail, name, "no node URL is configured: the network is not active and its orders and payouts are refused",
				"set its node URL setting (docs/operations.md), or leave it off on purpose")
			continue
		}
		if nc, ok := cl.(nodeChecker); ok {
			wrong, down := 0, 0
			res := nc.CheckNodes(ctx)
			for _, r := range res {
				switch {
				case r.Err == nil:
					add(CheckOK, name+" node "+r.URL, "serves the network's chain", "")
				case strings.Contains(r.Err.Error(), "another chain"):
					wrong++
					add(CheckFail, name+" node "+r.URL, r.Err.Error(), "point the URL at a node of "+n.NetworkName)
				default:
					down++
					add(CheckWarn, name+" node "+r.URL, "unreachable: "+r.Err.Error(), "check the URL, its API key and the provider's limits")
				}
			}
			if len(res) > 0 && wrong == len(res) {
				add(CheckFail, name, "every node URL serves another chain: the network is not active", "point its node URLs at "+n.NetworkName)
				continue
			}
			if len(res) > 0 && wrong+down == len(res) {
				add(CheckFail, name, "no node answers", "start or fix a node of "+n.NetworkName)
				continue
			}
		}
		active++
		hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		head, err := cl.Head(hctx)
		cancel()
		if err != nil {
			add(CheckFail, name+" head", err.Error(), "check the node")
			continue
		}
		stale := max(headStale, 20*time.Duration(n.AvgBlockTime)*time.Second)
		age := now.Sub(head.Time)
		switch {
		case head.Time.IsZero():
			add(CheckWarn, name+" head", fmt.Sprintf("block %d has no time", head.Number), "")
		case age > stale:
			add(CheckWarn, name+" head", fmt.Sprintf("block %d is %s old", head.Number, age.Round(time.Second)),
				"the node may be syncing or stuck: payments are seen late (a quiet dev chain makes blocks only on demand)")
		default:
			add(CheckOK, name+" head", fmt.Sprintf("block %d, %s old", head.Number, max(age, 0).Round(time.Second)), "")
		}
		if !skewChecked && !head.Time.IsZero() {
			skewChecked = true
			if ahead := head.Time.Sub(now); ahead > clockAhead {
				add(CheckFail, "clock", fmt.Sprintf("this clock is %s behind %s's head time", ahead.Round(time.Second), n.Chain),
					"synchronise the clock (NTP): signed requests and expiries use it")
			} else {
				add(CheckOK, "clock", fmt.Sprintf("within %s of %s's head time", clockAhead, n.Chain), "")
			}
		}
		if cfg.Finalized(n.Chain) {
			f, ok := cl.(interface {
				Finalized(context.Context) (cashier.BlockRef, error)
			})
			if !ok {
				add(CheckFail, name+" finalized", "finality is set to finalized but the client has no finalized block", "set its finality to confirmations")
			} else if b, err := f.Finalized(ctx); err != nil {
				add(CheckFail, name+" finalized", "the node does not answer the finalized block: "+err.Error(), "use a node that supports the finalized tag, or set its finality to confirmations")
			} else {
				add(CheckOK, name+" finalized", fmt.Sprintf("block %d", b.Number), "")
			}
		}
	}
	if active > 0 {
		for _, i := range noNode {
			out[i].Status = CheckWarn
		}
	}
	if active == 0 {
		add(CheckFail, "networks", "no network can be watched: /readyz answers 503", "configure a node for at least one network")
	}

	// Keys: where each lives, and the executor's and sweeper's coin.
	out = append(out, doctorKeys(ctx, cfg, store, reg, chains)...)

	// Webhook URLs.
	out = append(out, doctorWebhooks(ctx, store, !production)...)

	// Public URL and the proxy.
	switch u, err := url.Parse(cfg.PublicURL); {
	case cfg.PublicURL == "" && production:
		add(CheckWarn, "public url", "not set: payment links use each request's Host header", "set --public-url https://pay.example.com")
	case cfg.PublicURL == "":
		add(CheckOK, "public url", "not set (sandbox): payment links use each request's host", "")
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		add(CheckFail, "public url", fmt.Sprintf("%q is not an absolute http(s) URL", cfg.PublicURL), "set --public-url https://pay.example.com")
	case production && u.Scheme != "https":
		add(CheckFail, "public url", cfg.PublicURL+" is not https: customers' wallets and browsers meet payment links over plain http", "serve behind TLS and set --public-url https://…")
	default:
		add(CheckOK, "public url", cfg.PublicURL, "")
	}
	if production {
		if strings.TrimSpace(cfg.TrustedProxies) == "" {
			add(CheckWarn, "proxy", "no --trusted-proxies: behind a reverse proxy every client has the proxy's address (one rate limit for all)",
				"set --trusted-proxies to the proxy's CIDR; the proxy must set X-Forwarded-For (and X-Forwarded-Proto https)")
		} else if _, err := HTTPConfig(cfg); err != nil {
			add(CheckFail, "proxy", err.Error(), "fix --trusted-proxies (comma-separated CIDRs)")
		} else {
			add(CheckOK, "proxy", "X-Forwarded-For believed from "+cfg.TrustedProxies, "")
		}
	}

	// The last backup.
	switch {
	case cfg.DatabaseURL != "":
		add(CheckWarn, "backup", "PostgreSQL: backups are the database's own (not seen from here)", "check pg_basebackup / WAL archiving, and back up the master key apart")
	default:
		var b Backup
		raw, err := os.ReadFile(filepath.Join(cfg.Data, BackupFile))
		if err == nil {
			err = json.Unmarshal(raw, &b)
		}
		switch age := now.Sub(b.At); {
		case err != nil && production:
			add(CheckWarn, "backup", "no backup made with `cashier backup` on record", "cashier backup --data "+cfg.Data+" --out FILE, daily (docs/operations.md)")
		case err != nil:
			add(CheckOK, "backup", "none (sandbox)", "")
		case age > backupAge:
			add(CheckWarn, "backup", fmt.Sprintf("the last backup (%s) is %s old", b.Out, age.Round(time.Minute)), "back up daily: cashier backup --data "+cfg.Data+" --out FILE")
		default:
			add(CheckOK, "backup", fmt.Sprintf("%s, %s old", b.Out, age.Round(time.Second)), "")
		}
	}
	return out
}

// doctorKeys reports where each network's service keys live and whether
// the executor and sweeper can pay for gas.
func doctorKeys(ctx context.Context, cfg config.Config, store cashier.Store, reg *cashier.Registry, chains map[cashier.Chain]cashier.ChainClient) []Check {
	var out []Check
	add := func(status, name, detail, fix string) {
		out = append(out, Check{Status: status, Name: name, Detail: detail, Fix: fix})
	}
	setting, err := ParseServiceKeys(cfg.ServiceKeys)
	if err != nil {
		return []Check{{CheckFail, "keys", err.Error(), "fix CASHIER_SERVICE_KEYS"}}
	}
	execClef, err := ParseExecutorClef(cfg.ExecutorClef, cfg.ExecutorClefAccount)
	if err != nil {
		return []Check{{CheckFail, "keys", err.Error(), "fix --executor-clef and --executor-clef-account"}}
	}
	minGas, err := parseMinGas(cfg.PayoutMinGas, reg)
	if err != nil {
		add(CheckFail, "keys", err.Error(), "fix --payout-min-gas")
	}
	gasBase, gasPer, gasErr := ParseGasCap(cfg.PayoutGasCap)
	keys := ServiceKeys{Store: store, Setting: setting}
	for _, n := range reg.Networks {
		cl := chains[n.Chain]
		if cl == nil {
			continue // reported with the network
		}
		for _, role := range []cashier.KeyRole{cashier.KeyExecutor, cashier.KeySweeper} {
			name := fmt.Sprintf("%s %s", n.Chain, role)
			var addr, where string
			if c, ok := execClef[n.Chain]; ok && role == cashier.KeyExecutor {
				addr, where = c.Account.Hex(), "Clef at "+c.Endpoint
				s, err := dialClef(ctx, c.Endpoint, c.Account)
				if err == nil {
					var accts []common.Address
					if accts, err = s.Accounts(ctx); err == nil && !containsAddr(accts, c.Account) {
						err = fmt.Errorf("Clef does not hold %s", c.Account.Hex())
					}
					s.Close()
				}
				if err != nil {
					add(CheckFail, name+" key", "Clef at "+c.Endpoint+": "+err.Error(), "start Clef with the account unlocked for the service")
					continue
				}
			} else {
				k, err := keys.Key(ctx, n.Chain, role)
				switch {
				case cashier.ErrorCode(err) == cashier.ENotFound:
					fix := "cashier key generate --data " + cfg.Data + " --chain " + string(n.Chain) + " --role " + string(role)
					if role == cashier.KeyExecutor {
						add(CheckWarn, name+" key", "none: payouts on "+string(n.Chain)+" wait", fix)
					} else {
						add(CheckWarn, name+" key", "none: paid deposit addresses are not swept", fix)
					}
					continue
				case err != nil:
					add(CheckFail, name+" key", err.Error(), "check the master key and CASHIER_SERVICE_KEYS")
					continue
				}
				addr = KeyAddress(n.Chain, k)
				where = "sealed in the database"
				if setting[n.Chain][role] != nil {
					where = "CASHIER_SERVICE_KEYS (environment)"
				}
			}
			add(CheckOK, name+" key", addr+", "+where, "")
			nb, ok := cl.(interface {
				NativeBalance(context.Context, string) (*big.Int, error)
			})
			if !ok {
				continue
			}
			bal, err := nb.NativeBalance(ctx, addr)
			if err != nil {
				add(CheckWarn, name+" balance", err.Error(), "check the node")
				continue
			}
			have := cashier.FormatAmount(bal, n.Decimals) + " " + n.Symbol
			need := minGas[n.Chain]
			switch {
			case bal.Sign() == 0:
				add(CheckFail, name+" balance", "0 "+n.Symbol+": it cannot pay for gas", "send "+n.Symbol+" to "+addr)
			case need != nil && bal.Cmp(need) < 0:
				add(CheckFail, name+" balance", have+", below --payout-min-gas "+cashier.FormatAmount(need, n.Decimals), "send "+n.Symbol+" to "+addr)
			case need != nil:
				add(CheckOK, name+" balance", have+", at least --payout-min-gas "+cashier.FormatAmount(need, n.Decimals), "")
			case role == cashier.KeyExecutor && gasErr == nil:
				add(CheckWarn, name+" balance", fmt.Sprintf("%s; the gas of a full batch is up to %d gas × the gas price", have, gasBase+gasPer*uint64(max(cfg.PayoutBatchSize, 1))),
					"set --payout-min-gas "+string(n.Chain)+"=AMOUNT to the coin a full batch costs, so payouts wait rather than fail")
			default:
				add(CheckOK, name+" balance", have, "")
			}
		}
	}
	if cfg.SignerClef != "" {
		s, err := dialClef(ctx, cfg.SignerClef, common.Address{})
		if err == nil {
			_, err = s.Accounts(ctx)
			s.Close()
		}
		if err != nil {
			add(CheckFail, "signer clef", cfg.SignerClef+": "+err.Error(), "start the signers' Clef, or unset --signer-clef")
		} else {
			add(CheckOK, "signer clef", cfg.SignerClef+" answers", "")
		}
	}
	return out
}

func containsAddr(list []common.Address, a common.Address) bool {
	for _, b := range list {
		if b == a {
			return true
		}
	}
	return false
}

// doctorWebhooks checks every cashier's and payout contract's webhook URL:
// https in production, a name that resolves, no private address.
func doctorWebhooks(ctx context.Context, store cashier.Store, sandbox bool) []Check {
	var out []Check
	add := func(status, name, detail, fix string) {
		out = append(out, Check{Status: status, Name: name, Detail: detail, Fix: fix})
	}
	ms, ok := store.(interface {
		Merchants(context.Context) ([]cashier.Merchant, error)
	})
	if !ok {
		return nil
	}
	merchants, err := ms.Merchants(ctx)
	if err != nil {
		return []Check{{CheckFail, "webhooks", err.Error(), "check the database"}}
	}
	type target struct{ name, url string }
	var targets []target
	for _, m := range merchants {
		cs, err := store.CashiersByMerchant(ctx, m.ID)
		if err != nil {
			return append(out, Check{CheckFail, "webhooks", err.Error(), "check the database"})
		}
		for _, c := range cs {
			if c.WebhookURL != "" && c.Status == cashier.CashierActive {
				targets = append(targets, target{"cashier " + c.ID, c.WebhookURL})
			}
		}
		ks, err := store.ContractsByMerchant(ctx, m.ID)
		if err != nil {
			return append(out, Check{CheckFail, "webhooks", err.Error(), "check the database"})
		}
		for _, k := range ks {
			if k.WebhookURL != "" && k.Status == cashier.ContractActive {
				targets = append(targets, target{"contract " + k.ID, k.WebhookURL})
			}
		}
	}
	if len(targets) == 0 {
		add(CheckOK, "webhooks", "no webhook URL set", "")
	}
	for _, t := range targets {
		name := "webhook " + t.name
		if err := webhook.CheckURL(t.url, sandbox); err != nil {
			add(CheckFail, name, err.Error(), "set an https URL on a public host")
			continue
		}
		if sandbox {
			add(CheckOK, name, t.url, "")
			continue
		}
		u, _ := url.Parse(t.url)
		host := u.Hostname()
		if _, err := netip.ParseAddr(host); err == nil {
			add(CheckOK, name, t.url, "")
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		addrs, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
		cancel()
		if err != nil {
			add(CheckFail, name, fmt.Sprintf("%s does not resolve: %v", host, err), "fix the URL or its DNS")
			continue
		}
		var private []string
		for _, a := range addrs {
			if webhook.CheckURL("https://"+netip.AddrPortFrom(a, 443).String()+"/", false) != nil {
				private = append(private, a.String())
			}
		}
		if len(private) > 0 {
			add(CheckFail, name, fmt.Sprintf("%s resolves to an address that is not public (%s): deliveries are refused", host, strings.Join(private, ", ")),
				"use a public host for the receiver")
			continue
		}
		add(CheckOK, name, t.url, "")
	}
	return out
}

// ErrChecksFailed is returned when a preflight check failed.
var ErrChecksFailed = errors.New("checks failed")
