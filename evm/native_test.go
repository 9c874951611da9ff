package evm

import (
	"bytes"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/devchain"
)

// NativeTransfers finds the ether top-level transactions sent to the
// addresses kept, with its block, through a node that refuses batched
// requests (it falls back to one request per block and remembers it) as
// through one that accepts them.
func TestNativeTransfers(t *testing.T) {
	e := newEnv(t, devchain.Options{})
	to := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	other := common.HexToAddress("0x00000000000000000000000000000000000b0b00")
	rc, err := e.chain.Transact(ctx(t), e.chain.Faucet, &to, big.NewInt(3e15), nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.chain.Transact(ctx(t), e.chain.Faucet, &other, big.NewInt(1e15), nil, 21_000); err != nil {
		t.Fatal(err)
	}
	head, err := e.chain.Client.BlockNumber(ctx(t))
	if err != nil {
		t.Fatal(err)
	}

	u, _ := url.Parse(e.chain.URL)
	proxy := httputil.NewSingleHostReverseProxy(u)
	var batches, refuse atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			batches.Add(1)
			if refuse.Load() == 1 {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch requests are not allowed"}}`)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()

	for _, refused := range []bool{false, true} {
		if refused {
			refuse.Store(1)
		}
		c := e.client(nil, "", func(c *Config) { c.URLs = []string{srv.URL} })
		var asked []string
		got, err := c.NativeTransfers(ctx(t), 1, head, func(addrs []string) (map[string]bool, error) {
			asked = addrs
			return map[string]bool{to.Hex(): true}, nil
		})
		if err != nil {
			t.Fatalf("refused %v: %v", refused, err)
		}
		if len(asked) < 2 {
			t.Fatalf("refused %v: keep asked about %v", refused, asked)
		}
		if len(got) != 1 || got[0].To != to.Hex() || got[0].Token != "" || got[0].LogIndex != cashier.NativeIndex ||
			got[0].TxHash != rc.TxHash.Hex() || got[0].BlockNumber != rc.BlockNumber.Uint64() || got[0].BlockHash != rc.BlockHash.Hex() ||
			got[0].Amount.Cmp(big.NewInt(3e15)) != 0 || got[0].From != e.chain.FaucetAddress().Hex() {
			t.Fatalf("refused %v: %+v (receipt %+v)", refused, got, rc)
		}
		if !refused && batches.Load() == 0 {
			t.Fatal("blocks were not read in a batch")
		}
		if refused {
			n := batches.Load()
			if _, err := c.NativeTransfers(ctx(t), 1, head, func([]string) (map[string]bool, error) { return nil, nil }); err != nil {
				t.Fatal(err)
			}
			if batches.Load() != n {
				t.Fatal("a node that refused batches was sent another")
			}
		}
	}
}
