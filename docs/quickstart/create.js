// Create a collection order and read it back (Node 18 or later, no packages).
// Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
const crypto = require("node:crypto");
const { CASHIER_URL: url, API_KEY: apiKey, SECRET_KEY: secret } = process.env;

// Service-* headers: HMAC-SHA256 of key=value pairs sorted by key, then &time=.
function signedHeaders(params) {
  const t = String(Date.now());
  const text = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join("&") + "&time=" + t;
  const sig = crypto.createHmac("sha256", secret).update(text).digest("hex");
  return { "Service-API-Key": apiKey, "Service-Request-Time": t, "Service-Signature-V2": sig };
}

async function call(method, path, params) {
  const res = method === "POST"
    ? await fetch(url + path, { method, body: JSON.stringify(params),
        headers: { ...signedHeaders(params), "Content-Type": "application/json" } })
    : await fetch(url + path + "?" + new URLSearchParams(params), { headers: signedHeaders(params) });
  return res.json();
}

(async () => {
  const orderNo = process.env.ORDER_NO;
  console.log(JSON.stringify(await call("POST", "/order/api/v2/pay/order", {
    cashierId: process.env.CASHIER_ID, orderNo, amount: "12.50", symbol: "USDT", chainId: "ETH" })));
  console.log(JSON.stringify(await call("GET", "/order/api/v2/payorder/detail", { orderNo })));
})().catch((e) => { console.error(e); process.exit(1); });
