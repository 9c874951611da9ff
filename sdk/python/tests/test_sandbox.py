"""The merchant program against a running sandbox (scripts/sdk-check.sh starts one).

Needs CASHIER_SANDBOX (its data directory), CASHIER_BIN (the cashier binary, for
`sandbox pay`) and CASHIER_HOOK_PORT (the port of the sandbox cashier's webhook URL).
Without them the test is skipped, unless CASHIER_SDK_REQUIRE_SANDBOX=1 makes that a failure.
"""
import http.server
import json
import os
import subprocess
import threading
import time
import unittest

from stablecashier import APIError, Client, SignatureError, verify_webhook

ENV = ("CASHIER_SANDBOX", "CASHIER_BIN", "CASHIER_HOOK_PORT")
HAVE = all(os.environ.get(k) for k in ENV)
if not HAVE and os.environ.get("CASHIER_SDK_REQUIRE_SANDBOX") == "1":
    raise RuntimeError("the sandbox test needs " + ", ".join(ENV))


@unittest.skipUnless(HAVE, "needs a sandbox: " + ", ".join(ENV))
class MerchantProgram(unittest.TestCase):
    def test_collection_webhook_payout_refund(self):
        data = os.environ["CASHIER_SANDBOX"]
        with open(os.path.join(data, "sandbox.json"), encoding="utf-8") as f:
            info = json.load(f)
        received = []  # (raw body, headers, event) of verified deliveries
        lock = threading.Lock()

        class Hook(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    ev = verify_webhook(raw, self.headers, info["webhookKey"])
                except SignatureError as e:
                    self.send_response(401)
                    self.end_headers()
                    self.wfile.write(str(e).encode())
                    return
                with lock:
                    received.append((raw, dict(self.headers.items()), ev))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *a):
                pass

        hook = http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ["CASHIER_HOOK_PORT"])), Hook)
        threading.Thread(target=hook.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
        self.addCleanup(hook.server_close)
        self.addCleanup(hook.shutdown)

        c = Client(info["baseUrl"], info["apiKey"], info["secretKey"])
        order_no = "SDK-PY-%d" % (time.time() * 1000)
        created = c.create_collection(cashier_id=info["cashierId"], order_no=order_no, amount="3.25",
                                      symbol="USDT", chain_id="ETH")
        self.assertEqual(created["orderNo"], order_no)
        self.assertTrue(created["address"].startswith("0x"))
        detail = c.get_collection(order_no)
        self.assertEqual((detail["orderNo"], detail["status"], detail["amount"]), (order_no, "PENDING", "3.25"))

        with self.assertRaises(APIError) as dup:
            c.create_collection(cashier_id=info["cashierId"], order_no=order_no, amount="3.25", symbol="USDT",
                                chain_id="ETH")
        self.assertEqual((dup.exception.code, dup.exception.status), ("000201", 409))
        self.assertIn(order_no, dup.exception.message)
        self.assertTrue(dup.exception.trace)

        subprocess.run([os.environ["CASHIER_BIN"], "sandbox", "pay", "--data", data, "--order", order_no],
                       check=True, capture_output=True)
        deadline = time.time() + 90
        success = None
        while success is None and time.time() < deadline:
            with lock:
                success = next((r for r in received if r[2].order_no == order_no
                                and r[2].event_type == "payment.success"), None)
            time.sleep(0.2)
        self.assertIsNotNone(success, "no verified payment.success webhook for %s" % order_no)
        raw, headers, ev = success
        self.assertEqual((ev["amount"], ev["paidAmount"], ev["symbol"], ev.status), ("3.25", "3.25", "USDT", "SUCCESS"))
        with self.assertRaises(SignatureError):
            verify_webhook(raw.replace(b'"paidAmount":"3.25"', b'"paidAmount":"9.25"'), headers, info["webhookKey"])
        self.assertEqual(c.get_collection(order_no)["status"], "SUCCESS")

        customer = info["wallets"]["customer"]["evmAddress"]
        payout = c.create_payout(contract_id=info["contractIds"]["ETH"], order_no=order_no, recipient=customer,
                                 amount="1.00", symbol="USDT")
        self.assertEqual(payout["orderNo"], order_no)
        got = c.get_payout(order_no)
        self.assertEqual((got["orderNo"], got["amount"]), (order_no, "1.00"))

        refund = c.create_refund(order_no=order_no, refund_no="RF-" + order_no, amount="1.25", address=customer)
        self.assertEqual((refund["refundNo"], refund["amount"]), ("RF-" + order_no, "1.25"))
        self.assertEqual(c.get_refund("RF-" + order_no)["refundNo"], "RF-" + order_no)


if __name__ == "__main__":
    unittest.main()
