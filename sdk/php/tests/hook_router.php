<?php
// The sandbox test's webhook receiver: verifies each delivery with the SDK
// and keeps the verified ones (raw body and headers) as files in DIR.
require __DIR__ . '/../autoload.php';
$dir = getenv('TEST_SERVER_DIR');
$raw = file_get_contents('php://input');
try {
    $ev = StableCashier\Webhook::verify($raw, getallheaders(), getenv('WEBHOOK_KEY'));
} catch (StableCashier\SignatureException $e) {
    http_response_code(401);
    echo $e->getMessage();
    return;
}
file_put_contents("$dir/" . $ev['eventId'] . '.json', json_encode(['raw' => $raw, 'headers' => getallheaders()]));
echo 'ok';
