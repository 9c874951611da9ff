package http

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier/browsertest"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sign"
)

// The customer-facing pages, rendered by a real browser: headless Chromium
// loads them from the test server as a customer's browser would.

// browse loads url headless and returns the DOM after load and, when shot
// is set, writes a screenshot there.
func browse(t *testing.T, url, shot string) string {
	t.Helper()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + browsertest.ProfileDir(t), "--window-size=480,900"}
	if shot != "" {
		args = append(args, "--screenshot="+shot)
	} else {
		args = append(args, "--dump-dom")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, browsertest.Chromium(t), append(args, url)...).Output()
	if err != nil {
		t.Fatalf("chromium %s: %v", url, err)
	}
	return string(out)
}

func TestPagesInBrowser(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	order, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "WEB-1", Amount: "25.50",
		Symbol: "USDT", ChainID: "ETH", CustNo: "C-77"})
	if err != nil {
		t.Fatal(err)
	}
	detail, err := e.cli.CollectionDetail(ctx, "WEB-1")
	if err != nil {
		t.Fatal(err)
	}

	// The payment page shows what to pay, where, and the order's state.
	dom := browse(t, order.PayURL, "")
	for _, want := range []string{"25.50 USDT", detail.DepositAddress, "PENDING", "WEB-1", `src="data:image/png;base64,`} {
		if !strings.Contains(dom, want) {
			t.Fatalf("payment page lacks %q:\n%s", want, dom)
		}
	}
	// Rendered, the QR code is on screen: the middle of the page has the
	// dark modules of a QR symbol.
	shot := filepath.Join(t.TempDir(), "pay.png")
	browse(t, order.PayURL, shot)
	raw, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	dark, b := 0, img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 0x6000 {
				dark++
			}
		}
	}
	if dark < 500 {
		t.Fatalf("the rendered page shows no QR code (%d dark samples)", dark)
	}

	// An unknown order is a page that says so, not an error dump.
	if dom := browse(t, e.srv.URL+"/pay/co_000000000000000000000000", ""); !strings.Contains(strings.ToLower(dom), "not found") {
		t.Fatalf("unknown order page:\n%s", dom)
	}

	// The widget opens only with a correctly signed URL.
	params := []sign.WidgetParam{{Key: "apiKey", Value: apiKey}, {Key: "custNo", Value: "C-77"}, {Key: "orderNo", Value: "WEB-1"}}
	good := client.WidgetURL(e.srv.URL+"/widget", secretKey, params)
	dom = browse(t, good, "")
	if !strings.Contains(dom, "Acme Shop") || !strings.Contains(dom, order.PayURL) {
		t.Fatalf("signed widget page:\n%s", dom)
	}
	forged := client.WidgetURL(e.srv.URL+"/widget", "sk_wrong", params)
	dom = browse(t, forged, "")
	if strings.Contains(dom, order.PayURL) || !strings.Contains(strings.ToLower(dom), "not signed correctly") {
		t.Fatalf("forged widget page:\n%s", dom)
	}
}
