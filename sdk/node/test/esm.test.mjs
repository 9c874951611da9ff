// The package works as an ES module too, with the same classes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Client, APIError, SignatureError, verifyWebhook } from '../index.mjs';

test('ESM exports are the CommonJS ones', () => {
  const cjs = createRequire(import.meta.url)('..');
  assert.equal(Client, cjs.Client);
  assert.equal(APIError, cjs.APIError);
  assert.equal(SignatureError, cjs.SignatureError);
  assert.equal(verifyWebhook, cjs.verifyWebhook);
  assert.ok(new Client({ baseUrl: 'http://x', apiKey: 'a', secretKey: 's' }) instanceof cjs.Client);
});
