package compat

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// delivery is one webhook request as a receiver gets it.
type delivery struct {
	header map[string]string
	body   []byte
}

func hmacHex(key, msg string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

// The provider's signature verification page (Python, Java, Go and C++
// samples): V2 = HMAC(webhook key, raw body + "&time=" + request time) over
// the raw body before any parsing, constant-time compare, and
// |now - time| < 5 minutes.
func verifyRawV2(d delivery, key, prefix string, now time.Time) error {
	ts := d.header[prefix+"-Request-Time"]
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("request time %q: %v", ts, err)
	}
	if diff := now.UnixMilli() - t; diff >= 300000 || diff <= -300000 {
		return fmt.Errorf("request time %d outside the 5-minute window", t)
	}
	want, _ := hex.DecodeString(hmacHex(key, string(d.body)+"&time="+ts))
	got, _ := hex.DecodeString(d.header[prefix+"-Signature-V2"])
	if !hmac.Equal(got, want) {
		return fmt.Errorf("raw-body V2 signature does not verify")
	}
	return nil
}

// The provider's example receiver: <Brand>-Signature = HMAC(webhook key,
// JSON.stringify(payload)) of the parsed payload, then a switch on
// payload.eventType.
func verifyPlain(d delivery, key, prefix string) (eventType string, err error) {
	text, err := reStringify(d.body)
	if err != nil {
		return "", err
	}
	if !hmac.Equal([]byte(hmacHex(key, text)), []byte(d.header[prefix+"-Signature"])) {
		return "", fmt.Errorf("plain signature over JSON.stringify(payload) does not verify")
	}
	var p struct {
		EventType string `json:"eventType"`
	}
	if err := json.Unmarshal(d.body, &p); err != nil {
		return "", err
	}
	switch p.EventType {
	case "payment.success", "payout.success":
		return p.EventType, nil
	}
	return p.EventType, nil // other types: the sample ignores them and answers 200
}

// The other documented receiver: V2 over the body's keys sorted, joined as
// key=value with the values' text, + "&time=".
func verifySortedV2(d delivery, key, prefix string) error {
	dec := json.NewDecoder(bytes.NewReader(d.body))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return err
	}
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if v != nil {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + fmt.Sprint(m[k])
	}
	text := strings.Join(parts, "&") + "&time=" + d.header[prefix+"-Request-Time"]
	if !hmac.Equal([]byte(hmacHex(key, text)), []byte(d.header[prefix+"-Signature-V2"])) {
		return fmt.Errorf("sorted V2 signature does not verify over %q", text)
	}
	return nil
}

// reStringify is JSON.stringify(JSON.parse(body)): keys in their order,
// strings escaped as JavaScript does (only ", \ and control characters),
// numbers as JavaScript prints them (integers below 2^53 as digits).
func reStringify(body []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var b strings.Builder
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' {
				b.WriteByte('{')
				for first := true; dec.More(); first = false {
					if !first {
						b.WriteByte(',')
					}
					k, err := dec.Token()
					if err != nil {
						return err
					}
					jsString(&b, k.(string))
					b.WriteByte(':')
					if err := walk(); err != nil {
						return err
					}
				}
				dec.Token()
				b.WriteByte('}')
				return nil
			}
			return fmt.Errorf("unexpected %v", v)
		case string:
			jsString(&b, v)
		case json.Number:
			f, err := v.Float64()
			if err != nil {
				return err
			}
			b.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case nil:
			b.WriteString("null")
		}
		return nil
	}
	if err := walk(); err != nil {
		return "", err
	}
	return b.String(), nil
}

func jsString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// Typed receivers (Java classes of the provider's docs): collection id
// Long, cashierId Integer, orderType Integer, blockTime Long; payout type
// Integer, createTime Long, contractId Integer, blockTime Long. Go's
// decoder refuses a string where an integer field is declared, exactly
// like Jackson with strict number coercion.
type paymentBody struct {
	Event      string `json:"event"`
	EventType  string `json:"eventType"`
	EventID    string `json:"eventId"`
	CustNo     string `json:"custNo"`
	OrderNo    string `json:"orderNo"`
	ID         int64  `json:"id"`
	CashierID  int32  `json:"cashierId"`
	Symbol     string `json:"symbol"`
	Amount     string `json:"amount"`
	Status     string `json:"status"`
	TxID       string `json:"txId"`
	TxHash     string `json:"txHash"`
	Network    string `json:"network"`
	ChainID    string `json:"chainId"`
	OrderType  int32  `json:"orderType"`
	BlockTime  *int64 `json:"blockTime"`
	UpdateTime int64  `json:"updateTime"`
}

type payoutBody struct {
	Event      string `json:"event"`
	EventType  string `json:"eventType"`
	EventID    string `json:"eventId"`
	BizOrderNo string `json:"bizOrderNo"`
	Amount     string `json:"amount"`
	ChainID    string `json:"chainId"`
	CustNo     string `json:"custNo"`
	Fee        string `json:"fee"`
	GasAmount  string `json:"gasAmount"`
	ToAddress  string `json:"toAddress"`
	Network    string `json:"network"`
	Symbol     string `json:"symbol"`
	TxID       string `json:"txId"`
	TxHash     string `json:"txHash"`
	Type       int32  `json:"type"`
	Status     string `json:"status"`
	CreateTime int64  `json:"createTime"`
	ContractID int32  `json:"contractId"`
	BlockTime  *int64 `json:"blockTime"`
	UpdateTime int64  `json:"updateTime"`
	ID         int64  `json:"id"`
	Reason     string `json:"reason"`
	FailReason string `json:"failReason"`
}

func strictDecode(body []byte, v any) error {
	return json.Unmarshal(body, v)
}
