package webhook

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stablecashier/cashier"
)

// Writer builds the outbox events of order status changes; it implements
// orders.EventWriter.
type Writer struct {
	// Registry supplies network display names; nil uses the built-in
	// names (TRON, Ethereum, Arbitrum).
	Registry *cashier.Registry
}

// NewWriter returns a Writer that names networks from reg (which may be nil).
func NewWriter(reg *cashier.Registry) *Writer { return &Writer{Registry: reg} }

// Order types carried in the payment body's orderType field.
const orderTypeCollection = "collection"

// EventTest is the Service-Event value of a test event sent by an operator.
const EventTest cashier.EventType = "test"

// NewEventID returns a fresh event id: "evt_" and 24 random hex digits.
func NewEventID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
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
	id := NewEventID()
	var b body
	b.add("eventId", id)
	b.add("eventType", eventType(cashier.EventPayment, string(o.Status)))
	b.add("custNo", o.CustNo)
	b.add("orderNo", o.OrderNo)
	b.add("id", o.ID)
	b.add("cashierId", o.CashierID)
	b.add("symbol", o.Symbol)
	b.add("amount", cashier.FormatAmount(o.Amount, o.Decimals))
	b.add("paidAmount", cashier.FormatAmount(o.PaidAmount, o.Decimals))
	b.add("status", string(o.Status))
	b.add("txId", o.TxID)
	b.add("fromAddress", o.FromAddress)
	b.add("network", w.networkName(o.Chain))
	b.add("chainId", o.Chain.ConfigID())
	b.add("orderType", orderTypeCollection)
	b.add("blockTime", blockTime(o.TxID, o.PayTime)) // the real block time of txId
	b.add("createTime", ms(o.CreatedAt))
	b.add("updateTime", ms(o.UpdatedAt))
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
	// Balance mode pays out of the contract itself; allowance mode pulls
	// from the approving wallet.
	from := o.FromAddress
	if o.PayoutType != cashier.PayoutAllowance && k != nil {
		from = k.Address
	}
	id := NewEventID()
	var b body
	b.add("eventId", id)
	b.add("eventType", eventType(cashier.EventPayout, string(o.Status)))
	b.add("custNo", o.MerchantID)
	b.add("orderNo", o.OrderNo)
	b.add("bizOrderNo", o.OrderNo)
	b.add("orderId", o.ID)
	b.add("contractId", o.ContractID)
	b.add("amount", cashier.FormatAmount(o.Amount, o.Decimals))
	b.add("fee", cashier.FormatAmount(o.Fee, o.Decimals))
	b.add("gasAmount", o.GasAmount)
	b.add("toAddress", o.Recipient)
	b.add("fromAddress", from)
	b.add("network", w.networkName(o.Chain))
	b.add("chainId", o.Chain.ConfigID())
	b.add("symbol", o.Symbol)
	b.add("txId", o.TxID)
	b.add("type", strconv.Itoa(int(o.PayoutType)))
	b.add("status", string(o.Status))
	b.add("createTime", ms(o.CreatedAt))
	b.add("updateTime", ms(o.UpdatedAt))
	b.add("blockTime", blockTime(o.TxID, o.UpdatedAt))
	b.add("failReason", o.FailReason) // why a REFUSE was refused (review or chain); empty otherwise
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

// testBody is the body of an operator's test event.
func testBody(id, merchantID string, at time.Time) []byte {
	var b body
	b.add("eventId", id)
	b.add("eventType", string(EventTest))
	b.add("custNo", merchantID)
	b.add("orderNo", "")
	b.add("status", "TEST")
	b.add("createTime", ms(at))
	return b.bytes()
}

// eventType is the body's eventType: "payment.success", "payout.refuse".
func eventType(t cashier.EventType, status string) string {
	return string(t) + "." + strings.ToLower(status)
}

var builtinNetworkNames = map[cashier.Chain]string{
	cashier.ChainTRON: "TRON",
	cashier.ChainETH:  "Ethereum",
	cashier.ChainARB:  "Arbitrum",
}

func (w *Writer) networkName(c cashier.Chain) string {
	if w.Registry != nil {
		if n, ok := w.Registry.Network(c); ok && n.NetworkName != "" {
			return n.NetworkName
		}
	}
	if n, ok := builtinNetworkNames[c]; ok {
		return n
	}
	return string(c)
}

// ms renders t as Unix milliseconds; the zero time is "".
func ms(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.UnixMilli(), 10)
}

// blockTime is when the service recorded the order's transaction: the
// update that set txId. Orders carry no block header time.
func blockTime(txID string, updated time.Time) string {
	if txID == "" {
		return ""
	}
	return ms(updated)
}

// body is a flat JSON object of string fields in insertion order. It is
// encoded by hand so the bytes equal what JavaScript's JSON.stringify
// produces for the parsed object: receivers that re-serialize the payload
// before computing the plain signature then get the same text. (Go's
// encoding/json escapes U+2028, U+2029 and, by default, <, > and &.)
type body struct {
	buf []byte
}

func (b *body) add(key, value string) {
	if len(b.buf) == 0 {
		b.buf = append(b.buf, '{')
	} else {
		b.buf = append(b.buf, ',')
	}
	b.buf = appendString(b.buf, key)
	b.buf = append(b.buf, ':')
	b.buf = appendString(b.buf, value)
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
