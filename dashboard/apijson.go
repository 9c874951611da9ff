package dashboard

import (
	"math/big"
	"net/http"

	"github.com/stablecashier/cashier"
)

// rowsJSON renders each row; no rows is [] in JSON, never null.
func rowsJSON[T any](rows []T, one func(*T) map[string]any) []map[string]any {
	out := []map[string]any{}
	for i := range rows {
		out = append(out, one(&rows[i]))
	}
	return out
}

func cashierJSON(c *cashier.Cashier) map[string]any {
	return map[string]any{"cashierId": c.ID, "merchantId": c.MerchantID, "name": c.Name, "webhookUrl": c.WebhookURL,
		"status": c.Status, "createdAt": ms(c.CreatedAt), "allowedOrigins": append([]string{}, c.AllowedOrigins...)}
}

func amountText(v *big.Int, decimals int) string {
	if v == nil {
		return ""
	}
	return cashier.FormatAmount(v, decimals)
}

func collectionJSON(o *cashier.CollectionOrder) map[string]any {
	return map[string]any{"orderId": o.ID, "merchantId": o.MerchantID, "cashierId": o.CashierID, "orderNo": o.OrderNo,
		"custNo": o.CustNo, "chainId": o.Chain, "symbol": o.Symbol, "amount": amountText(o.Amount, o.Decimals),
		"paidAmount": amountText(o.PaidAmount, o.Decimals), "depositAddress": o.DepositAddress, "status": o.Status,
		"txId": o.TxID, "fromAddress": o.FromAddress, "expireTime": ms(o.ExpireAt), "payTime": ms(o.PayTime),
		"createTime": ms(o.CreatedAt), "updateTime": ms(o.UpdatedAt), "paymentNote": o.PaymentNote(),
		"createdBy": map[bool]string{true: "browser", false: "api"}[o.BrowserCreated()], "origin": o.Origin}
}

func payoutJSON(p *cashier.PayoutOrder) map[string]any {
	return map[string]any{"orderId": p.ID, "merchantId": p.MerchantID, "contractId": p.ContractID, "orderNo": p.OrderNo,
		"chainId": p.Chain, "recipient": p.Recipient, "symbol": p.Symbol, "amount": amountText(p.Amount, p.Decimals),
		"fee": amountText(p.Fee, p.Decimals), "payoutType": p.PayoutType, "fromAddress": p.FromAddress, "remark": p.Remark,
		"status": p.Status, "needsReview": p.NeedsReview, "txId": p.TxID, "gasAmount": p.GasAmount, "failReason": p.FailReason,
		"createTime": ms(p.CreatedAt), "updateTime": ms(p.UpdatedAt)}
}

func (s *Server) eventsJSON(r *http.Request, merchantID, orderID string) ([]map[string]any, error) {
	es, err := s.Store.Events(r.Context(), cashier.EventFilter{MerchantID: merchantID, OrderID: orderID, Limit: 100})
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, e := range es {
		at, err := s.Store.Attempts(r.Context(), e.ID)
		if err != nil {
			return nil, err
		}
		log := []map[string]any{}
		for _, x := range at {
			log = append(log, map[string]any{"attempt": x.Attempt, "at": ms(x.At), "httpStatus": x.HTTPStatus,
				"latencyMs": x.Latency.Milliseconds(), "error": x.Error})
		}
		out = append(out, map[string]any{"eventId": e.ID, "type": e.Type, "status": e.Status, "url": e.URL,
			"state": e.State, "attempts": e.Attempts, "lastError": e.LastError, "body": string(e.Body),
			"createdAt": ms(e.CreatedAt), "log": log})
	}
	return out, nil
}

func policyJSON(p *cashier.ReviewPolicy) map[string]any {
	return map[string]any{"merchantId": p.MerchantID, "mode": p.Mode, "above": p.Above, "updatedAt": ms(p.UpdatedAt)}
}
