"""Webhook verification."""
import decimal
import hmac
import json
import time

from . import _sign
from .errors import SignatureError


class WebhookEvent(dict):
    """A verified webhook body: a dict with the API's field names.

    event_type ("payment.success", "refund.success", ...) says what happened
    to what: branch on it, never on status alone (a refund's SUCCESS is not a
    payment's). event_id is what to deduplicate on.
    """

    @property
    def event_type(self):
        return self.get("eventType", "")

    @property
    def event(self):
        return self.get("event") or self.event_type.split(".")[0]

    @property
    def event_id(self):
        return self.get("eventId", "")

    @property
    def order_no(self):
        return self.get("orderNo", "")

    @property
    def status(self):
        return self.get("status", "")


def _header(headers, name):
    """A header value by name, whatever its case (frameworks spell them differently)."""
    items = headers.items() if hasattr(headers, "items") else headers
    want = name.lower()
    for k, v in items:
        if k.lower() == want:
            return v if isinstance(v, str) else (v[0] if isinstance(v, (list, tuple)) and v else str(v))
    return ""


def verify_webhook(raw_body, headers, key_or_keys, tolerance=300, header_prefix="Service", now=None):
    """Verify a webhook and return its WebhookEvent, or raise SignatureError.

    raw_body is the request body exactly as received (bytes or str), before
    any parsing. headers is any mapping or list of (name, value) pairs; names
    are matched case-insensitively. key_or_keys is the webhook key, or a list
    of keys: during a key rotation's grace pass both the old and the new one.
    The <P>-Signature-V2 header (or, during a rotation, <P>-Signature-V2-Next)
    must be the HMAC-SHA256 of the raw body + "&time=" + <P>-Request-Time
    under one of the keys, and that time within tolerance seconds of now.

    A valid signature does not make a delivery unique: process each event_id once.
    """
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    if not isinstance(raw_body, (bytes, bytearray)):
        raise TypeError("raw_body must be the body as received, bytes or str")
    keys = [key_or_keys] if isinstance(key_or_keys, str) else list(key_or_keys or [])
    keys = [k for k in keys if k]
    if not keys:
        raise ValueError("no webhook key given")
    p = header_prefix or "Service"
    t = _header(headers, p + "-Request-Time").strip()
    if not t.isdigit():
        raise SignatureError("%s-Request-Time is missing or not Unix milliseconds" % p)
    now_ms = int((time.time() if now is None else now) * 1000)
    if abs(now_ms - int(t)) > tolerance * 1000:
        raise SignatureError("%s-Request-Time is %d s away from now (tolerance %d s)"
                             % (p, abs(now_ms - int(t)) // 1000, tolerance))
    got = [s.strip().lower() for s in (_header(headers, p + "-Signature-V2"),
                                       _header(headers, p + "-Signature-V2-Next")) if s]
    if not got:
        raise SignatureError("%s-Signature-V2 is missing" % p)
    msg = bytes(raw_body) + b"&time=" + t.encode("ascii")
    ok = False
    for k in keys:
        want = _sign.hmac_hex(k, msg)
        for g in got:
            # Every comparison runs, so timing does not tell which matched.
            if hmac.compare_digest(g.encode("ascii", "replace"), want.encode("ascii")):
                ok = True
    if not ok:
        raise SignatureError("signature does not match")
    try:
        body = json.loads(raw_body.decode("utf-8"), parse_float=decimal.Decimal)
    except ValueError as e:
        raise SignatureError("body is not JSON: %s" % e) from None
    if not isinstance(body, dict) or not body.get("eventId"):
        raise SignatureError("body has no eventId")
    hid = _header(headers, p + "-Event-Id")
    if hid and hid != body["eventId"]:
        raise SignatureError("%s-Event-Id %r differs from the signed eventId %r" % (p, hid, body["eventId"]))
    return WebhookEvent(body)
