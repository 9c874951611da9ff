<?php
// Answers from DIR/script.json, one entry per request in order, and records
// each request as a line of DIR/requests.jsonl.
$dir = getenv('TEST_SERVER_DIR');
$script = json_decode(file_get_contents("$dir/script.json"), true);
$n = count(file("$dir/requests.jsonl", FILE_SKIP_EMPTY_LINES) ?: []);
$headers = [];
foreach (getallheaders() as $k => $v) {
    $headers[strtolower($k)] = $v;
}
file_put_contents("$dir/requests.jsonl", json_encode(['method' => $_SERVER['REQUEST_METHOD'], 'uri' => $_SERVER['REQUEST_URI'],
    'headers' => $headers, 'body' => file_get_contents('php://input')]) . "\n", FILE_APPEND);
[$status, $h, $body] = $script[$n] ?? [500, [], 'script ran out'];
http_response_code($status);
foreach ($h as $k => $v) {
    header("$k: $v");
}
echo $body;
