<?php

declare(strict_types=1);

namespace StableCashier\Tests;

use PHPUnit\Framework\TestCase;
use StableCashier\ApiException;
use StableCashier\Client;
use StableCashier\SignatureException;
use StableCashier\Webhook;

/**
 * The merchant program against a running sandbox (scripts/sdk-check.sh starts
 * one). Needs CASHIER_SANDBOX (its data directory), CASHIER_BIN (the cashier
 * binary, for `sandbox pay`) and CASHIER_HOOK_PORT (the port of the sandbox
 * cashier's webhook URL); skipped without them unless
 * CASHIER_SDK_REQUIRE_SANDBOX=1 makes that a failure.
 */
final class SandboxTest extends TestCase
{
    public function testMerchantProgram(): void
    {
        $env = ['CASHIER_SANDBOX', 'CASHIER_BIN', 'CASHIER_HOOK_PORT'];
        foreach ($env as $k) {
            if (!getenv($k)) {
                if (getenv('CASHIER_SDK_REQUIRE_SANDBOX') === '1') {
                    $this->fail('the sandbox test needs ' . implode(', ', $env));
                }
                $this->markTestSkipped('needs a sandbox: ' . implode(', ', $env));
            }
        }
        $data = getenv('CASHIER_SANDBOX');
        $info = json_decode(file_get_contents("$data/sandbox.json"), true);
        $hook = new Server(__DIR__ . '/hook_router.php', ['WEBHOOK_KEY' => $info['webhookKey']], (int) getenv('CASHIER_HOOK_PORT'));
        try {
            $this->program($data, $info, $hook);
        } finally {
            $hook->stop();
        }
    }

    private function program(string $data, array $info, Server $hook): void
    {
        $c = new Client($info['baseUrl'], $info['apiKey'], $info['secretKey']);
        $orderNo = 'SDK-PHP-' . (int) floor(microtime(true) * 1000);
        $req = ['cashierId' => $info['cashierId'], 'orderNo' => $orderNo, 'amount' => '3.25', 'symbol' => 'USDT', 'chainId' => 'ETH'];
        $created = $c->createCollection($req);
        $this->assertSame($orderNo, $created['orderNo']);
        $this->assertStringStartsWith('0x', $created['address']);
        $detail = $c->getCollection($orderNo);
        $this->assertSame([$orderNo, 'PENDING', '3.25'], [$detail['orderNo'], $detail['status'], $detail['amount']]);

        try {
            $c->createCollection($req);
            $this->fail('the duplicate was not refused');
        } catch (ApiException $e) {
            $this->assertSame(['000201', 409], [$e->getApiCode(), $e->getStatus()]);
            $this->assertStringContainsString($orderNo, $e->getMessage());
            $this->assertNotSame('', $e->getTraceId());
        }

        exec(escapeshellarg(getenv('CASHIER_BIN')) . ' sandbox pay --data ' . escapeshellarg($data) . ' --order ' . escapeshellarg($orderNo) . ' 2>&1', $out, $rc);
        $this->assertSame(0, $rc, implode("\n", $out));
        $success = null;
        for ($deadline = microtime(true) + 90; $success === null && microtime(true) < $deadline; usleep(200000)) {
            foreach (glob($hook->dir . '/evt_*.json') ?: [] as $f) {
                $d = json_decode(file_get_contents($f), true);
                $ev = json_decode($d['raw'], true);
                if ($ev['orderNo'] === $orderNo && $ev['eventType'] === 'payment.success') {
                    $success = $d;
                }
            }
        }
        $this->assertNotNull($success, "no verified payment.success webhook for $orderNo");
        $ev = Webhook::verify($success['raw'], $success['headers'], $info['webhookKey']);
        $this->assertSame(['3.25', '3.25', 'USDT', 'SUCCESS'], [$ev['amount'], $ev['paidAmount'], $ev['symbol'], $ev['status']]);
        $tampered = str_replace('"paidAmount":"3.25"', '"paidAmount":"9.25"', $success['raw']);
        $this->assertNotSame($success['raw'], $tampered);
        try {
            Webhook::verify($tampered, $success['headers'], $info['webhookKey']);
            $this->fail('a tampered body verified');
        } catch (SignatureException $e) {
            $this->assertStringContainsString('does not match', $e->getMessage());
        }
        $this->assertSame('SUCCESS', $c->getCollection($orderNo)['status']);

        $customer = $info['wallets']['customer']['evmAddress'];
        $payout = $c->createPayout(['contractId' => $info['contractIds']['ETH'], 'orderNo' => $orderNo, 'recipient' => $customer, 'amount' => '1.00', 'symbol' => 'USDT']);
        $this->assertSame($orderNo, $payout['orderNo']);
        $got = $c->getPayout($orderNo);
        $this->assertSame([$orderNo, '1.00'], [$got['orderNo'], $got['amount']]);

        $refund = $c->createRefund(['orderNo' => $orderNo, 'refundNo' => "RF-$orderNo", 'amount' => '1.25', 'address' => $customer]);
        $this->assertSame(["RF-$orderNo", '1.25'], [$refund['refundNo'], $refund['amount']]);
        $this->assertSame("RF-$orderNo", $c->getRefund("RF-$orderNo")['refundNo']);
    }
}
