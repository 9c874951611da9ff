// Receive webhooks and verify them (Node 18 or later, no packages).
// Needs WEBHOOK_KEY; listens on PORT (default 8000).
const crypto = require("node:crypto");
const http = require("node:http");

http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8"); // verify the raw bytes, before parsing
    const t = req.headers["service-request-time"] || "";
    const want = crypto.createHmac("sha256", process.env.WEBHOOK_KEY).update(body + "&time=" + t).digest("hex");
    const got = req.headers["service-signature-v2"] || "";
    const fresh = Math.abs(Date.now() - Number(t)) < 5 * 60 * 1000;
    if (!fresh || got.length !== want.length || !crypto.timingSafeEqual(Buffer.from(got), Buffer.from(want))) {
      res.writeHead(401).end("bad signature");
      return;
    }
    const event = JSON.parse(body);
    // Deduplicate on event.eventId: a delivery may arrive more than once.
    // Branch on eventType (a refund's SUCCESS is not a payment's) and check
    // what was paid against what you sold (your database; quickstart orders
    // are 12.50 USDT).
    if (event.eventType === "payment.success") {
      const sold = event.amount === "12.50" && event.symbol === "USDT";
      console.log(sold ? `verified ${event.orderNo} SUCCESS` : `mismatch ${event.orderNo}: ${event.amount} ${event.symbol}, not shipped`);
    } else {
      console.log(`noted ${event.eventType} ${event.orderNo}`);
    }
    res.writeHead(200).end("ok");
  });
}).listen(Number(process.env.PORT || 8000), "127.0.0.1");
