'use strict';
// The merchant program against a running sandbox (scripts/sdk-check.sh starts
// one). Needs CASHIER_SANDBOX (its data directory), CASHIER_BIN (the cashier
// binary, for `sandbox pay`) and CASHIER_HOOK_PORT (the port of the sandbox
// cashier's webhook URL); skipped without them unless
// CASHIER_SDK_REQUIRE_SANDBOX=1 makes that a failure.
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Client, APIError, SignatureError, verifyWebhook } = require('..');

const ENV = ['CASHIER_SANDBOX', 'CASHIER_BIN', 'CASHIER_HOOK_PORT'];
const have = ENV.every((k) => process.env[k]);
if (!have && process.env.CASHIER_SDK_REQUIRE_SANDBOX === '1') throw new Error('the sandbox test needs ' + ENV.join(', '));

test('merchant program: collection, duplicate, webhook, payout, refund', { skip: !have && 'needs a sandbox: ' + ENV.join(', ') }, async (t) => {
  const data = process.env.CASHIER_SANDBOX;
  const info = JSON.parse(fs.readFileSync(path.join(data, 'sandbox.json'), 'utf8'));
  const received = []; // verified deliveries: { raw, headers, ev }
  const hook = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const ev = verifyWebhook(raw, req.headers, info.webhookKey);
        received.push({ raw, headers: req.headers, ev });
        res.writeHead(200).end('ok');
      } catch (e) {
        res.writeHead(401).end(String(e.message));
      }
    });
  });
  await new Promise((r) => hook.listen(Number(process.env.CASHIER_HOOK_PORT), '127.0.0.1', r));
  t.after(() => { hook.closeAllConnections(); hook.close(); });

  const c = new Client({ baseUrl: info.baseUrl, apiKey: info.apiKey, secretKey: info.secretKey });
  const orderNo = `SDK-NODE-${Date.now()}`;
  const req = { cashierId: info.cashierId, orderNo, amount: '3.25', symbol: 'USDT', chainId: 'ETH' };
  const created = await c.createCollection(req);
  assert.equal(created.orderNo, orderNo);
  assert.match(created.address, /^0x/);
  const detail = await c.getCollection(orderNo);
  assert.deepEqual([detail.orderNo, detail.status, detail.amount], [orderNo, 'PENDING', '3.25']);

  await assert.rejects(c.createCollection(req), (e) => {
    assert.ok(e instanceof APIError);
    assert.deepEqual([e.code, e.status], ['000201', 409]);
    assert.ok(e.message.includes(orderNo), e.message);
    assert.ok(e.trace);
    return true;
  });

  execFileSync(process.env.CASHIER_BIN, ['sandbox', 'pay', '--data', data, '--order', orderNo], { stdio: 'pipe' });
  let success;
  for (const deadline = Date.now() + 90000; !success && Date.now() < deadline;) {
    success = received.find((r) => r.ev.orderNo === orderNo && r.ev.eventType === 'payment.success');
    if (!success) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(success, `no verified payment.success webhook for ${orderNo}`);
  const { raw, headers, ev } = success;
  assert.deepEqual([ev.amount, ev.paidAmount, ev.symbol, ev.status], ['3.25', '3.25', 'USDT', 'SUCCESS']);
  const tampered = Buffer.from(raw.toString().replace('"paidAmount":"3.25"', '"paidAmount":"9.25"'));
  assert.notDeepEqual(tampered, raw);
  assert.throws(() => verifyWebhook(tampered, headers, info.webhookKey), SignatureError);
  assert.equal((await c.getCollection(orderNo)).status, 'SUCCESS');

  const customer = info.wallets.customer.evmAddress;
  const payout = await c.createPayout({ contractId: info.contractIds.ETH, orderNo, recipient: customer, amount: '1.00', symbol: 'USDT' });
  assert.equal(payout.orderNo, orderNo);
  const got = await c.getPayout(orderNo);
  assert.deepEqual([got.orderNo, got.amount], [orderNo, '1.00']);

  const refund = await c.createRefund({ orderNo, refundNo: `RF-${orderNo}`, amount: '1.25', address: customer });
  assert.deepEqual([refund.refundNo, refund.amount], [`RF-${orderNo}`, '1.25']);
  assert.equal((await c.getRefund(`RF-${orderNo}`)).refundNo, `RF-${orderNo}`);
});
