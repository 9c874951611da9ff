#!/usr/bin/env bash
# Create a collection order and read it back, signed with openssl.
# Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
set -euo pipefail

# sign TEXT: lowercase hex HMAC-SHA256 of TEXT under the secret key.
sign() { printf '%s' "$1" | openssl dgst -sha256 -hmac "$SECRET_KEY" -r | cut -d' ' -f1; }
now() { echo $(($(date +%s%N) / 1000000)); } # Unix milliseconds

# POST: sign the body's fields sorted by key, then &time=.
t=$(now)
sig=$(sign "amount=12.50&cashierId=$CASHIER_ID&chainId=ETH&orderNo=$ORDER_NO&symbol=USDT&time=$t")
curl -sS -X POST "$CASHIER_URL/order/api/v2/pay/order" \
  -H "Content-Type: application/json" \
  -H "Service-API-Key: $API_KEY" -H "Service-Request-Time: $t" -H "Service-Signature-V2: $sig" \
  -d "{\"cashierId\":\"$CASHIER_ID\",\"orderNo\":\"$ORDER_NO\",\"amount\":\"12.50\",\"symbol\":\"USDT\",\"chainId\":\"ETH\"}"
echo

# GET: sign the query parameters the same way.
t=$(now)
sig=$(sign "orderNo=$ORDER_NO&time=$t")
curl -sS "$CASHIER_URL/order/api/v2/payorder/detail?orderNo=$ORDER_NO" \
  -H "Service-API-Key: $API_KEY" -H "Service-Request-Time: $t" -H "Service-Signature-V2: $sig"
echo
