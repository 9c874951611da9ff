<?php
// Receive webhooks with the PHP SDK: verify, then act on eventType.
// Run: php -S 127.0.0.1:8000 sdk-webhook.php (or as your framework's route).
// Needs WEBHOOK_KEY ("old,new" during a key rotation).
require getenv('STABLECASHIER_AUTOLOAD') ?: 'vendor/autoload.php';

$sold = ['amount' => '12.50', 'symbol' => 'USDT']; // look the order up in your database; quickstart orders are 12.50 USDT
$log = fopen('php://stdout', 'w');
try {
    // The raw bytes, before any parsing; headers in any case.
    $ev = StableCashier\Webhook::verify(file_get_contents('php://input'), getallheaders(), explode(',', getenv('WEBHOOK_KEY')));
} catch (StableCashier\SignatureException $e) {
    http_response_code(401);
    return;
}
// Branch on eventType: a refund's SUCCESS is not a payment's.
// Deduplicate on $ev['eventId']: a delivery may arrive more than once.
if ($ev['eventType'] === 'payment.success') {
    if ($ev['amount'] !== $sold['amount'] || $ev['symbol'] !== $sold['symbol']) {
        fwrite($log, "mismatch {$ev['orderNo']}: {$ev['amount']} {$ev['symbol']}, not shipped\n");
    } else {
        fwrite($log, "verified {$ev['orderNo']} SUCCESS\n"); // ship the goods here
    }
} elseif ($ev['event'] === 'refund') {
    fwrite($log, "refund {$ev['refundNo']} of {$ev['orderNo']} {$ev['status']}\n");
} else {
    fwrite($log, "noted {$ev['eventType']} {$ev['orderNo']}\n");
}
echo 'ok';
