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
    console.log(`verified ${event.orderNo} ${event.status}`);
    res.writeHead(200).end("ok");
  });
}).listen(Number(process.env.PORT || 8000), "127.0.0.1");
