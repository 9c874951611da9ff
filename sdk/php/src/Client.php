<?php

declare(strict_types=1);

namespace StableCashier;

/**
 * Calls one cashier deployment for one merchant.
 *
 *     $c = new StableCashier\Client('https://pay.example.com', $apiKey, $secretKey);
 *     $order = $c->createCollection(['cashierId' => 'c_…', 'orderNo' => 'A1001', 'amount' => '12.50', 'symbol' => 'USDT', 'chainId' => 'ETH']);
 *
 * Requests are signed as the service verifies them. A 503 answer (the service
 * shedding load; the request was not processed) is retried up to maxRetries
 * times after its Retry-After. Refusals throw ApiException. Results are arrays
 * with the API's own field names. Options: headerPrefix ("Service"), timeout
 * (seconds, 30), maxRetries (2), maxRetryWait (seconds, 30), recvWindow (ms).
 */
class Client
{
    public const VERSION = '1.0.0';

    public const PATH_CREATE_COLLECTION = '/order/api/v2/pay/order';
    public const PATH_COLLECTION_DETAIL = '/order/api/v2/payorder/detail';
    public const PATH_COLLECTION_LIST = '/order/api/v2/payorder/list';
    public const PATH_COLLECTION_CANCEL = '/order/api/v2/payorder/cancel';
    public const PATH_CREATE_PAYOUT = '/order/api/v2/payout/order';
    public const PATH_PAYOUT_DETAIL = '/order/api/v2/payout/detail';
    public const PATH_PAYOUT_LIST = '/order/api/v2/payout/list';
    public const PATH_BATCH_PAYOUT = '/order/api/v2/payout/batch';
    public const PATH_REFUND = '/order/api/v2/refund';
    public const PATH_REFUND_DETAIL = '/order/api/v2/refund/detail';
    public const PATH_REFUND_CANCEL = '/order/api/v2/refund/cancel';
    public const PATH_BALANCE = '/order/api/v2/balance';
    public const PATH_LEDGER = '/order/api/v2/ledger';
    public const PATH_CASHIER_INFO = '/admin/api/v2/pub/cashier/info';
    public const PATH_COINS = '/admin/api/v2/pub/coin/list';
    public const PATH_NETWORKS = '/admin/api/v2/pub/network/list';

    private string $baseUrl;
    private string $apiKey;
    private string $secretKey;
    private string $prefix;
    private float $timeout;
    private int $maxRetries;
    private float $maxRetryWait;
    private ?int $recvWindow;
    /** @var callable(float): void */
    private $sleep;
    /** @var callable(): int */
    private $clock;

    public function __construct(string $baseUrl, string $apiKey, string $secretKey, array $options = [])
    {
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->apiKey = $apiKey;
        $this->secretKey = $secretKey;
        $this->prefix = $options['headerPrefix'] ?? 'Service';
        $this->timeout = (float) ($options['timeout'] ?? 30);
        $this->maxRetries = (int) ($options['maxRetries'] ?? 2);
        $this->maxRetryWait = (float) ($options['maxRetryWait'] ?? 30);
        $this->recvWindow = isset($options['recvWindow']) ? (int) $options['recvWindow'] : null;
        $this->sleep = $options['sleep'] ?? static function (float $s): void {
            usleep((int) ($s * 1e6));
        };
        $this->clock = $options['clock'] ?? static function (): int {
            return (int) floor(microtime(true) * 1000);
        };
    }

    // collections
    public function createCollection(array $req): array
    {
        return $this->post(self::PATH_CREATE_COLLECTION, $req, true);
    }

    public function getCollection(string $orderNo): array
    {
        return $this->get(self::PATH_COLLECTION_DETAIL, ['orderNo' => $orderNo]);
    }

    public function listCollections(array $query = []): array
    {
        return $this->get(self::PATH_COLLECTION_LIST, $query);
    }

    public function cancelCollection(string $orderNo): array
    {
        return $this->post(self::PATH_COLLECTION_CANCEL, ['orderNo' => $orderNo]);
    }

    // payouts
    public function createPayout(array $req): array
    {
        return $this->post(self::PATH_CREATE_PAYOUT, $req);
    }

    public function getPayout(string $orderNo): array
    {
        return $this->get(self::PATH_PAYOUT_DETAIL, ['orderNo' => $orderNo]);
    }

    public function createBatchPayout(array $req): array
    {
        return $this->post(self::PATH_BATCH_PAYOUT, $req);
    }

    public function listPayouts(array $query = []): array
    {
        return $this->get(self::PATH_PAYOUT_LIST, $query);
    }

    // refunds
    public function createRefund(array $req): array
    {
        return $this->post(self::PATH_REFUND, $req);
    }

    public function getRefund(string $refundNo): array
    {
        return $this->get(self::PATH_REFUND_DETAIL, ['refundNo' => $refundNo]);
    }

    public function cancelRefund(string $refundNo): array
    {
        return $this->post(self::PATH_REFUND_CANCEL, ['refundNo' => $refundNo]);
    }

    // holdings
    public function getBalance(array $query = []): array
    {
        return $this->get(self::PATH_BALANCE, $query);
    }

    public function getLedger(array $query = []): array
    {
        return $this->get(self::PATH_LEDGER, $query);
    }

    // configuration
    public function getCashierInfo(string $cashierId): array
    {
        return $this->get(self::PATH_CASHIER_INFO, ['cashierId' => $cashierId]);
    }

    public function listNetworks(): array
    {
        return $this->get(self::PATH_NETWORKS, [], false);
    }

    public function listCoins(): array
    {
        return $this->get(self::PATH_COINS, [], false);
    }

    private static function fields(array $req): array
    {
        return array_filter($req, static fn ($v) => $v !== null);
    }

    private function signedHeaders(array $params): array
    {
        $p = $this->prefix;
        $t = (string) ($this->clock)();
        $sig = Signer::sign($this->secretKey, $params, $t);
        $h = ["$p-API-Key" => $this->apiKey, "$p-Request-Time" => $t, "$p-Signature-V2" => $sig];
        if ($this->recvWindow) {
            $h["$p-Rec_Window"] = (string) $this->recvWindow;
        }
        return [$h, $sig];
    }

    private function post(string $path, array $req, bool $withSign = false): array
    {
        $body = self::fields($req);
        if (isset($body['orders']) && is_array($body['orders'])) {
            $body['orders'] = array_map(static fn ($o) => is_array($o) ? self::fields($o) : $o, $body['orders']);
        }
        Signer::check($body, 'body');
        return $this->send(function () use ($path, $body, $withSign) {
            [$h, $sig] = $this->signedHeaders($body);
            if ($withSign) {
                // The body field sign repeats the header signature; it is not signed itself.
                $body[Signer::SIGN_FIELD] = $sig;
            }
            $h['Content-Type'] = 'application/json';
            return ['POST', $this->baseUrl . $path, $h, Signer::body($body)];
        });
    }

    private function get(string $path, array $query, bool $signed = true): array
    {
        $q = self::fields($query);
        Signer::check($q, 'query');
        $params = array_map([Signer::class, 'valueText'], $q);
        return $this->send(function () use ($path, $params, $signed) {
            $url = $this->baseUrl . $path . ($params ? '?' . http_build_query($params, '', '&', PHP_QUERY_RFC3986) : '');
            $h = $signed ? $this->signedHeaders($params)[0] : [];
            return ['GET', $url, $h, null];
        });
    }

    private function send(callable $build): array
    {
        for ($attempt = 0;; $attempt++) {
            [$method, $url, $headers, $body] = $build(); // signed anew: each attempt has a fresh time
            [$status, $respHeaders, $text] = $this->http($method, $url, $headers, $body);
            if ($status === 503 && $attempt < $this->maxRetries) {
                ($this->sleep)($this->retryAfter($respHeaders['retry-after'] ?? ''));
                continue;
            }
            return $this->result($status, $respHeaders, $text);
        }
    }

    private function retryAfter(string $v): float
    {
        $v = trim($v);
        $wait = 1.0;
        if ($v !== '' && ctype_digit($v)) {
            $wait = (float) $v;
        } elseif ($v !== '' && ($at = strtotime($v)) !== false) {
            $wait = max(0.0, $at - time());
        }
        return min($wait, $this->maxRetryWait);
    }

    /** @return array{int, array<string,string>, string} status, lowercased headers, body */
    private function http(string $method, string $url, array $headers, ?string $body): array
    {
        $headers['User-Agent'] = 'stablecashier-php/' . self::VERSION;
        $headers['Accept'] = 'application/json';
        $headers['Connection'] = 'close';
        $lines = [];
        foreach ($headers as $k => $v) {
            $lines[] = "$k: $v";
        }
        $opts = ['http' => [
            'method' => $method,
            'header' => implode("\r\n", $lines),
            'ignore_errors' => true, // read the envelope of 4xx and 5xx answers too
            'timeout' => $this->timeout,
            'follow_location' => 0,
            'protocol_version' => 1.1,
        ]];
        if ($body !== null) {
            $opts['http']['content'] = $body;
        }
        $http_response_header = [];
        $text = @file_get_contents($url, false, stream_context_create($opts));
        if ($text === false) {
            $err = error_get_last();
            throw new StableCashierException("request to $url failed: " . ($err['message'] ?? 'no response'));
        }
        $status = 0;
        $respHeaders = [];
        foreach ($http_response_header as $line) {
            if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $m)) {
                $status = (int) $m[1];
                $respHeaders = [];
            } elseif (($i = strpos($line, ':')) !== false) {
                $respHeaders[strtolower(trim(substr($line, 0, $i)))] = trim(substr($line, $i + 1));
            }
        }
        return [$status, $respHeaders, $text];
    }

    private function result(int $status, array $headers, string $text): array
    {
        $trace = $headers['x-request-id'] ?? '';
        $env = json_decode($text, true, 512, JSON_BIGINT_AS_STRING);
        if (!is_array($env) || array_is_list($env) && $env !== []) {
            throw new ApiException('', 'response is not a cashier envelope: ' . substr($text, 0, 200), $status, $trace);
        }
        if (empty($env['success']) || intdiv($status, 100) !== 2) {
            $msg = ($env['msg'] ?? '') ?: (($env['message'] ?? '') ?: "HTTP $status");
            throw new ApiException((string) ($env['code'] ?? ''), (string) $msg, $status, (string) (($env['trace'] ?? '') ?: $trace));
        }
        $data = $env['data'] ?? null;
        return is_array($data) ? $data : ['value' => $data];
    }
}
