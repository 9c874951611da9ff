<?php

declare(strict_types=1);

namespace StableCashier\Tests;

use PHPUnit\Framework\TestCase;
use StableCashier\ApiException;
use StableCashier\Client;
use StableCashier\SignatureException;
use StableCashier\Signer;
use StableCashier\Webhook;

/** Signing against the service's vectors, the transport against a local fake, webhooks. */
final class UnitTest extends TestCase
{
    private static array $v;
    private ?Server $server = null;
    private array $slept = [];

    public static function setUpBeforeClass(): void
    {
        self::$v = json_decode(file_get_contents(__DIR__ . '/../../testdata/vectors.json'), true);
    }

    protected function tearDown(): void
    {
        $this->server?->stop();
    }

    /** A fake answering $script (status, headers, body) in order. */
    private function fake(array $script): Server
    {
        $this->server = new Server(__DIR__ . '/fake_router.php');
        file_put_contents($this->server->dir . '/script.json', json_encode($script));
        touch($this->server->dir . '/requests.jsonl');
        return $this->server;
    }

    private function requests(): array
    {
        return array_map(fn ($l) => json_decode($l, true), file($this->server->dir . '/requests.jsonl', FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES));
    }

    private function client(Server $s, string $secret, string $t, array $opts = []): Client
    {
        return new Client($s->url . '/', 'pk_test', $secret, $opts + [
            'clock' => fn () => (int) $t,
            'sleep' => function (float $s) {
                $this->slept[] = $s;
            },
        ]);
    }

    private static function ok($data): array
    {
        return [200, ['Content-Type' => 'application/json'], json_encode(['code' => '0', 'success' => true, 'msg' => '', 'data' => $data])];
    }

    public function testCanonicalTextAndSignatureMatchTheService(): void
    {
        foreach (self::$v['request'] as $v) {
            $this->assertSame($v['canonical'], Signer::canonical($v['params'], $v['time']), $v['name']);
            $this->assertSame($v['signature'], Signer::sign($v['secret'], $v['params'], $v['time']), $v['name']);
        }
    }

    public function testCreateCollectionIsSignedAsTheServiceVerifies(): void
    {
        $v = self::$v['request'][0];
        $s = $this->fake([self::ok(['orderNo' => 'A1001'])]);
        $got = $this->client($s, $v['secret'], $v['time'])->createCollection($v['params']);
        $this->assertSame(['orderNo' => 'A1001'], $got);
        $r = $this->requests()[0];
        $this->assertSame(['POST', '/order/api/v2/pay/order'], [$r['method'], $r['uri']]);
        $this->assertSame('pk_test', $r['headers']['service-api-key']);
        $this->assertSame($v['time'], $r['headers']['service-request-time']);
        $this->assertSame($v['signature'], $r['headers']['service-signature-v2']);
        $sent = json_decode($r['body'], true);
        $this->assertSame($v['signature'], $sent['sign']);
        unset($sent['sign']);
        $this->assertSame($v['params'], $sent);
    }

    public function testBatchSignsNestedOrdersAndGetWithBrandPrefix(): void
    {
        $b = self::$v['request'][4];
        $q = self::$v['request'][1];
        $s = $this->fake([self::ok(['successCount' => 2]), self::ok(['list' => []])]);
        $this->client($s, $b['secret'], $b['time'])->createBatchPayout(['contractId' => 'k_1', 'orders' => $b['params']['orders']]);
        $this->client($s, $q['secret'], $q['time'], ['headerPrefix' => 'Acme'])->listCollections();
        [$batch, $list] = $this->requests();
        $this->assertSame($b['signature'], $batch['headers']['service-signature-v2']);
        $this->assertSame('/order/api/v2/payorder/list', $list['uri']);
        $this->assertSame($q['signature'], $list['headers']['acme-signature-v2']);
        $this->assertSame('pk_test', $list['headers']['acme-api-key']);
        $this->assertArrayNotHasKey('service-api-key', $list['headers']);
    }

    public function testQueryIsSignedRawAndSentEncoded(): void
    {
        $s = $this->fake([self::ok([])]);
        $this->client($s, 's', '1772366400000')->getCollection('R 2&x');
        $r = $this->requests()[0];
        $this->assertSame('/order/api/v2/payorder/detail?orderNo=R%202%26x', $r['uri']);
        $this->assertSame(hash_hmac('sha256', 'orderNo=R 2&x&time=1772366400000', 's'), $r['headers']['service-signature-v2']);
    }

    public function test503IsRetriedAfterRetryAfterThenGivenUp(): void
    {
        $busy = [503, ['Retry-After' => '2', 'Content-Type' => 'application/json'], '{"code":"ERROR_000503","success":false,"msg":"busy","data":null}'];
        $s = $this->fake([$busy, self::ok(['orderNo' => 'A1']), $busy, $busy, $busy]);
        $c = $this->client($s, 's', '1772366400000');
        $got = $c->createPayout(['contractId' => 'k', 'orderNo' => 'A1', 'recipient' => '0x1', 'amount' => '1.00', 'symbol' => 'USDT']);
        $this->assertSame('A1', $got['orderNo']);
        $this->assertSame([2.0], $this->slept);
        $r = $this->requests();
        $this->assertSame($r[0]['body'], $r[1]['body']);
        try {
            $c->getPayout('A1');
            $this->fail('no exception');
        } catch (ApiException $e) {
            $this->assertSame([503, 'ERROR_000503'], [$e->getStatus(), $e->getApiCode()]);
        }
        $this->assertCount(5, $this->requests());
        $this->assertSame([2.0, 2.0, 2.0], $this->slept);
    }

    public function testRefusalIsATypedErrorWithTheServersCodeAndMessage(): void
    {
        $s = $this->fake([
            [409, ['Content-Type' => 'application/json'], '{"code":"000201","success":false,"msg":"order number A1 exists already","trace":"tr_9","data":null}'],
            [502, [], '<html>bad gateway</html>'],
        ]);
        $c = $this->client($s, 's', '1');
        try {
            $c->createRefund(['orderNo' => 'A1', 'refundNo' => 'R1', 'amount' => '1.00']);
            $this->fail('no exception');
        } catch (ApiException $e) {
            $this->assertSame(['000201', 'order number A1 exists already', 409, 'tr_9'], [$e->getApiCode(), $e->getMessage(), $e->getStatus(), $e->getTraceId()]);
        }
        try {
            $c->listCoins();
            $this->fail('no exception');
        } catch (ApiException $e) {
            $this->assertSame([502, ''], [$e->getStatus(), $e->getApiCode()]);
            $this->assertStringContainsString('bad gateway', $e->getMessage());
        }
    }

    public function testAFloatAmountSendsNothing(): void
    {
        $s = $this->fake([]);
        try {
            $this->client($s, 's', '1')->createCollection(['cashierId' => 'c', 'orderNo' => 'A', 'amount' => 12.5, 'symbol' => 'USDT']);
            $this->fail('no exception');
        } catch (\InvalidArgumentException $e) {
            $this->assertStringContainsString('float', $e->getMessage());
        }
        $this->assertSame([], $this->requests());
    }

    public function testWebhookVerifiedWithItsEventTypeHeadersInAnyCase(): void
    {
        [$w1, $w2] = self::$v['webhook'];
        $ev = Webhook::verify($w1['body'], ['service-request-time' => $w1['time'], 'SERVICE-SIGNATURE-V2' => [$w1['signatureV2']]], $w1['key'], 300, 'Service', (int) $w1['time']);
        $this->assertSame(['payment.success', 'payment', 'C202503225', '100.00'], [$ev['eventType'], $ev['event'], $ev['orderNo'], $ev['amount']]);
        $server = ['HTTP_SERVICE_REQUEST_TIME' => $w2['time'], 'HTTP_SERVICE_SIGNATURE_V2' => $w2['signatureV2']];
        $this->assertSame('refund.success', Webhook::verify($w2['body'], $server, [$w2['key']], 300, 'Service', (int) $w2['time'])['eventType']);
    }

    /** @dataProvider refusals */
    public function testWebhookRefusals(callable $change): void
    {
        $w1 = self::$v['webhook'][0];
        $args = ['body' => $w1['body'], 'headers' => ['Service-Request-Time' => $w1['time'], 'Service-Signature-V2' => $w1['signatureV2']],
            'keys' => $w1['key'], 'tolerance' => 300, 'now' => (int) $w1['time']];
        $args = $change($args);
        $this->expectException(SignatureException::class);
        Webhook::verify($args['body'], $args['headers'], $args['keys'], $args['tolerance'], 'Service', $args['now']);
    }

    public static function refusals(): array
    {
        return [
            'tampered body' => [fn ($a) => ['body' => str_replace('100.00', '900.00', $a['body'])] + $a],
            'wrong key' => [fn ($a) => ['keys' => 'whk_other'] + $a],
            'stale' => [fn ($a) => ['now' => $a['now'] + 301000] + $a],
            'tolerance' => [fn ($a) => ['now' => $a['now'] + 60000, 'tolerance' => 30] + $a],
            'no time' => [fn ($a) => ['headers' => ['Service-Signature-V2' => $a['headers']['Service-Signature-V2']]] + $a],
            'other event id' => [fn ($a) => ['headers' => $a['headers'] + ['Service-Event-Id' => 'evt_other']] + $a],
        ];
    }

    public function testWebhookWithinTolerance(): void
    {
        $w1 = self::$v['webhook'][0];
        $ev = Webhook::verify($w1['body'], ['Service-Request-Time' => $w1['time'], 'Service-Signature-V2' => $w1['signatureV2']], $w1['key'], 300, 'Service', (int) $w1['time'] + 299000);
        $this->assertSame('evt_8e0f4b1c2d3a4958a6b7c8d9', $ev['eventId']);
    }

    public function testWebhookKeyGraceEitherV2HeaderUnderAnyKey(): void
    {
        [$old, , $new] = self::$v['webhook'];
        $this->assertSame([$old['body'], $old['time']], [$new['body'], $new['time']]);
        $now = (int) $old['time'];
        $during = ['Service-Request-Time' => $old['time'], 'Service-Signature-V2' => $old['signatureV2'], 'Service-Signature' => $old['signature'],
            'Service-Signature-V2-Next' => $new['signatureV2'], 'Service-Signature-Next' => $new['signature']];
        foreach ([[$old['key']], [$new['key']], [$old['key'], $new['key']], [$new['key'], 'whk_other']] as $keys) {
            $this->assertSame('evt_8e0f4b1c2d3a4958a6b7c8d9', Webhook::verify($old['body'], $during, $keys, 300, 'Service', $now)['eventId']);
        }
        try {
            Webhook::verify($old['body'], $during, ['whk_other', 'whk_third'], 300, 'Service', $now);
            $this->fail('verified under keys that signed nothing');
        } catch (SignatureException $e) {
            $this->assertStringContainsString('does not match', $e->getMessage());
        }
        $onlyNext = ['service-request-time' => $new['time'], 'service-signature-v2' => str_repeat('0', 64), 'service-signature-v2-next' => $new['signatureV2']];
        Webhook::verify($new['body'], $onlyNext, [$new['key']], 300, 'Service', $now);
        $this->expectException(SignatureException::class);
        Webhook::verify($new['body'], $onlyNext, [$old['key']], 300, 'Service', $now);
    }

    public function testWebhookBrandPrefix(): void
    {
        $w1 = self::$v['webhook'][0];
        $h = ['Acme-Request-Time' => $w1['time'], 'acme-signature-v2' => $w1['signatureV2']];
        $this->assertSame('payment.success', Webhook::verify($w1['body'], $h, $w1['key'], 300, 'Acme', (int) $w1['time'])['eventType']);
        $this->expectException(SignatureException::class);
        Webhook::verify($w1['body'], $h, $w1['key'], 300, 'Service', (int) $w1['time']);
    }
}
