package client_test

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/sign"
)

func ExampleClient_CreateCollection() {
	c := client.New("https://pay.example.com", "pk_...", "sk_...")
	res, err := c.CreateCollection(context.Background(), client.CollectionRequest{
		CashierID: "c_1", OrderNo: "A1001", Amount: "25.00", Symbol: "USDT", ChainID: "TRON", CustNo: "user-42",
	})
	var e *client.Error
	if errors.As(err, &e) {
		log.Printf("refused: %s %s (trace %s)", e.Code, e.Message, e.Trace)
		return
	}
	log.Println(res.PayURL)
}

func ExampleVerifyWebhook() {
	http.HandleFunc("/cashier/webhook", func(w http.ResponseWriter, r *http.Request) {
		ev, _, err := client.VerifyWebhook(r, "whk_...")
		if err != nil {
			http.Error(w, "invalid webhook", http.StatusUnauthorized)
			return
		}
		// ev.ID is the signed body's eventId: skip it if already processed
		// (retries and replays inside the time window verify too).
		log.Printf("%s %s is %s", ev.Type, ev.OrderNo, ev.Status)
		w.WriteHeader(http.StatusOK)
	})
}

func ExampleWidgetURL() {
	u := client.WidgetURL("https://pay.example.com/widget", "sk_...", []sign.WidgetParam{
		{Key: "apiKey", Value: "pk_..."}, {Key: "custNo", Value: "user-42"},
	})
	log.Println(u)
}
