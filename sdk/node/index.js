'use strict';
// @stablecashier/sdk: the Node client of the stablecoin cashier's merchant API.
// No dependencies; Node 18 or later (global fetch). Amounts are decimal
// strings, never numbers: a float's text is not the amount.
const crypto = require('node:crypto');

const VERSION = '1.0.0';
const SIGN_FIELD = 'sign'; // the body field carrying a signature: never signed itself

const PATHS = {
  createCollection: '/order/api/v2/pay/order',
  collectionDetail: '/order/api/v2/payorder/detail',
  collectionList: '/order/api/v2/payorder/list',
  collectionCancel: '/order/api/v2/payorder/cancel',
  createPayout: '/order/api/v2/payout/order',
  payoutDetail: '/order/api/v2/payout/detail',
  payoutList: '/order/api/v2/payout/list',
  batchPayout: '/order/api/v2/payout/batch',
  refund: '/order/api/v2/refund',
  refundDetail: '/order/api/v2/refund/detail',
  refundCancel: '/order/api/v2/refund/cancel',
  balance: '/order/api/v2/balance',
  ledger: '/order/api/v2/ledger',
  cashierInfo: '/admin/api/v2/pub/cashier/info',
  coins: '/admin/api/v2/pub/coin/list',
  networks: '/admin/api/v2/pub/network/list',
};

class StableCashierError extends Error {}

/** The service refused a request: code and message are the service's own. */
class APIError extends StableCashierError {
  constructor(code, message, status, trace) {
    super(message);
    this.name = 'APIError';
    this.code = code;
    this.status = status;
    this.trace = trace || '';
  }
}

/** A webhook did not verify: answer non-2xx and do not act on it. */
class SignatureError extends StableCashierError {
  constructor(message) {
    super(message);
    this.name = 'SignatureError';
  }
}

function hmacHex(key, msg) {
  return crypto.createHmac('sha256', key).update(msg).digest('hex');
}

// Strings sorted by their UTF-8 bytes, as the service sorts them (JavaScript's
// own sort compares UTF-16 units, which orders some characters differently).
function byteCompare(a, b) {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function checkValue(v, path) {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) {
      throw new TypeError(`${path} is the number ${v}; send amounts as decimal strings such as "12.50"`);
    }
  } else if (typeof v === 'bigint') {
    // fine: written as its digits
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => checkValue(x, `${path}[${i}]`));
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) checkValue(x, `${path}.${k}`);
  } else if (!(v === null || v === undefined || typeof v === 'string' || typeof v === 'boolean')) {
    throw new TypeError(`${path} has unsupported type ${typeof v}`);
  }
}

// JSON text as Go's encoder writes it: compact, object keys sorted, no HTML
// escaping, U+2028 and U+2029 escaped.
function compactJSON(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return JSON.stringify(v).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  if (typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : compactJSON(x))).join(',') + ']';
  const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort(byteCompare);
  return '{' + keys.map((k) => compactJSON(k) + ':' + compactJSON(v[k])).join(',') + '}';
}

function valueText(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return compactJSON(v);
}

/** The signed text: key=value pairs sorted by key, then time=. */
function canonical(params, timeMs) {
  const keys = Object.keys(params)
    .filter((k) => k !== SIGN_FIELD && params[k] !== null && params[k] !== undefined)
    .sort(byteCompare);
  return keys.map((k) => `${k}=${valueText(params[k])}&`).join('') + 'time=' + timeMs;
}

function signRequest(secret, params, timeMs) {
  return hmacHex(secret, canonical(params, timeMs));
}

// The request body: API field names, undefined and null left out.
function fields(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj || {})) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

// A body as JSON text; bigints as their digits.
function bodyJSON(v) {
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `__BIGINT__${x}__` : x)).replace(/"__BIGINT__(-?\d+)__"/g, '$1');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Client {
  /**
   * @param {{baseUrl: string, apiKey: string, secretKey: string, headerPrefix?: string,
   *   timeout?: number, maxRetries?: number, maxRetryWait?: number, recvWindow?: number}} opts
   * timeout, maxRetryWait and recvWindow in milliseconds.
   */
  constructor(opts) {
    const o = opts || {};
    if (!o.baseUrl || !o.apiKey || !o.secretKey) throw new TypeError('baseUrl, apiKey and secretKey are required');
    this.baseUrl = String(o.baseUrl).replace(/\/+$/, '');
    this.apiKey = o.apiKey;
    this.secretKey = o.secretKey;
    this.headerPrefix = o.headerPrefix || 'Service';
    this.timeout = o.timeout ?? 30000;
    this.maxRetries = o.maxRetries ?? 2;
    this.maxRetryWait = o.maxRetryWait ?? 30000;
    this.recvWindow = o.recvWindow;
    this._sleep = sleep; // replaced in tests
    this._now = () => Date.now();
  }

  // collections
  createCollection(req) { return this._post(PATHS.createCollection, req, true); }
  getCollection(orderNo) { return this._get(PATHS.collectionDetail, { orderNo }); }
  listCollections(q) { return this._get(PATHS.collectionList, q); }
  cancelCollection(orderNo) { return this._post(PATHS.collectionCancel, { orderNo }); }
  // payouts
  createPayout(req) { return this._post(PATHS.createPayout, req); }
  getPayout(orderNo) { return this._get(PATHS.payoutDetail, { orderNo }); }
  createBatchPayout(req) { return this._post(PATHS.batchPayout, req); }
  listPayouts(q) { return this._get(PATHS.payoutList, q); }
  // refunds
  createRefund(req) { return this._post(PATHS.refund, req); }
  getRefund(refundNo) { return this._get(PATHS.refundDetail, { refundNo }); }
  cancelRefund(refundNo) { return this._post(PATHS.refundCancel, { refundNo }); }
  // holdings
  getBalance(q) { return this._get(PATHS.balance, q); }
  getLedger(q) { return this._get(PATHS.ledger, q); }
  // configuration
  getCashierInfo(cashierId) { return this._get(PATHS.cashierInfo, { cashierId }); }
  listNetworks() { return this._get(PATHS.networks, {}, false); }
  listCoins() { return this._get(PATHS.coins, {}, false); }

  _headers(params) {
    const p = this.headerPrefix;
    const t = String(this._now());
    const sig = signRequest(this.secretKey, params, t);
    const h = { [`${p}-API-Key`]: this.apiKey, [`${p}-Request-Time`]: t, [`${p}-Signature-V2`]: sig };
    if (this.recvWindow) h[`${p}-Rec_Window`] = String(this.recvWindow);
    return { h, sig };
  }

  _post(path, req, withSign) {
    const body = fields(req);
    if (Array.isArray(body.orders)) body.orders = body.orders.map(fields);
    checkValue(body, 'body');
    return this._do(() => {
      const { h, sig } = this._headers(body);
      // The body field sign repeats the header signature; it is not signed itself.
      const payload = withSign ? { ...body, [SIGN_FIELD]: sig } : body;
      return { url: this.baseUrl + path, init: { method: 'POST', body: bodyJSON(payload), headers: { ...h, 'Content-Type': 'application/json' } } };
    });
  }

  _get(path, query, signed = true) {
    const q = fields(query);
    checkValue(q, 'query');
    const params = {};
    for (const [k, v] of Object.entries(q)) params[k] = valueText(v);
    return this._do(() => {
      const qs = new URLSearchParams(params).toString();
      const headers = signed ? this._headers(params).h : {};
      return { url: this.baseUrl + path + (qs ? '?' + qs : ''), init: { method: 'GET', headers } };
    });
  }

  async _do(build) {
    for (let attempt = 0; ; attempt++) {
      const { url, init } = build(); // signed anew: each attempt carries a fresh time
      init.headers = { ...init.headers, 'User-Agent': `stablecashier-node/${VERSION}`, Accept: 'application/json' };
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeout) });
      const text = await res.text();
      if (res.status === 503 && attempt < this.maxRetries) {
        await this._sleep(this._retryAfter(res.headers.get('retry-after')));
        continue;
      }
      return result(res.status, res.headers, text);
    }
  }

  _retryAfter(v) {
    let wait = 1000;
    v = (v || '').trim();
    if (/^\d+$/.test(v)) wait = Number(v) * 1000;
    else if (v && !Number.isNaN(Date.parse(v))) wait = Math.max(0, Date.parse(v) - Date.now());
    return Math.min(wait, this.maxRetryWait);
  }
}

function result(status, headers, text) {
  const trace = headers.get('x-request-id') || '';
  let env;
  try {
    env = JSON.parse(text);
  } catch (e) {
    env = undefined;
  }
  if (!env || typeof env !== 'object' || Array.isArray(env)) {
    throw new APIError('', 'response is not a cashier envelope: ' + text.slice(0, 200), status, trace);
  }
  if (!env.success || Math.floor(status / 100) !== 2) {
    throw new APIError(String(env.code || ''), env.msg || env.message || `HTTP ${status}`, status, env.trace || trace);
  }
  return env.data;
}

// A header value by name whatever its case: a plain object (Node's
// IncomingMessage.headers, Express), a Headers instance, or [name, value] pairs.
function header(headers, name) {
  const want = name.toLowerCase();
  if (!headers) return '';
  if (typeof headers.get === 'function' && typeof headers.entries === 'function') return headers.get(name) || '';
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [k, v] of entries) {
    if (String(k).toLowerCase() === want) return Array.isArray(v) ? String(v[0] ?? '') : String(v ?? '');
  }
  return '';
}

/**
 * Verify a webhook; returns the event (the parsed body, with eventType) or
 * throws SignatureError. rawBody is the body as received (Buffer or string),
 * before any parsing. keyOrKeys is the webhook key or, during a key
 * rotation's grace, a list of keys: a valid <P>-Signature-V2 or
 * <P>-Signature-V2-Next under any of them is accepted, with <P>-Request-Time
 * within tolerance seconds (default 300) of now. Process each eventId once.
 */
function verifyWebhook(rawBody, headers, keyOrKeys, opts) {
  const o = opts || {};
  const tolerance = o.tolerance ?? 300;
  const p = o.headerPrefix || 'Service';
  const now = o.now ?? Date.now();
  let body;
  if (Buffer.isBuffer(rawBody) || rawBody instanceof Uint8Array) body = Buffer.from(rawBody);
  else if (typeof rawBody === 'string') body = Buffer.from(rawBody, 'utf8');
  else throw new TypeError('rawBody must be the body as received, a Buffer or a string (not a parsed object)');
  const keys = (Array.isArray(keyOrKeys) ? keyOrKeys : [keyOrKeys]).filter(Boolean);
  if (keys.length === 0) throw new TypeError('no webhook key given');
  const t = header(headers, `${p}-Request-Time`).trim();
  if (!/^\d+$/.test(t)) throw new SignatureError(`${p}-Request-Time is missing or not Unix milliseconds`);
  const age = Math.abs(now - Number(t));
  if (age > tolerance * 1000) throw new SignatureError(`${p}-Request-Time is ${Math.floor(age / 1000)} s away from now (tolerance ${tolerance} s)`);
  const got = [header(headers, `${p}-Signature-V2`), header(headers, `${p}-Signature-V2-Next`)]
    .map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (got.length === 0) throw new SignatureError(`${p}-Signature-V2 is missing`);
  const msg = Buffer.concat([body, Buffer.from('&time=' + t, 'utf8')]);
  let ok = false;
  for (const k of keys) {
    const want = Buffer.from(hmacHex(k, msg), 'utf8');
    for (const g of got) {
      const gb = Buffer.from(g, 'utf8');
      // Every comparison runs, so timing does not tell which matched.
      if (gb.length === want.length && crypto.timingSafeEqual(gb, want)) ok = true;
    }
  }
  if (!ok) throw new SignatureError('signature does not match');
  let ev;
  try {
    ev = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new SignatureError('body is not JSON: ' + e.message);
  }
  if (!ev || typeof ev !== 'object' || !ev.eventId) throw new SignatureError('body has no eventId');
  const hid = header(headers, `${p}-Event-Id`);
  if (hid && hid !== ev.eventId) throw new SignatureError(`${p}-Event-Id ${hid} differs from the signed eventId ${ev.eventId}`);
  if (!ev.event && typeof ev.eventType === 'string') ev.event = ev.eventType.split('.')[0];
  return ev;
}

module.exports = {
  Client, APIError, SignatureError, StableCashierError, verifyWebhook, VERSION,
  _internal: { canonical, signRequest, compactJSON, hmacHex },
};
