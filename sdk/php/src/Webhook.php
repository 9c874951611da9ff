<?php

declare(strict_types=1);

namespace StableCashier;

/** Webhook verification. */
final class Webhook
{
    /**
     * Verify a webhook and return its body as an array (eventType says what
     * happened to what: branch on it, never on status alone), or throw
     * SignatureException.
     *
     * $rawBody is the body exactly as received (file_get_contents('php://input')),
     * before any parsing. $headers is name => value (or name => [values], as
     * PSR-7's getHeaders()), matched case-insensitively; $_SERVER works too
     * (HTTP_SERVICE_REQUEST_TIME). $keyOrKeys is the webhook key, or during a
     * key rotation's grace a list of keys: a valid <P>-Signature-V2 or
     * <P>-Signature-V2-Next under any of them is accepted, with <P>-Request-Time
     * within $tolerance seconds of now. Process each eventId once.
     *
     * @param string|string[] $keyOrKeys
     */
    public static function verify(string $rawBody, array $headers, $keyOrKeys, int $tolerance = 300, string $headerPrefix = 'Service', ?int $nowMs = null): array
    {
        $keys = array_values(array_filter(is_array($keyOrKeys) ? $keyOrKeys : [$keyOrKeys], static fn ($k) => is_string($k) && $k !== ''));
        if ($keys === []) {
            throw new \InvalidArgumentException('no webhook key given');
        }
        $h = self::normalize($headers);
        $p = strtolower($headerPrefix);
        $t = trim($h["$p-request-time"] ?? '');
        if ($t === '' || !ctype_digit($t)) {
            throw new SignatureException("$headerPrefix-Request-Time is missing or not Unix milliseconds");
        }
        $now = $nowMs ?? (int) floor(microtime(true) * 1000);
        $age = abs($now - (int) $t);
        if ($age > $tolerance * 1000) {
            throw new SignatureException(sprintf('%s-Request-Time is %d s away from now (tolerance %d s)', $headerPrefix, intdiv($age, 1000), $tolerance));
        }
        $got = array_values(array_filter(array_map(
            static fn ($s) => strtolower(trim((string) $s)),
            [$h["$p-signature-v2"] ?? '', $h["$p-signature-v2-next"] ?? '']
        )));
        if ($got === []) {
            throw new SignatureException("$headerPrefix-Signature-V2 is missing");
        }
        $msg = $rawBody . '&time=' . $t;
        $ok = false;
        foreach ($keys as $k) {
            $want = hash_hmac('sha256', $msg, $k);
            foreach ($got as $g) {
                // Every comparison runs, so timing does not tell which matched.
                if (hash_equals($want, $g)) {
                    $ok = true;
                }
            }
        }
        if (!$ok) {
            throw new SignatureException('signature does not match');
        }
        $ev = json_decode($rawBody, true, 512, JSON_BIGINT_AS_STRING);
        if (!is_array($ev) || empty($ev['eventId'])) {
            throw new SignatureException('body is not a JSON object with an eventId');
        }
        $hid = $h["$p-event-id"] ?? '';
        if ($hid !== '' && $hid !== $ev['eventId']) {
            throw new SignatureException("$headerPrefix-Event-Id $hid differs from the signed eventId {$ev['eventId']}");
        }
        if (empty($ev['event']) && isset($ev['eventType'])) {
            $ev['event'] = explode('.', (string) $ev['eventType'])[0];
        }
        return $ev;
    }

    /** Lowercased names with dashes; $_SERVER's HTTP_X_Y becomes x-y. */
    private static function normalize(array $headers): array
    {
        $out = [];
        foreach ($headers as $k => $v) {
            $k = strtolower((string) $k);
            if (str_starts_with($k, 'http_')) {
                $k = str_replace('_', '-', substr($k, 5));
            }
            if (is_array($v)) {
                $v = $v[0] ?? '';
            }
            $out[$k] = (string) $v;
        }
        return $out;
    }
}
