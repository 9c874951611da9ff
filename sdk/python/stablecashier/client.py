"""The merchant API client."""
import decimal
import email.utils
import json
import time
import urllib.error
import urllib.parse
import urllib.request

from . import _sign
from .errors import APIError

VERSION = "1.0.0"

PATH_CREATE_COLLECTION = "/order/api/v2/pay/order"
PATH_COLLECTION_DETAIL = "/order/api/v2/payorder/detail"
PATH_COLLECTION_LIST = "/order/api/v2/payorder/list"
PATH_COLLECTION_CANCEL = "/order/api/v2/payorder/cancel"
PATH_CREATE_PAYOUT = "/order/api/v2/payout/order"
PATH_PAYOUT_DETAIL = "/order/api/v2/payout/detail"
PATH_PAYOUT_LIST = "/order/api/v2/payout/list"
PATH_BATCH_PAYOUT = "/order/api/v2/payout/batch"
PATH_REFUND = "/order/api/v2/refund"
PATH_REFUND_DETAIL = "/order/api/v2/refund/detail"
PATH_REFUND_CANCEL = "/order/api/v2/refund/cancel"
PATH_BALANCE = "/order/api/v2/balance"
PATH_LEDGER = "/order/api/v2/ledger"
PATH_CASHIER_INFO = "/admin/api/v2/pub/cashier/info"
PATH_COINS = "/admin/api/v2/pub/coin/list"
PATH_NETWORKS = "/admin/api/v2/pub/network/list"

_PUBLIC, _SIGNED = 0, 1
_MAX_RESPONSE = 8 << 20


def _fields(**kw):
    """The request body: API field names, None left out."""
    return {k: v for k, v in kw.items() if v is not None}


class Client:
    """Calls one cashier deployment for one merchant.

    Client(base_url, api_key, secret_key, header_prefix="Service", timeout=30,
    max_retries=2, max_retry_wait=30, recv_window_ms=None)

    Requests are signed as the service verifies them. A 503 answer (the
    service is shedding load) is retried up to max_retries times after its
    Retry-After; creates are safe to retry, as the same orderNo answers the
    same order. Refusals raise APIError. Results are dicts with the API's own
    field names; numbers that are not integers come back as Decimal, never float.
    """

    def __init__(self, base_url, api_key, secret_key, header_prefix="Service", timeout=30,
                 max_retries=2, max_retry_wait=30, recv_window_ms=None):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.secret_key = secret_key
        self.header_prefix = header_prefix or "Service"
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.recv_window_ms = recv_window_ms
        self._sleep = time.sleep  # replaced in tests
        self._now_ms = lambda: int(time.time() * 1000)

    # -- collections --

    def create_collection(self, cashier_id, order_no, amount, symbol, chain_id=None,
                          redirect_url=None, cust_no=None, **extra):
        """Create a collection order; the answer carries payUrl, qrCode, address and expireTime."""
        body = _fields(cashierId=cashier_id, orderNo=order_no, amount=amount, symbol=symbol,
                       chainId=chain_id, redirectUrl=redirect_url, custNo=cust_no, **extra)
        return self._post(PATH_CREATE_COLLECTION, body, with_sign=True)

    def get_collection(self, order_no):
        return self._get(PATH_COLLECTION_DETAIL, {"orderNo": order_no})

    def list_collections(self, start_time=None, end_time=None, status=None, page=None, page_size=None):
        return self._get(PATH_COLLECTION_LIST, _fields(startTime=start_time, endTime=end_time,
                                                       status=status, page=page, pageSize=page_size))

    def cancel_collection(self, order_no):
        return self._post(PATH_COLLECTION_CANCEL, {"orderNo": order_no})

    # -- payouts --

    def create_payout(self, contract_id, order_no, recipient, amount, symbol, payout_type=None,
                      from_address=None, remark=None, chain_id=None, cust_no=None, **extra):
        body = _fields(contractId=contract_id, orderNo=order_no, recipient=recipient, amount=amount,
                       symbol=symbol, payoutType=payout_type, fromAddress=from_address, remark=remark,
                       chainId=chain_id, custNo=cust_no, **extra)
        return self._post(PATH_CREATE_PAYOUT, body)

    def get_payout(self, order_no):
        return self._get(PATH_PAYOUT_DETAIL, {"orderNo": order_no})

    def create_batch_payout(self, contract_id, orders, payout_type=None, from_address=None, **extra):
        """orders: dicts with orderNo, recipient, amount, symbol and optionally remark."""
        body = _fields(contractId=contract_id, orders=[_fields(**o) for o in orders],
                       payoutType=payout_type, fromAddress=from_address, **extra)
        return self._post(PATH_BATCH_PAYOUT, body)

    def list_payouts(self, start_time=None, end_time=None, status=None, page=None, page_size=None,
                     contract_id=None):
        return self._get(PATH_PAYOUT_LIST, _fields(startTime=start_time, endTime=end_time, status=status,
                                                   page=page, pageSize=page_size, contractId=contract_id))

    # -- refunds --

    def create_refund(self, order_no, refund_no, amount, address=None, symbol=None, reason=None, **extra):
        """Without address, the answer's refundUrl is the link to send the customer."""
        body = _fields(orderNo=order_no, refundNo=refund_no, amount=amount, address=address,
                       symbol=symbol, reason=reason, **extra)
        return self._post(PATH_REFUND, body)

    def get_refund(self, refund_no):
        return self._get(PATH_REFUND_DETAIL, {"refundNo": refund_no})

    def cancel_refund(self, refund_no):
        return self._post(PATH_REFUND_CANCEL, {"refundNo": refund_no})

    # -- holdings --

    def get_balance(self, contract_id=None, chain_id=None, symbol=None):
        return self._get(PATH_BALANCE, _fields(contractId=contract_id, chainId=chain_id, symbol=symbol))

    def get_ledger(self, contract_id=None, chain_id=None, symbol=None, kind=None, start_time=None,
                   end_time=None, page=None, page_size=None):
        return self._get(PATH_LEDGER, _fields(contractId=contract_id, chainId=chain_id, symbol=symbol,
                                              kind=kind, startTime=start_time, endTime=end_time,
                                              page=page, pageSize=page_size))

    # -- configuration --

    def get_cashier_info(self, cashier_id):
        return self._get(PATH_CASHIER_INFO, {"cashierId": cashier_id})

    def list_networks(self):
        return self._get(PATH_NETWORKS, {}, auth=_PUBLIC)

    def list_coins(self):
        return self._get(PATH_COINS, {}, auth=_PUBLIC)

    # -- transport --

    def _headers(self, params):
        p = self.header_prefix
        t = str(self._now_ms())
        sig = _sign.sign_request(self.secret_key, params, t)
        h = {p + "-API-Key": self.api_key, p + "-Request-Time": t, p + "-Signature-V2": sig,
             "User-Agent": "stablecashier-python/" + VERSION, "Accept": "application/json"}
        if self.recv_window_ms:
            h[p + "-Rec_Window"] = str(int(self.recv_window_ms))
        return h, sig

    def _post(self, path, body, with_sign=False):
        _sign.check_value(body, "body")

        def build():
            h, sig = self._headers(body)
            payload = dict(body)
            if with_sign:
                # The body field sign repeats the header signature; it is left
                # out of the signed text, so adding it changes nothing signed.
                payload[_sign.SIGN_FIELD] = sig
            h["Content-Type"] = "application/json"
            data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            return urllib.request.Request(self.base_url + path, data=data, method="POST", headers=h)
        return self._do(build)

    def _get(self, path, query, auth=_SIGNED):
        _sign.check_value(query, "query")
        q = {k: _sign.value_text(v) for k, v in query.items()}

        def build():
            url = self.base_url + path + ("?" + urllib.parse.urlencode(q) if q else "")
            h = {"User-Agent": "stablecashier-python/" + VERSION, "Accept": "application/json"}
            if auth == _SIGNED:
                h.update(self._headers(q)[0])
            return urllib.request.Request(url, method="GET", headers=h)
        return self._do(build)

    def _do(self, build):
        attempt = 0
        while True:
            req = build()  # signed anew: each attempt carries a fresh time
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    status, headers, raw = resp.status, resp.headers, resp.read(_MAX_RESPONSE)
            except urllib.error.HTTPError as e:
                status, headers, raw = e.code, e.headers, e.read(_MAX_RESPONSE)
                e.close()
            if status == 503 and attempt < self.max_retries:
                attempt += 1
                self._sleep(self._retry_after(headers))
                continue
            return self._result(status, headers, raw)

    def _retry_after(self, headers):
        v = (headers.get("Retry-After") or "").strip()
        wait = 1.0
        if v.isdigit():
            wait = float(int(v))
        elif v:
            try:
                when = email.utils.parsedate_to_datetime(v).timestamp()
                wait = max(0.0, when - time.time())
            except (TypeError, ValueError):
                pass
        return min(wait, float(self.max_retry_wait))

    @staticmethod
    def _result(status, headers, raw):
        trace = headers.get("X-Request-Id") or ""
        try:
            env = json.loads(raw.decode("utf-8"), parse_float=decimal.Decimal)
            if not isinstance(env, dict):
                raise ValueError("not an object")
        except ValueError:
            text = raw[:200].decode("utf-8", "replace")
            raise APIError("", "response is not a cashier envelope: " + text, status, trace) from None
        if not env.get("success") or status // 100 != 2:
            msg = env.get("msg") or env.get("message") or ("HTTP %d" % status)
            raise APIError(str(env.get("code") or ""), msg, status, env.get("trace") or trace)
        return env.get("data")
