'use strict';
// Unit tests: signing against the service's vectors, the transport against a
// local fake, webhooks (including the key grace's -Next headers).
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const path = require('node:path');
const { Client, APIError, SignatureError, verifyWebhook, _internal } = require('..');
const V = require(path.join(__dirname, '..', '..', 'testdata', 'vectors.json'));

function fake(script) {
  const requests = [];
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const [status, headers, body] = script.shift() || [500, {}, 'script ran out'];
      res.writeHead(status, headers).end(body);
    });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${srv.address().port}`, requests, close: () => { srv.closeAllConnections(); srv.close(); },
  })));
}
const ok = (data) => [200, { 'Content-Type': 'application/json' }, JSON.stringify({ code: '0', success: true, msg: '', data })];

function client(f, secret, t, opts) {
  const c = new Client({ baseUrl: f.url + '/', apiKey: 'pk_test', secretKey: secret, ...opts });
  c._now = () => Number(t);
  c.slept = [];
  c._sleep = async (ms) => { c.slept.push(ms); };
  return c;
}

test('canonical text and signature match the service', () => {
  for (const v of V.request) {
    assert.equal(_internal.canonical(v.params, v.time), v.canonical, v.name);
    assert.equal(_internal.signRequest(v.secret, v.params, v.time), v.signature, v.name);
  }
});

test('createCollection is signed as the service verifies', async (t) => {
  const v = V.request[0];
  const f = await fake([ok({ orderNo: 'A1001' })]);
  t.after(f.close);
  const p = v.params;
  const got = await client(f, v.secret, v.time).createCollection({ cashierId: p.cashierId, orderNo: p.orderNo, amount: p.amount, symbol: p.symbol, chainId: p.chainId });
  assert.deepEqual(got, { orderNo: 'A1001' });
  const r = f.requests[0];
  assert.equal(r.method, 'POST');
  assert.equal(r.url, '/order/api/v2/pay/order');
  assert.equal(r.headers['service-api-key'], 'pk_test');
  assert.equal(r.headers['service-request-time'], v.time);
  assert.equal(r.headers['service-signature-v2'], v.signature);
  const sent = JSON.parse(r.body);
  assert.equal(sent.sign, v.signature);
  delete sent.sign;
  assert.deepEqual(sent, p);
});

test('batch payouts sign nested orders; GET without parameters; brand prefix', async (t) => {
  const b = V.request[4];
  const q = V.request[1];
  const f = await fake([ok({ successCount: 2 }), ok({ list: [] })]);
  t.after(f.close);
  await client(f, b.secret, b.time).createBatchPayout({ contractId: 'k_1', orders: b.params.orders });
  assert.equal(f.requests[0].headers['service-signature-v2'], b.signature);
  await client(f, q.secret, q.time, { headerPrefix: 'Acme' }).listCollections();
  const r = f.requests[1];
  assert.equal(r.url, '/order/api/v2/payorder/list');
  assert.equal(r.headers['acme-signature-v2'], q.signature);
  assert.equal(r.headers['acme-api-key'], 'pk_test');
  assert.equal(r.headers['service-api-key'], undefined);
});

test('a query is signed raw and sent encoded', async (t) => {
  const f = await fake([ok({})]);
  t.after(f.close);
  await client(f, 's', '1772366400000').getCollection('R 2&x');
  assert.equal(f.requests[0].url, '/order/api/v2/payorder/detail?orderNo=R+2%26x');
  assert.equal(f.requests[0].headers['service-signature-v2'], _internal.hmacHex('s', 'orderNo=R 2&x&time=1772366400000'));
});

test('503 is retried after Retry-After, then given up', async (t) => {
  const busy = [503, { 'Retry-After': '2', 'Content-Type': 'application/json' }, '{"code":"ERROR_000503","success":false,"msg":"busy","data":null}'];
  const f = await fake([busy, ok({ orderNo: 'A1' }), busy, busy, busy]);
  t.after(f.close);
  const c = client(f, 's', '1772366400000');
  const got = await c.createPayout({ contractId: 'k', orderNo: 'A1', recipient: '0x1', amount: '1.00', symbol: 'USDT' });
  assert.equal(got.orderNo, 'A1');
  assert.deepEqual(c.slept, [2000]);
  assert.equal(f.requests[0].body, f.requests[1].body);
  await assert.rejects(c.getPayout('A1'), (e) => e instanceof APIError && e.status === 503 && e.code === 'ERROR_000503');
  assert.equal(f.requests.length, 5);
  assert.deepEqual(c.slept, [2000, 2000, 2000]);
});

test('a refusal is an APIError with the server code and message; a non-envelope too', async (t) => {
  const f = await fake([
    [409, { 'Content-Type': 'application/json' }, '{"code":"000201","success":false,"msg":"order number A1 exists already","trace":"tr_9","data":null}'],
    [502, {}, '<html>bad gateway</html>'],
  ]);
  t.after(f.close);
  const c = client(f, 's', '1');
  await assert.rejects(c.createRefund({ orderNo: 'A1', refundNo: 'R1', amount: '1.00' }), (e) => {
    assert.ok(e instanceof APIError);
    assert.deepEqual([e.code, e.message, e.status, e.trace], ['000201', 'order number A1 exists already', 409, 'tr_9']);
    return true;
  });
  await assert.rejects(c.listCoins(), (e) => e instanceof APIError && e.status === 502 && e.code === '' && /bad gateway/.test(e.message));
});

test('a number amount sends nothing', async (t) => {
  const f = await fake([]);
  t.after(f.close);
  assert.throws(() => client(f, 's', '1').createCollection({ cashierId: 'c', orderNo: 'A', amount: 12.5, symbol: 'USDT' }), TypeError);
  assert.equal(f.requests.length, 0);
});

const [w1, w2, wNext] = V.webhook;
const at = (v) => Number(v.time);

test('webhook: verified, eventType exposed, headers in any case', () => {
  const ev = verifyWebhook(Buffer.from(w1.body), { 'service-request-time': w1.time, 'SERVICE-SIGNATURE-V2': w1.signatureV2 }, w1.key, { now: at(w1) });
  assert.deepEqual([ev.eventType, ev.event, ev.orderNo, ev.amount], ['payment.success', 'payment', 'C202503225', '100.00']);
  const h = new Headers({ 'Service-Request-Time': w2.time, 'Service-Signature-V2': w2.signatureV2 });
  assert.equal(verifyWebhook(w2.body, h, [w2.key], { now: at(w2) }).eventType, 'refund.success');
  assert.equal(verifyWebhook(w2.body, [['Service-Request-Time', w2.time], ['service-signature-v2', w2.signatureV2]], w2.key, { now: at(w2) }).eventType, 'refund.success');
});

test('webhook: tampered body, wrong key, stale time, missing time, other event id are refused', () => {
  const h = { 'Service-Request-Time': w1.time, 'Service-Signature-V2': w1.signatureV2 };
  const now = at(w1);
  assert.throws(() => verifyWebhook(w1.body.replace('100.00', '900.00'), h, w1.key, { now }), SignatureError);
  assert.throws(() => verifyWebhook(w1.body, h, 'whk_other', { now }), SignatureError);
  assert.throws(() => verifyWebhook(w1.body, h, w1.key, { now: now + 301000 }), SignatureError);
  verifyWebhook(w1.body, h, w1.key, { now: now + 299000 });
  assert.throws(() => verifyWebhook(w1.body, h, w1.key, { now: now + 60000, tolerance: 30 }), SignatureError);
  assert.throws(() => verifyWebhook(w1.body, { 'Service-Signature-V2': w1.signatureV2 }, w1.key, { now }), SignatureError);
  assert.throws(() => verifyWebhook(w1.body, { ...h, 'Service-Event-Id': 'evt_other' }, w1.key, { now }), SignatureError);
  assert.throws(() => verifyWebhook(JSON.parse(w1.body), h, w1.key, { now }), TypeError);
});

test('webhook key grace: either V2 header under any of the keys', () => {
  assert.equal(w1.body, wNext.body);
  assert.equal(w1.time, wNext.time);
  const during = {
    'Service-Request-Time': w1.time, 'Service-Signature-V2': w1.signatureV2, 'Service-Signature': w1.signature,
    'Service-Signature-V2-Next': wNext.signatureV2, 'Service-Signature-Next': wNext.signature,
  };
  const now = at(w1);
  for (const keys of [[w1.key], [wNext.key], [w1.key, wNext.key], [wNext.key, 'whk_other']]) {
    assert.equal(verifyWebhook(w1.body, during, keys, { now }).eventId, 'evt_8e0f4b1c2d3a4958a6b7c8d9', String(keys));
  }
  assert.throws(() => verifyWebhook(w1.body, during, ['whk_other', 'whk_third'], { now }), SignatureError);
  const onlyNext = { 'service-request-time': w1.time, 'service-signature-v2': '0'.repeat(64), 'service-signature-v2-next': wNext.signatureV2 };
  verifyWebhook(w1.body, onlyNext, [wNext.key], { now });
  assert.throws(() => verifyWebhook(w1.body, onlyNext, [w1.key], { now }), SignatureError);
});

test('webhook: brand prefix', () => {
  const h = { 'Acme-Request-Time': w1.time, 'acme-signature-v2': w1.signatureV2 };
  verifyWebhook(w1.body, h, w1.key, { headerPrefix: 'Acme', now: at(w1) });
  assert.throws(() => verifyWebhook(w1.body, h, w1.key, { now: at(w1) }), SignatureError);
});
