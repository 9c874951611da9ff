<?php
// Create a collection order and read it back with the PHP SDK (Composer's
// stablecashier/sdk, or sdk/php/autoload.php without Composer).
// Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
require getenv('STABLECASHIER_AUTOLOAD') ?: 'vendor/autoload.php';

$client = new StableCashier\Client(getenv('CASHIER_URL'), getenv('API_KEY'), getenv('SECRET_KEY'));
$orderNo = getenv('ORDER_NO');
try {
    $created = $client->createCollection(['cashierId' => getenv('CASHIER_ID'), 'orderNo' => $orderNo,
        'amount' => '12.50', 'symbol' => 'USDT', 'chainId' => 'ETH']);
} catch (StableCashier\ApiException $e) { // the service's own code and reason
    fwrite(STDERR, "refused: {$e->getApiCode()} {$e->getMessage()} (HTTP {$e->getStatus()})\n");
    exit(1);
}
echo json_encode($created), "\n";
echo json_encode($client->getCollection($orderNo)), "\n";
