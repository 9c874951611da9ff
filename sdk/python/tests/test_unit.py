"""Unit tests: signing against the service's vectors, the transport against a local fake, webhooks."""
import http.server
import json
import os
import threading
import unittest

from stablecashier import APIError, Client, SignatureError, verify_webhook
from stablecashier import _sign

with open(os.path.join(os.path.dirname(__file__), "..", "..", "testdata", "vectors.json"), encoding="utf-8") as f:
    VECTORS = json.load(f)


class Fake:
    """A local HTTP server answering from a script of (status, headers, body) and recording requests."""

    def __init__(self, script):
        self.script, self.requests = list(script), []
        fake = self

        class H(http.server.BaseHTTPRequestHandler):
            def handle_one(self):
                n = int(self.headers.get("Content-Length") or 0)
                # urllib spells names its own way (Service-api-key): compare lowercased, as the service reads them
                fake.requests.append((self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                                      self.rfile.read(n)))
                status, headers, body = fake.script.pop(0) if fake.script else (500, {}, b"script ran out")
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = handle_one

            def log_message(self, *a):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def ok(data):
    return (200, {"Content-Type": "application/json"},
            json.dumps({"code": "0", "success": True, "msg": "", "data": data}).encode())


class SigningVectors(unittest.TestCase):
    def test_canonical_text_and_signature_match_the_service(self):
        for v in VECTORS["request"]:
            with self.subTest(v["name"]):
                self.assertEqual(_sign.canonical(v["params"], v["time"]), v["canonical"])
                self.assertEqual(_sign.sign_request(v["secret"], v["params"], v["time"]), v["signature"])

    def test_floats_are_refused(self):
        with self.assertRaises(TypeError):
            _sign.check_value({"amount": 12.5})


class Transport(unittest.TestCase):
    def client(self, fake, secret, t, **kw):
        c = Client(fake.url + "/", "pk_test", secret, **kw)
        c._now_ms = lambda: int(t)
        self.slept = []
        c._sleep = self.slept.append
        return c

    def test_create_collection_is_signed_as_the_service_verifies(self):
        v = VECTORS["request"][0]
        p = v["params"]
        fake = Fake([ok({"orderNo": p["orderNo"]})])
        self.addCleanup(fake.close)
        c = self.client(fake, v["secret"], v["time"])
        got = c.create_collection(cashier_id=p["cashierId"], order_no=p["orderNo"], amount=p["amount"],
                                  symbol=p["symbol"], chain_id=p["chainId"])
        self.assertEqual(got, {"orderNo": "A1001"})
        method, path, headers, body = fake.requests[0]
        self.assertEqual((method, path), ("POST", "/order/api/v2/pay/order"))
        self.assertEqual(headers["service-api-key"], "pk_test")
        self.assertEqual(headers["service-request-time"], v["time"])
        self.assertEqual(headers["service-signature-v2"], v["signature"])
        sent = json.loads(body)
        self.assertEqual(sent.pop("sign"), v["signature"])  # the body field repeats it
        self.assertEqual(sent, p)

    def test_batch_payout_signs_nested_orders(self):
        v = VECTORS["request"][4]
        fake = Fake([ok({"successCount": 2})])
        self.addCleanup(fake.close)
        c = self.client(fake, v["secret"], v["time"])
        c.create_batch_payout(contract_id="k_1", orders=v["params"]["orders"])
        self.assertEqual(fake.requests[0][2]["service-signature-v2"], v["signature"])

    def test_get_without_parameters_and_brand_prefix(self):
        v = VECTORS["request"][1]
        fake = Fake([ok({"list": []})])
        self.addCleanup(fake.close)
        c = self.client(fake, v["secret"], v["time"], header_prefix="Acme")
        c.list_collections()
        method, path, headers, _ = fake.requests[0]
        self.assertEqual((method, path), ("GET", "/order/api/v2/payorder/list"))
        self.assertEqual(headers["acme-signature-v2"], v["signature"])
        self.assertEqual(headers["acme-api-key"], "pk_test")
        self.assertNotIn("service-api-key", headers)

    def test_query_is_signed_raw_and_sent_encoded(self):
        fake = Fake([ok({"orderNo": "R 2&x"})])
        self.addCleanup(fake.close)
        c = self.client(fake, "s", "1772366400000")
        c.get_collection("R 2&x")
        _, path, headers, _ = fake.requests[0]
        self.assertEqual(path, "/order/api/v2/payorder/detail?orderNo=R+2%26x")
        self.assertEqual(headers["service-signature-v2"], _sign.hmac_hex("s", "orderNo=R 2&x&time=1772366400000"))

    def test_503_is_retried_after_retry_after(self):
        busy = (503, {"Retry-After": "2", "Content-Type": "application/json"},
                b'{"code":"ERROR_000503","success":false,"msg":"busy","trace":"t1","data":null}')
        fake = Fake([busy, ok({"orderNo": "A1"})])
        self.addCleanup(fake.close)
        c = self.client(fake, "s", "1772366400000")
        self.assertEqual(c.create_payout(contract_id="k", order_no="A1", recipient="0x1", amount="1.00",
                                         symbol="USDT")["orderNo"], "A1")
        self.assertEqual(self.slept, [2.0])
        self.assertEqual(len(fake.requests), 2)
        self.assertEqual(fake.requests[0][3], fake.requests[1][3])  # the same create, same orderNo

    def test_503_gives_up_after_max_retries(self):
        busy = (503, {"Retry-After": "1"}, b'{"code":"ERROR_000503","success":false,"msg":"busy","data":null}')
        fake = Fake([busy, busy, busy])
        self.addCleanup(fake.close)
        c = self.client(fake, "s", "1772366400000", max_retries=2)
        with self.assertRaises(APIError) as e:
            c.get_payout("A1")
        self.assertEqual((e.exception.status, e.exception.code), (503, "ERROR_000503"))
        self.assertEqual(len(fake.requests), 3)
        self.assertEqual(self.slept, [1.0, 1.0])

    def test_refusal_is_a_typed_error_with_the_servers_code_and_message(self):
        fake = Fake([(409, {"Content-Type": "application/json"},
                      b'{"code":"000109","success":false,"msg":"orderNo A1 exists with other values","message":"x","trace":"tr_9","data":null}')])
        self.addCleanup(fake.close)
        c = self.client(fake, "s", "1772366400000")
        with self.assertRaises(APIError) as e:
            c.create_refund(order_no="A1", refund_no="R1", amount="1.00")
        err = e.exception
        self.assertEqual((err.code, err.message, err.status, err.trace),
                         ("000109", "orderNo A1 exists with other values", 409, "tr_9"))

    def test_an_answer_that_is_not_an_envelope(self):
        fake = Fake([(502, {}, b"<html>bad gateway</html>")])
        self.addCleanup(fake.close)
        with self.assertRaises(APIError) as e:
            self.client(fake, "s", "1").list_coins()
        self.assertEqual((e.exception.status, e.exception.code), (502, ""))
        self.assertIn("bad gateway", e.exception.message)

    def test_a_float_amount_sends_nothing(self):
        fake = Fake([])
        self.addCleanup(fake.close)
        with self.assertRaises(TypeError):
            self.client(fake, "s", "1").create_collection(cashier_id="c", order_no="A", amount=12.5, symbol="USDT")
        self.assertEqual(fake.requests, [])


def hook_headers(v, **extra):
    h = {"service-request-time": v["time"], "SERVICE-SIGNATURE-V2": v["signatureV2"]}
    h.update(extra)
    return h


class Webhooks(unittest.TestCase):
    def setUp(self):
        self.v1, self.v2, self.next = VECTORS["webhook"]
        self.now = int(self.v1["time"]) / 1000

    def test_verifies_and_exposes_the_event_type(self):
        ev = verify_webhook(self.v1["body"].encode(), hook_headers(self.v1), self.v1["key"], now=self.now)
        self.assertEqual((ev.event_type, ev.event, ev.order_no, ev["amount"]),
                         ("payment.success", "payment", "C202503225", "100.00"))
        ev = verify_webhook(self.v2["body"], list(hook_headers(self.v2).items()), [self.v2["key"]],
                            now=int(self.v2["time"]) / 1000)
        self.assertEqual(ev.event_type, "refund.success")  # a refund's SUCCESS is not a payment's

    def test_tampered_body_wrong_key_and_stale_time_are_refused(self):
        h = hook_headers(self.v1)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"].replace("100.00", "900.00"), h, self.v1["key"], now=self.now)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"], h, "whk_other", now=self.now)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"], h, self.v1["key"], now=self.now + 301)
        verify_webhook(self.v1["body"], h, self.v1["key"], now=self.now + 299)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"], h, self.v1["key"], now=self.now + 60, tolerance=30)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"], {"Service-Signature-V2": self.v1["signatureV2"]}, self.v1["key"],
                           now=self.now)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"], hook_headers(self.v1, **{"Service-Event-Id": "evt_other"}),
                           self.v1["key"], now=self.now)

    def test_key_grace_either_v2_header_under_any_key(self):
        old, new = self.v1, self.next  # the same body and time, signed under the old and the new key
        self.assertEqual((old["body"], old["time"]), (new["body"], new["time"]))
        during = {"Service-Request-Time": old["time"], "Service-Signature-V2": old["signatureV2"],
                  "Service-Signature": old["signature"], "Service-Signature-V2-Next": new["signatureV2"],
                  "Service-Signature-Next": new["signature"]}
        for keys in ([old["key"]], [new["key"]], [old["key"], new["key"]], [new["key"], "whk_other"]):
            with self.subTest(keys=keys):
                ev = verify_webhook(old["body"], during, keys, now=self.now)
                self.assertEqual(ev.event_id, "evt_8e0f4b1c2d3a4958a6b7c8d9")
        with self.assertRaises(SignatureError):
            verify_webhook(old["body"], during, ["whk_other", "whk_third"], now=self.now)
        only_next = {"service-request-time": new["time"], "service-signature-v2": "0" * 64,
                     "service-signature-v2-next": new["signatureV2"]}
        verify_webhook(new["body"], only_next, [new["key"]], now=self.now)
        with self.assertRaises(SignatureError):
            verify_webhook(new["body"], only_next, [old["key"]], now=self.now)

    def test_brand_prefix(self):
        h = {"Acme-Request-Time": self.v1["time"], "acme-signature-v2": self.v1["signatureV2"]}
        verify_webhook(self.v1["body"], h, self.v1["key"], header_prefix="Acme", now=self.now)
        with self.assertRaises(SignatureError):
            verify_webhook(self.v1["body"], h, self.v1["key"], now=self.now)


if __name__ == "__main__":
    unittest.main()
