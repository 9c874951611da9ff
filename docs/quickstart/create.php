<?php
// Create a collection order and read it back (PHP 7.4 or later; curl or
// plain streams are both fine, this uses streams).
// Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
$url = getenv('CASHIER_URL');
$apiKey = getenv('API_KEY');
$secret = getenv('SECRET_KEY');

// Service-* headers: HMAC-SHA256 of key=value pairs sorted by key, then &time=.
// The values are raw, not URL-encoded (so not http_build_query).
function signedHeaders(array $params, string $apiKey, string $secret): array {
    $t = (string) intdiv((int) (microtime(true) * 1000000), 1000);
    ksort($params, SORT_STRING);
    $pairs = [];
    foreach ($params as $k => $v) {
        $pairs[] = "$k=$v";
    }
    $sig = hash_hmac('sha256', implode('&', $pairs) . "&time=$t", $secret);
    return ["Service-API-Key: $apiKey", "Service-Request-Time: $t", "Service-Signature-V2: $sig"];
}

function call(string $method, string $path, array $params, string $url, string $apiKey, string $secret) {
    $headers = signedHeaders($params, $apiKey, $secret);
    $opts = ['method' => $method, 'ignore_errors' => true];
    if ($method === 'POST') {
        $opts['content'] = json_encode($params);
        $headers[] = 'Content-Type: application/json';
    } else {
        $path .= '?' . http_build_query($params);
    }
    $opts['header'] = implode("\r\n", $headers);
    return json_decode(file_get_contents($url . $path, false, stream_context_create(['http' => $opts])), true);
}

$orderNo = getenv('ORDER_NO');
echo json_encode(call('POST', '/order/api/v2/pay/order', [
    'cashierId' => getenv('CASHIER_ID'), 'orderNo' => $orderNo,
    'amount' => '12.50', 'symbol' => 'USDT', 'chainId' => 'ETH'], $url, $apiKey, $secret)), "\n";
echo json_encode(call('GET', '/order/api/v2/payorder/detail', ['orderNo' => $orderNo], $url, $apiKey, $secret)), "\n";
