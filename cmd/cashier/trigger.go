package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/sqlite"
)

// triggerEvents are the events `cashier trigger` produces.
var triggerEvents = []string{"payment.success", "payment.expired", "payout.success", "refund.success"}

// triggerWait bounds how long trigger waits for each status.
const triggerWait = 2 * time.Minute

// triggerCmd creates a sandbox order (collection, payout or refund) through
// the merchant API and drives it to the named event, so a developer can
// exercise a receiver without paying by hand. The event goes out as every
// event does: to the cashier's webhook URL, and to `cashier listen`.
func triggerCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var event string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		event, args = args[0], args[1:]
	}
	var amount string
	st, cfg, err := provisionFlags(ctx, "trigger", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&amount, "amount", "10.00", "amount of the collection order (payouts and refunds send 1.00)")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	known := false
	for _, e := range triggerEvents {
		known = known || e == event
	}
	if !known {
		return fmt.Errorf("trigger: name the event: %s", strings.Join(triggerEvents, ", "))
	}
	info, err := sandbox.ReadInfo(filepath.Join(cfg.Data, sandbox.InfoFile))
	if err != nil {
		return fmt.Errorf("trigger: %w (trigger drives sandbox orders: is %s a sandbox's data directory?)", err, cfg.Data)
	}
	t := &trigger{ctx: ctx, st: st, info: info, stdout: stdout,
		api: client.New(info.BaseURL, info.APIKey, info.SecretKey, client.WithHeaderPrefix(cfg.HeaderPrefix))}
	orderNo := "TRIGGER-" + time.Now().UTC().Format("20060102-150405.000")
	orderNo = strings.ReplaceAll(orderNo, ".", "-")
	customer := info.Wallets["customer"].EVMAddress
	switch event {
	case "payment.success":
		return t.paid(orderNo, amount)
	case "payment.expired":
		c, err := t.create(orderNo, amount)
		if err != nil {
			return err
		}
		// The order's expiry is moved to now; the service's expiry worker
		// expires it as it would at the end of its lifetime.
		err = st.Update(ctx, func(tx cashier.Tx) error {
			o, err := tx.Collection(ctx, c.OrderID)
			if err != nil {
				return err
			}
			if o.Status != cashier.CollectionPending {
				return fmt.Errorf("order %s is %s", orderNo, o.Status)
			}
			o.ExpireAt = time.Now().Add(-time.Second)
			return tx.UpdateCollection(ctx, o)
		})
		if err != nil {
			return fmt.Errorf("trigger: moving the expiry: %w", err)
		}
		return t.wait("collection "+orderNo, "EXPIRED", func() (string, error) {
			c, err := t.api.CollectionDetail(ctx, orderNo)
			if err != nil {
				return "", err
			}
			return c.Status, nil
		})
	case "payout.success":
		p, err := t.api.CreatePayout(ctx, client.PayoutRequest{ContractID: info.ContractIDs["ETH"], OrderNo: orderNo,
			Recipient: customer, Amount: "1.00", Symbol: "USDT"})
		if err != nil {
			return fmt.Errorf("trigger: creating the payout: %w", err)
		}
		fmt.Fprintf(stdout, "payout %s created (%s)\n", orderNo, p.OrderID)
		return t.payout(cfg, orderNo)
	case "refund.success":
		if err := t.paid(orderNo, amount); err != nil {
			return err
		}
		refundNo := "RF-" + orderNo
		r, err := t.api.CreateRefund(ctx, client.RefundRequest{OrderNo: orderNo, RefundNo: refundNo, Amount: "1.00", Address: customer})
		if err != nil {
			return fmt.Errorf("trigger: creating the refund: %w", err)
		}
		fmt.Fprintf(stdout, "refund %s of %s created, paid by payout %s\n", refundNo, orderNo, r.PayoutOrderNo)
		if err := t.payout(cfg, r.PayoutOrderNo); err != nil {
			return err
		}
		return t.wait("refund "+refundNo, "SUCCESS", func() (string, error) {
			r, err := t.api.RefundDetail(ctx, refundNo)
			if err != nil {
				return "", err
			}
			return r.Status, nil
		})
	}
	return nil
}

type trigger struct {
	ctx    context.Context
	st     cashier.Store
	info   *sandbox.Info
	api    *client.Client
	stdout io.Writer
}

func (t *trigger) create(orderNo, amount string) (*client.Collection, error) {
	if _, err := t.api.CreateCollection(t.ctx, client.CollectionRequest{CashierID: t.info.CashierID, OrderNo: orderNo,
		Amount: amount, Symbol: "USDT", ChainID: "ETH"}); err != nil {
		return nil, fmt.Errorf("trigger: creating the order: %w", err)
	}
	c, err := t.api.CollectionDetail(t.ctx, orderNo)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(t.stdout, "collection %s created (%s %s on ETH)\n", orderNo, c.Amount, c.Symbol)
	return c, nil
}

// paid creates a collection order and pays it from the customer wallet.
func (t *trigger) paid(orderNo, amount string) error {
	if _, err := t.create(orderNo, amount); err != nil {
		return err
	}
	if _, err := sandbox.Pay(t.ctx, t.info, t.st, sandbox.PayRequest{OrderNo: orderNo}); err != nil {
		return fmt.Errorf("trigger: paying: %w", err)
	}
	return t.wait("collection "+orderNo, "SUCCESS", func() (string, error) {
		c, err := t.api.CollectionDetail(t.ctx, orderNo)
		if err != nil {
			return "", err
		}
		return c.Status, nil
	})
}

// payout releases a payout held for review (the sandbox reviews every
// payout) and waits for it to be sent.
func (t *trigger) payout(cfg config.Config, orderNo string) error {
	p, err := t.st.PayoutByOrderNo(t.ctx, t.info.MerchantID, orderNo)
	if err != nil {
		return err
	}
	if p.NeedsReview && p.Status == cashier.PayoutPending {
		reg, err := servedRegistry(cfg)
		if err != nil {
			return err
		}
		db, ok := t.st.(*sqlite.DB)
		if !ok {
			return errors.New("trigger: the payout needs review, which this store cannot do here")
		}
		svc, err := app.OperatorOrders(t.ctx, cfg, reg, db)
		if err != nil {
			return err
		}
		if _, err := svc.ApprovePayout(t.ctx, p.ID); err != nil {
			return fmt.Errorf("trigger: approving payout %s: %w", orderNo, err)
		}
		fmt.Fprintf(t.stdout, "payout %s approved\n", orderNo)
	}
	return t.wait("payout "+orderNo, "SUCCESS", func() (string, error) {
		p, err := t.api.PayoutDetail(t.ctx, orderNo)
		if err != nil {
			return "", err
		}
		return p.Status, nil
	})
}

// wait polls status until it is want.
func (t *trigger) wait(what, want string, status func() (string, error)) error {
	deadline := time.Now().Add(triggerWait)
	last := ""
	for {
		s, err := status()
		if err != nil {
			return err
		}
		if s != last {
			fmt.Fprintf(t.stdout, "%s: %s\n", what, s)
			last = s
		}
		if s == want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("trigger: %s is still %s after %s", what, s, triggerWait)
		}
		select {
		case <-t.ctx.Done():
			return t.ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
}
