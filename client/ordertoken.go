package client

import "github.com/stablecashier/cashier/sign"

// OrderToken returns the orderToken a merchant's page passes to the widget
// SDK's init to create a browser order under the merchant's own orderNo:
// the widget URL signing of apiKey, orderNo and amount (and more, e.g.
// custNo, chainId, symbol, which then bind the order too) under the
// secret key. Call it on your server: it needs the secret key.
func OrderToken(apiKey, secretKey, orderNo, amount string, more ...sign.WidgetParam) string {
	params := append([]sign.WidgetParam{{Key: "apiKey", Value: apiKey}, {Key: "orderNo", Value: orderNo}, {Key: "amount", Value: amount}}, more...)
	return sign.SignWidget(secretKey, params)
}
