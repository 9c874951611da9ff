package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// Writer builds the outbox events of order status changes; it implements
// orders.EventWriter.
type Writer struct {
	// Registry supplies network display names; nil uses the built-in
	// names (TRON, Ethereum, Arbitrum).
	Registry *cashier.Registry
	// Strings sends every value as a JSON string and the string ids in id,
	// cashierId and contractId (the earlier body form). The default sends
	// the provider's documented types: numbers for ids, orderType, type and
	// times.
	Strings bool
	// Numbers reads the numeric identity of an order, cashier or contract
	// whose struct does not carry it (orders read back carry none; cashiers
	// and contracts read back do).
	// nil: such numbers are sent as null.
	Numbers Numbers
	// Scheme is the Signature-V2 scheme the bodies will be signed with.
	// Under sign.WebhookSorted '%', '&' and '=' in string values are
	// percent-encoded, so no value can re-split the sorted key=value text
	// into a different body.
	Scheme sign.WebhookScheme
}

// NewWriter returns a Writer that names networks from reg (which may be nil).
func NewWriter(reg *cashier.Registry) *Writer { return &Writer{Registry: reg} }

// Order types carried in the payment body's orderType field. The provider
// documents 1 (wallet-connect contract payment), 2 (QR scan) and 3 (direct
// transfer to the contract address); every order of this service is paid
// by a plain transfer to its deposit contract address, so typed bodies say
// 3. All-strings bodies keep the earlier "collection".
const (
	orderTypeCollection = "collection"
	orderTypeTransfer   = 3
)

// ChainAlertReorged is the payment body's chainAlert on an order flagged
// after a reorg deeper than the confirmations (docs/webhooks.md).
const ChainAlertReorged = "REORGED"

// EventTest is the Service-Event value of a test event sent by an operator.
const EventTest cashier.EventType = "test"

// NewEventID returns a fresh event id: "evt_" and 24 hex digits, the
// first 12 the time in milliseconds and the rest 48 random bits. Ids made
// together sort together, so the events' id index and the delivery log's
// event index take each new event on their newest pages instead of on a
// random page each: a commit writes fewer pages. Still unique and not to
// be guessed (48 random bits within a millisecond).
func NewEventID() string { return newEventID(time.Now()) }

func newEventID(now time.Time) string {
	var b [12]byte
	ms := uint64(now.UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	if _, err := rand.Read(b[6:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return "evt_" + hex.EncodeToString(b[:])
}

// CollectionEvent returns the payment event for o's current status, or nil
// when the cashier has no webhook URL (there is nowhere to deliver it).
func (w *Writer) CollectionEvent(o *cashier.CollectionOrder, c *cashier.Cashier, at time.Time) (*cashier.Event, error) {
	if c == nil || c.WebhookURL == "" {
		return nil, nil
	}
	id, b := w.statusBody(cashier.EventPayment, string(o.Status))
	b.add("custNo", o.CustNo)
	b.add("orderNo", o.OrderNo)
	b.id("id", o.ID, w.num("collection_orders", o.ID, o.Num))
	b.add("orderId", o.ID)
	b.id("cashierId", o.CashierID, w.num("cashiers", o.CashierID, c.Num))
	b.add("symbol", o.Symbol)
	b.add("amount", cashier.FormatAmount(o.Amount, o.Decimals))
	b.add("paidAmount", cashier.FormatAmount(o.PaidAmount, o.Decimals))
	b.add("status", string(o.Status))
	if o.BrowserCreated() {
		// Orders the widget SDK created from a browser: the merchant's
		// receiver should check the amount (docs/checkout.md).
		// Bodies of API orders stay as they were.
		b.add("createdBy", "browser")
		b.add("origin", o.Origin)
	}
	b.add("txId", o.TxID)
	b.add("txHash", o.TxID)
	b.add("fromAddress", o.FromAddress)
	b.add("network", w.networkName(o.Chain))
	b.add("chainId", o.Chain.ConfigID())
	b.id("orderType", orderTypeCollection, orderTypeTransfer)
	b.time("blockTime", eventTime(blockTime(o.TxID, o.PayTime), o.UpdatedAt))
	b.time("createTime", o.CreatedAt)
	b.time("updateTime", o.UpdatedAt)
	if !o.ReorgedAt.IsZero() {
		// Only on flagged orders, so every other body stays as it was: a
		// payment the order counted went missing in a reorg deeper than
		// the confirmations; status and paidAmount are not reversed.
		b.add("chainAlert", ChainAlertReorged)
	}
	return &cashier.Event{
		ID:         id,
		MerchantID: o.MerchantID,
		Type:       cashier.EventPayment,
		OrderID:    o.ID,
		OrderNo:    o.OrderNo,
		Status:     string(o.Status),
		URL:        c.WebhookURL,
		Body:       b.bytes(),
		CreatedAt:  at,
	}, nil
}

// PayoutEvent returns the payout event for o's current status, sent to
// webhookURL, or nil when webhookURL is empty.
func (w *Writer) PayoutEvent(o *cashier.PayoutOrder, k *cashier.Contract, webhookURL string, at time.Time) (*cashier.Event, error) {
	if webhookURL == "" {
		return nil, nil
	}
	var contractNum int64
	if k != nil {
		contractNum = k.Num
	}
	contractNum = w.num("contracts", o.ContractID, contractNum)
	id, b := w.statusBody(cashier.EventPayout, string(o.Status))
	// The merchant's own customer number from the payout's creation, always
	// present as the provider's payout body has it: an empty string when
	// none was given, never an id the merchant did not give.
	b.add("custNo", o.CustNo)
	b.add("orderNo", o.OrderNo)
	b.id("id", o.ID, w.num("payout_orders", o.ID, o.Num))
	b.add("bizOrderNo", o.OrderNo)
	b.add("orderId", o.ID)
	b.id("contractId", o.ContractID, contractNum)
	b.add("amount", cashier.FormatAmount(o.Amount, o.Decimals))
	b.add("fee", cashier.FormatAmount(o.Fee, o.Decimals))
	b.add("gasAmount", o.GasAmount)
	b.add("toAddress", o.Recipient)
	b.add("fromAddress", cashier.PayoutSource(o, k))
	b.add("network", w.networkName(o.Chain))
	b.add("chainId", o.Chain.ConfigID())
	b.add("symbol", o.Symbol)
	b.add("txId", o.TxID)
	b.add("txHash", o.TxID)
	b.id("type", strconv.Itoa(int(o.PayoutType)), int64(o.PayoutType))
	b.add("status", string(o.Status))
	b.time("createTime", o.CreatedAt)
	b.time("updateTime", o.UpdatedAt)
	bt := o.BlockTime // the paying block's time, when its execution settles
	if bt.IsZero() {
		bt = blockTime(o.TxID, o.UpdatedAt)
	}
	b.time("blockTime", eventTime(bt, o.UpdatedAt))
	b.add("failReason", o.FailReason) // why a REFUSE was refused (review or chain); empty otherwise
	b.add("reason", o.FailReason)     // the same, under the name the provider's receivers read
	return &cashier.Event{
		ID:         id,
		MerchantID: o.MerchantID,
		Type:       cashier.EventPayout,
		OrderID:    o.ID,
		OrderNo:    o.OrderNo,
		Status:     string(o.Status),
		URL:        webhookURL,
		Body:       b.bytes(),
		CreatedAt:  at,
	}, nil
}

// RefundEvent returns the refund event for f's current status, sent to
// the webhook URL of c, the cashier that took the refunded order, or nil
// when it has none. The refund's own payout order sends no payout event.
func (w *Writer) RefundEvent(f *cashier.Refund, c *cashier.Cashier, at time.Time) (*cashier.Event, error) {
	if c == nil || c.WebhookURL == "" {
		return nil, nil
	}
	id, b := w.statusBody(cashier.EventRefund, string(f.Status))
	b.add("refundNo", f.RefundNo)
	b.add("refundId", f.ID)
	b.add("orderNo", f.OrderNo)
	b.add("orderId", f.OrderID)
	b.add("amount", cashier.FormatAmount(f.Amount, f.Decimals))
	b.add("fee", cashier.FormatAmount(f.Fee, f.Decimals))
	b.add("symbol", f.Symbol)
	b.add("network", w.networkName(f.Chain))
	b.add("chainId", f.Chain.ConfigID())
	b.add("toAddress", f.Address)
	b.add("status", string(f.Status))
	b.add("txId", f.TxID)
	b.add("txHash", f.TxID)
	b.add("failReason", f.FailReason)
	b.add("reason", f.Reason)
	b.time("createTime", f.CreatedAt)
	b.time("updateTime", f.UpdatedAt)
	b.time("blockTime", f.SentAt)
	return &cashier.Event{
		ID:         id,
		MerchantID: f.MerchantID,
		Type:       cashier.EventRefund,
		// Events of one refund are delivered in order, apart from the
		// order's own payment events.
		OrderID:   f.ID,
		OrderNo:   f.RefundNo,
		Status:    string(f.Status),
		URL:       c.WebhookURL,
		Body:      b.bytes(),
		CreatedAt: at,
	}, nil
}

// testBody is the body of an operator's test event.
func (w *Writer) testBody(id, merchantID string, at time.Time) []byte {
	b := w.eventBody(id, EventTest, string(EventTest))
	b.add("custNo", merchantID)
	b.add("orderNo", "")
	b.add("status", "TEST")
	b.time("createTime", at)
	return b.bytes()
}

// Numbers is what sqlite.DB provides: the committed numeric identity of a
// row of cashiers, contracts, collection_orders or payout_orders.
type Numbers interface {
	NumericID(ctx context.Context, table, id string) (int64, error)
}

// num is known when the struct carries it (it was created in this
// transaction); otherwise the row is committed and Numbers reads it. A
// failed read leaves null in the body rather than failing the status
// change the event belongs to.
func (w *Writer) num(table, id string, known int64) int64 {
	if known != 0 || w.Numbers == nil || w.Strings || id == "" {
		return known
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := w.Numbers.NumericID(ctx, table, id)
	if err != nil {
		return 0
	}
	return n
}

func (w *Writer) body() *body {
	return &body{typed: !w.Strings, escape: w.Scheme == sign.WebhookSorted}
}

// eventBody begins the body of the event id: its eventId, event and
// eventType, the fields every body opens with.
func (w *Writer) eventBody(id string, event cashier.EventType, eventType string) *body {
	b := w.body()
	b.add("eventId", id)
	b.add("event", string(event))
	b.add("eventType", eventType)
	return b
}

// statusBody begins the body of a status change of event's kind under a
// fresh event id, its eventType "kind.status".
func (w *Writer) statusBody(event cashier.EventType, status string) (id string, b *body) {
	id = NewEventID()
	return id, w.eventBody(id, event, eventType(event, status))
}

// eventType is the body's eventType: "payment.success", "payout.refuse".
func eventType(t cashier.EventType, status string) string {
	return string(t) + "." + strings.ToLower(status)
}

func (w *Writer) networkName(c cashier.Chain) string {
	if w.Registry != nil {
		if n, ok := w.Registry.Network(c); ok && n.NetworkName != "" {
			return n.NetworkName
		}
	}
	return c.DisplayName()
}

// ms renders t as Unix milliseconds; the zero time is "".
func ms(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.UnixMilli(), 10)
}

// blockTime is when the service recorded the order's transaction (the
// update that set txId), for an order that carries no block header time.
func blockTime(txID string, updated time.Time) time.Time {
	if txID == "" {
		return time.Time{}
	}
	return updated
}

// eventTime is the blockTime of an event: the block's time when the
// order has a transaction, else the time of the status change, so the
// field is always the Long the provider documents (its receivers call
// new Date(blockTime)).
func eventTime(block, changed time.Time) time.Time {
	if block.IsZero() {
		return changed
	}
	return block
}

// body is a flat JSON object of string fields in insertion order. It is
// encoded by hand so the bytes equal what JavaScript's JSON.stringify
// produces for the parsed object: receivers that re-serialize the payload
// before computing the plain signature then get the same text. (Go's
// encoding/json escapes U+2028, U+2029 and, by default, <, > and &.)
//
// A typed body writes ids, codes and times as JSON numbers (null when
// absent); an all-strings body writes their text. escape percent-encodes
// '%', '&' and '=' in string values (sorted Signature-V2 scheme).
type body struct {
	buf    []byte
	typed  bool
	escape bool
}

var sortedEscaper = strings.NewReplacer("%", "%25", "&", "%26", "=", "%3D")

func (b *body) key(key string) {
	if len(b.buf) == 0 {
		b.buf = append(b.buf, '{')
	} else {
		b.buf = append(b.buf, ',')
	}
	b.buf = appendString(b.buf, key)
	b.buf = append(b.buf, ':')
}

// add writes a string field.
func (b *body) add(key, value string) {
	b.key(key)
	if b.escape {
		value = sortedEscaper.Replace(value)
	}
	b.buf = appendString(b.buf, value)
}

// id writes a field the provider types as a number: num in typed bodies
// (null when 0, i.e. unknown), text in all-strings bodies.
func (b *body) id(key, text string, num int64) {
	if !b.typed {
		b.add(key, text)
		return
	}
	b.key(key)
	if num == 0 {
		b.buf = append(b.buf, "null"...)
		return
	}
	b.buf = strconv.AppendInt(b.buf, num, 10)
}

// time writes Unix milliseconds: a number (null for the zero time) in typed
// bodies, its text ("" for the zero time) in all-strings bodies.
func (b *body) time(key string, t time.Time) {
	if !b.typed {
		b.add(key, ms(t))
		return
	}
	b.key(key)
	if t.IsZero() {
		b.buf = append(b.buf, "null"...)
		return
	}
	b.buf = strconv.AppendInt(b.buf, t.UnixMilli(), 10)
}

func (b *body) bytes() []byte {
	if len(b.buf) == 0 {
		return []byte("{}")
	}
	return append(b.buf, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string literal with the escapes
// JSON.stringify uses; invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}
