// Receive webhooks with the Node SDK: verify, then act on eventType.
// Needs WEBHOOK_KEY ("old,new" during a key rotation); listens on PORT (default 8000).
const http = require("node:http");
const { verifyWebhook, SignatureError } = require("@stablecashier/sdk");

const keys = process.env.WEBHOOK_KEY.split(",");
const sold = { amount: "12.50", symbol: "USDT" }; // look the order up in your database; quickstart orders are 12.50 USDT

// Branch on eventType: a refund's SUCCESS is not a payment's.
function handle(ev) {
  if (ev.eventType === "payment.success") {
    if (ev.amount !== sold.amount || ev.symbol !== sold.symbol) {
      console.log(`mismatch ${ev.orderNo}: ${ev.amount} ${ev.symbol}, not shipped`);
    } else {
      console.log(`verified ${ev.orderNo} SUCCESS`); // ship the goods here
    }
  } else if (ev.event === "refund") {
    console.log(`refund ${ev.refundNo} of ${ev.orderNo} ${ev.status}`);
  } else {
    console.log(`noted ${ev.eventType} ${ev.orderNo}`);
  }
}

http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let ev;
    try {
      ev = verifyWebhook(Buffer.concat(chunks), req.headers, keys); // the raw bytes, before any parsing
    } catch (e) {
      if (!(e instanceof SignatureError)) throw e;
      res.writeHead(401).end();
      return;
    }
    handle(ev); // deduplicate on ev.eventId: a delivery may arrive more than once
    res.writeHead(200).end("ok");
  });
}).listen(Number(process.env.PORT || 8000), "127.0.0.1");
