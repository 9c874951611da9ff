// Create a collection order and read it back with the Node SDK
// (npm install ./sdk/node, or require the sdk/node directory).
// Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
const { Client, APIError } = require("@stablecashier/sdk");

const client = new Client({ baseUrl: process.env.CASHIER_URL, apiKey: process.env.API_KEY, secretKey: process.env.SECRET_KEY });
const orderNo = process.env.ORDER_NO;

(async () => {
  const created = await client.createCollection({
    cashierId: process.env.CASHIER_ID, orderNo, amount: "12.50", symbol: "USDT", chainId: "ETH" });
  console.log(JSON.stringify(created));
  console.log(JSON.stringify(await client.getCollection(orderNo)));
})().catch((e) => {
  // APIError: the service's own code and reason, e.g. 000201 "order number ... exists already".
  console.error(e instanceof APIError ? `refused: ${e.code} ${e.message} (HTTP ${e.status}, trace ${e.trace})` : e);
  process.exit(1);
});
