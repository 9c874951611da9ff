package http

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sign"
)

// The provider's URL-signing page puts the signed widget URL on the
// host's root path: it opens the widget there as at /widget, in a real
// browser, also when signed the way its Python and PHP samples sign
// (values encoded twice in the signed text, once in the URL). A wrong
// signature is still refused, and "/" without the widget's parameters
// answers as before.
func TestWidgetAtRootInBrowser(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	order, err := e.cli.CreateCollection(ctx, client.CollectionRequest{CashierID: cashierID, OrderNo: "ROOT-1.A", Amount: "9.00",
		Symbol: "USDT", ChainID: "ETH", CustNo: "Jane Doe@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	get := func(u string) (int, string) {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	params := []sign.WidgetParam{{Key: "apiKey", Value: apiKey}, {Key: "custNo", Value: "Jane Doe@example.com"}, {Key: "orderNo", Value: "ROOT-1.A"}}
	dir := artifacts(t)

	root := client.WidgetURL(e.srv.URL, secretKey, params)
	if !strings.HasPrefix(root, e.srv.URL+"?apiKey=") {
		t.Fatalf("not a root URL: %s", root)
	}
	dom := browse(t, root, "")
	if !strings.Contains(dom, "Acme Shop") || !strings.Contains(dom, "Jane Doe@example.com") || !strings.Contains(dom, order.PayURL) {
		t.Fatalf("signed widget at the root:\n%s", dom)
	}
	browse(t, root, filepath.Join(dir, "widget-root.png"))

	sent := sign.WidgetQuery(params)
	for name, text := range map[string]string{"python": sign.PythonDoubleQuery(params), "php": sign.PHPDoubleQuery(params)} {
		u := e.srv.URL + "/?" + sent + "&signature=" + sign.HMAC(secretKey, text)
		if status, page := get(u); status != 200 || !strings.Contains(page, order.PayURL) {
			t.Fatalf("%s-signed widget URL at the root: %d\n%s", name, status, page)
		}
		if status, _ := get(strings.Replace(u, "/?", "/widget?", 1)); status != 200 {
			t.Fatalf("%s-signed widget URL at /widget: %d", name, status)
		}
		if status, _ := get(e.srv.URL + "/?" + sent + "&signature=" + sign.HMAC("sk_wrong", text)); status != 401 {
			t.Fatalf("%s form under the wrong key: %d", name, status)
		}
	}

	forged := client.WidgetURL(e.srv.URL, "sk_wrong", params)
	if status, _ := get(forged); status != 401 {
		t.Fatalf("forged widget URL at the root: %d", status)
	}
	dom = browse(t, forged, "")
	if strings.Contains(dom, order.PayURL) || !strings.Contains(strings.ToLower(dom), "not signed correctly") {
		t.Fatalf("forged widget page at the root:\n%s", dom)
	}
	browse(t, forged, filepath.Join(dir, "widget-root-forged.png"))

	// Without the widget's parameters "/" is what it was: no endpoint.
	for _, u := range []string{e.srv.URL + "/", e.srv.URL + "/?lang=en"} {
		if status, body := get(u); status != 404 || !strings.Contains(body, "no endpoint GET /") {
			t.Fatalf("%s: %d %s", u, status, body)
		}
	}
	if resp, err := http.Post(e.srv.URL+"/?apiKey="+apiKey, "application/json", strings.NewReader("{}")); err != nil || resp.StatusCode != 404 {
		t.Fatalf("POST at the root: %v %v", resp, err)
	}
}
