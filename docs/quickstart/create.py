# Create a collection order and read it back (Python 3, standard library).
# Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
import hashlib, hmac, json, os, time, urllib.error, urllib.request

url, api_key, secret = os.environ["CASHIER_URL"], os.environ["API_KEY"], os.environ["SECRET_KEY"]


def signed_headers(params):
    """Service-* headers: HMAC-SHA256 of key=value pairs sorted by key, then &time=."""
    t = str(int(time.time() * 1000))
    text = "&".join(f"{k}={params[k]}" for k in sorted(params)) + "&time=" + t
    sig = hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()
    return {"Service-API-Key": api_key, "Service-Request-Time": t, "Service-Signature-V2": sig}


def call(method, path, params):
    if method == "POST":
        req = urllib.request.Request(url + path, data=json.dumps(params).encode(), method="POST",
                                     headers={**signed_headers(params), "Content-Type": "application/json"})
    else:
        query = "&".join(f"{k}={v}" for k, v in params.items())
        req = urllib.request.Request(url + path + "?" + query, headers=signed_headers(params))
    try:
        with urllib.request.urlopen(req) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:  # a refusal: the body is the service's code and reason
        return json.load(e)


order_no = os.environ["ORDER_NO"]
print(json.dumps(call("POST", "/order/api/v2/pay/order", {
    "cashierId": os.environ["CASHIER_ID"], "orderNo": order_no,
    "amount": "12.50", "symbol": "USDT", "chainId": "ETH"})))
print(json.dumps(call("GET", "/order/api/v2/payorder/detail", {"orderNo": order_no})))
