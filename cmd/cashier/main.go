// Command cashier runs the stablecoin cashier and payout service and
// provisions merchants. See docs/operations.md for the commands and settings.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp): // -h: the flag package printed the usage
	case err != nil:
		fmt.Fprintln(os.Stderr, "cashier:", err) // the only place an error is printed
		os.Exit(1)
	}
}

const usage = `usage: cashier COMMAND [flags]

commands:
  init                  create a data directory's database and master key: --data DIR [--database-url URL]
  serve                 run the service on an initialised data directory (flags: cashier serve -h)
  doctor                check a data directory before real payments, with serve's settings: --data DIR
                        (one line per check: ok / warn / fail with the fix; exits non-zero on a fail)
  sandbox               run the service with in-process dev chains and demo data
                        (--only chains|service runs one half: cashier sandbox -h)
  sandbox pay           pay a sandbox collection order from the demo customer wallet:
                        --data DIR --order ORDER_NO [--amount X] [--symbol S] [--merchant ID]
  merchant create       create a merchant: --data DIR --name NAME
  merchant rotate-keys  issue new API, secret and webhook keys: --data DIR --merchant ID
                        (the old API key and secret keep working for --key-grace, default 24h)
  merchant revoke-old-key  end the old API key's grace now: --data DIR --merchant ID
  cashier create        create a cashier: --data DIR --merchant ID [--webhook-url URL] [--name NAME]
  cashier update        set the origins allowed to create orders from the browser (widget SDK):
                        --data DIR --id CASHIER_ID --allowed-origins https://shop.example[,…]
  contract create       register a payout contract: --data DIR --merchant ID --chain TRON|ETH|ARB --address ADDR
  contract update       change a contract's webhook URL: --data DIR --id ID --webhook-url URL
  contract disable      stop payouts through a contract: --data DIR --id ID
  contract enable       resume payouts through a disabled contract: --data DIR --id ID
  contract check        prove a registration on chain again and record its signer: --data DIR --id ID
  contract confirm      let the service signer sign a registration made before ownership proofs, after auditing it: --data DIR --id ID
  contract deploy       deploy a merchant's payout contract and deposit factory, then register them:
                        --data DIR --chain ETH|ARB --merchant ID --owner ADDR [--rpc URL] [--key-file F]
                        [--fee-address ADDR] [--webhook-url URL] [--dry-run] [--wait DURATION]
  payout list           list payouts: --data DIR [--status S] [--merchant ID] [--chain C]
  payout approve        release payouts held for review: --data DIR --id ORDER_ID [--id ORDER_ID ...]
  payout refuse         refuse a pending payout: --data DIR --id ORDER_ID --reason TEXT
  payout policy         set a merchant's review rule: --data DIR --merchant ID --mode default|always|never|above [--above AMOUNT]
  key generate          create a sealed service key: --data DIR --chain C --role signer|executor|sweeper
  key import            store a service key: --data DIR --chain C --role R --key-file PATH
                        (--merchant ID --role signer: the merchant's own signer)
  key list              show the service keys' addresses: --data DIR [--merchant ID: its signers too]
  key signer            show (creating on first use) a merchant's signer, the address its
                        contracts must name: --data DIR --merchant ID --chain C
  webhook log           show an event's delivery log: --data DIR --event ID
  webhook resend        deliver an event again: --data DIR --event ID
  webhook test          send a signed test event: --data DIR --cashier ID
  user create           create a dashboard user: --data DIR --email E (--merchant ID --role owner|developer|reviewer|viewer | --operator) [--password-stdin]
  user list             list dashboard users (no secrets): --data DIR [--merchant ID | --operator]
  user disable          stop a user signing in and end their sessions: --data DIR --email E
  user enable           let a disabled user sign in again: --data DIR --email E
  user reset-password   set a new password (printed once) and end the user's sessions: --data DIR --email E [--password-stdin]
  user reset-totp       remove the user's second factor (set up again at next sign-in) and end their sessions: --data DIR --email E
  user remove           delete a user and their sessions (not the last owner or operator): --data DIR --email E
  collection cancel     cancel a PENDING collection order: --data DIR --order ORDER_NO --merchant ID
  sweep list            sweeps of deposit addresses, failed ones with their reason: --data DIR [--chain C]
  sweep native          sweep ETH/TRX sent to deposit addresses into the merchants' vaults:
                        --data DIR --chain C [--address DEPOSIT] [--wait 2m]
  listen                forward a directory's webhook events, signed as real deliveries, as they
                        are created: --data DIR --forward-to URL [--merchant ID] (Ctrl-C stops)
  trigger               drive a sandbox order to an event: payment.success|payment.expired|
                        payout.success|refund.success --data DIR
  backup                copy the live SQLite database to a new file: --data DIR --out FILE
  version               the build: module version, commit, Go version
`

// run is the whole program with its outside world passed in, so tests can
// drive it as a black box within one process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command")
	}
	cmd, rest := args[0], args[1:]
	if (cmd == "merchant" || cmd == "cashier" || cmd == "contract" || cmd == "webhook" || cmd == "collection" || cmd == "payout" || cmd == "key" || cmd == "sweep" || cmd == "user") && len(rest) > 0 {
		cmd, rest = cmd+" "+rest[0], rest[1:]
	}
	switch cmd {
	case "init":
		return initCmd(ctx, rest, getenv, stdout, stderr)
	case "version":
		return versionCmd(rest, stdout, stderr)
	case "backup":
		return backupCmd(ctx, rest, getenv, stdout, stderr)
	case "serve":
		return serve(ctx, rest, getenv, stdout, stderr)
	case "doctor":
		return doctor(ctx, rest, getenv, stdout, stderr)
	case "sandbox":
		return sandboxCmd(ctx, rest, getenv, stdout, stderr)
	case "merchant create":
		return merchantCreate(ctx, rest, getenv, stdout, stderr)
	case "merchant rotate-keys", "merchant revoke-old-key":
		return merchantKeys(ctx, cmd, rest, getenv, stdout, stderr)
	case "cashier create":
		return cashierCreate(ctx, rest, getenv, stdout, stderr)
	case "cashier update":
		return cashierUpdate(ctx, rest, getenv, stdout, stderr)
	case "contract create":
		return contractCreate(ctx, rest, getenv, stdout, stderr)
	case "contract update", "contract disable", "contract enable":
		return contractChange(ctx, cmd, rest, getenv, stdout, stderr)
	case "payout list", "payout approve", "payout refuse", "payout policy":
		return payoutCmd(ctx, cmd, rest, getenv, stdout, stderr)
	case "contract check":
		return contractCheck(ctx, rest, getenv, stdout, stderr)
	case "contract confirm":
		return contractConfirm(ctx, rest, getenv, stdout, stderr)
	case "contract deploy":
		return contractDeploy(ctx, rest, getenv, stdout, stderr)
	case "key generate", "key import", "key list", "key signer":
		return keyCmd(ctx, cmd, rest, getenv, stdout, stderr)
	case "webhook log", "webhook resend", "webhook test":
		return webhookCmd(ctx, cmd, rest, getenv, stdout, stderr)
	case "sweep list":
		return sweepList(ctx, rest, getenv, stdout, stderr)
	case "sweep native":
		return sweepNative(ctx, rest, getenv, stdout, stderr)
	case "user create":
		return userCreate(ctx, rest, getenv, stdout, stderr)
	case "user list":
		return userList(ctx, rest, getenv, stdout, stderr)
	case "user disable", "user enable", "user reset-password", "user reset-totp", "user remove":
		return userChange(ctx, cmd, rest, getenv, stdout, stderr)
	case "collection cancel":
		return collectionCancel(ctx, rest, getenv, stdout, stderr)
	case "listen":
		return listenCmd(ctx, rest, getenv, stdout, stderr)
	case "trigger":
		return triggerCmd(ctx, rest, getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
