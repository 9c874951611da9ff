# Receive webhooks with the Python SDK: verify, then act on eventType.
# Needs WEBHOOK_KEY ("old,new" during a key rotation); listens on PORT (default 8000).
import http.server, os
from stablecashier import SignatureError, verify_webhook

KEYS = os.environ["WEBHOOK_KEY"].split(",")
SOLD = {"amount": "12.50", "symbol": "USDT"}  # look the order up in your database; quickstart orders are 12.50 USDT


def handle(ev):
    """Branch on eventType: a refund's SUCCESS is not a payment's."""
    if ev.event_type == "payment.success":
        if (ev["amount"], ev["symbol"]) != (SOLD["amount"], SOLD["symbol"]):
            print(f"mismatch {ev.order_no}: {ev['amount']} {ev['symbol']}, not shipped", flush=True)
        else:
            print(f"verified {ev.order_no} SUCCESS", flush=True)  # ship the goods here
    elif ev.event == "refund":
        print(f"refund {ev['refundNo']} of {ev.order_no} {ev.status}", flush=True)
    else:
        print(f"noted {ev.event_type} {ev.order_no}", flush=True)


class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            ev = verify_webhook(raw, self.headers, KEYS)  # the raw bytes, before any parsing
        except SignatureError:
            self.send_response(401)
            self.end_headers()
            return
        handle(ev)  # deduplicate on ev.event_id: a delivery may arrive more than once
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Hook).serve_forever()
