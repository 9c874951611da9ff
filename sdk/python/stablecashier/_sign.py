"""The request and webhook signatures, byte for byte as the service computes them."""
import hashlib
import hmac
import json

SIGN_FIELD = "sign"  # the body field carrying a signature: never part of the signed text


def hmac_hex(key, msg):
    """Lowercase hex HMAC-SHA256 of msg under key."""
    if isinstance(key, str):
        key = key.encode("utf-8")
    if isinstance(msg, str):
        msg = msg.encode("utf-8")
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def check_value(v, path="value"):
    """Refuse floats anywhere: amounts are decimal strings, and a float's text is not the amount."""
    if isinstance(v, float):
        raise TypeError("%s is a float; send amounts as decimal strings such as \"12.50\"" % path)
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise TypeError("%s has a key that is not a string: %r" % (path, k))
            check_value(x, path + "." + k)
    elif isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            check_value(x, "%s[%d]" % (path, i))
    elif not (v is None or isinstance(v, (str, bool, int))):
        try:
            import decimal
            if isinstance(v, decimal.Decimal):
                raise TypeError("%s is a Decimal; pass str(amount) so its text is exact" % path)
        except ImportError:  # pragma: no cover
            pass
        raise TypeError("%s has unsupported type %s" % (path, type(v).__name__))


def compact_json(v):
    """Compact JSON with sorted object keys and no HTML escaping, as Go's encoder writes it."""
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return s.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def value_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    return compact_json(v)


def canonical(params, time_ms):
    """The signed text: key=value pairs sorted by key (bytes), then time=."""
    keys = sorted((k for k, v in params.items() if k != SIGN_FIELD and v is not None),
                  key=lambda k: k.encode("utf-8"))
    return "".join("%s=%s&" % (k, value_text(params[k])) for k in keys) + "time=" + str(time_ms)


def sign_request(secret, params, time_ms):
    return hmac_hex(secret, canonical(params, time_ms))
