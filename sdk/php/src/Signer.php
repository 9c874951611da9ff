<?php

declare(strict_types=1);

namespace StableCashier;

/** The request signature, byte for byte as the service computes it. */
final class Signer
{
    /** The body field carrying a signature: never part of the signed text. */
    public const SIGN_FIELD = 'sign';
    private const JSON_FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR;

    /** Refuse floats anywhere: amounts are decimal strings, and a float's text is not the amount. */
    public static function check($v, string $path = 'value'): void
    {
        if (is_float($v)) {
            throw new \InvalidArgumentException("$path is a float; send amounts as decimal strings such as \"12.50\"");
        }
        if (is_array($v)) {
            foreach ($v as $k => $x) {
                self::check($x, $path . '.' . $k);
            }
        } elseif (!($v === null || is_string($v) || is_int($v) || is_bool($v))) {
            throw new \InvalidArgumentException("$path has unsupported type " . get_debug_type($v));
        }
    }

    /** Compact JSON with object keys sorted by bytes and no escaping of slashes or Unicode (U+2028/9 stay escaped). */
    public static function compactJson($v): string
    {
        if (is_array($v)) {
            if (array_is_list($v) && $v !== []) {
                return '[' . implode(',', array_map([self::class, 'compactJson'], $v)) . ']';
            }
            if ($v === []) {
                return '[]';
            }
            ksort($v, SORT_STRING);
            $parts = [];
            foreach ($v as $k => $x) {
                $parts[] = json_encode((string) $k, self::JSON_FLAGS) . ':' . self::compactJson($x);
            }
            return '{' . implode(',', $parts) . '}';
        }
        return json_encode($v, self::JSON_FLAGS);
    }

    public static function valueText($v): string
    {
        if (is_string($v)) {
            return $v;
        }
        if (is_bool($v)) {
            return $v ? 'true' : 'false';
        }
        if (is_int($v)) {
            return (string) $v;
        }
        return self::compactJson($v);
    }

    /** The signed text: key=value pairs sorted by key, then time=. */
    public static function canonical(array $params, string $timeMs): string
    {
        $keep = [];
        foreach ($params as $k => $v) {
            if ((string) $k !== self::SIGN_FIELD && $v !== null) {
                $keep[(string) $k] = $v;
            }
        }
        ksort($keep, SORT_STRING);
        $out = '';
        foreach ($keep as $k => $v) {
            $out .= $k . '=' . self::valueText($v) . '&';
        }
        return $out . 'time=' . $timeMs;
    }

    public static function sign(string $secret, array $params, string $timeMs): string
    {
        return hash_hmac('sha256', self::canonical($params, $timeMs), $secret);
    }

    /** A request body as JSON. */
    public static function body(array $payload): string
    {
        return json_encode($payload === [] ? new \stdClass() : $payload, self::JSON_FLAGS);
    }
}
