package compat

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// kv is one field in the order a JavaScript object literal keeps it.
type kv struct {
	k string
	v any // string or int
}

// nodeClient is the provider's Node.js sample client: sort the keys by
// ASCII, join key=value with raw values (JavaScript's `${v}`), skip
// null/undefined, append &time=<ms>, HMAC-SHA256 hex with the secret; POST
// sends JSON.stringify(params) and no body `sign`; GET signs the query
// parameters exactly like a body.
type nodeClient struct {
	base, prefix, apiKey, secret string
}

func (c nodeClient) signature(params []kv, ts string) string {
	keys := make([]string, 0, len(params))
	vals := map[string]string{}
	for _, p := range params {
		if p.v == nil {
			continue
		}
		keys = append(keys, p.k)
		vals[p.k] = fmt.Sprint(p.v)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+vals[k])
	}
	text := strings.Join(parts, "&")
	if text != "" {
		text += "&"
	}
	text += "time=" + ts
	m := hmac.New(sha256.New, []byte(c.secret))
	m.Write([]byte(text))
	return hex.EncodeToString(m.Sum(nil))
}

// stringify is JSON.stringify of an object literal with fields in order.
func stringify(params []kv) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		b.Write(k)
		b.WriteByte(':')
		v, _ := json.Marshal(p.v)
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// call sends one request as the sample does and returns the parsed envelope.
func (c nodeClient) call(t *testing.T, method, path string, params []kv) map[string]any {
	t.Helper()
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	var body io.Reader
	u := c.base + path
	if method == http.MethodGet {
		q := url.Values{}
		for _, p := range params {
			q.Set(p.k, fmt.Sprint(p.v))
		}
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
	} else {
		body = bytes.NewReader(stringify(params))
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(c.prefix+"-API-Key", c.apiKey)
	req.Header.Set(c.prefix+"-Request-Time", ts)
	req.Header.Set(c.prefix+"-Signature-V2", c.signature(params, ts))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env map[string]any
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	if res.StatusCode != 200 || env["success"] != true {
		t.Fatalf("%s %s refused: %d %s", method, path, res.StatusCode, raw)
	}
	return env
}
