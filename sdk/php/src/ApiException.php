<?php

declare(strict_types=1);

namespace StableCashier;

/**
 * The service refused a request (or answered with something that is not its
 * envelope). getMessage() is the service's explanation, getApiCode() its code
 * ("000201", "ERROR_000401", ...), getStatus() the HTTP status and
 * getTraceId() the id to quote to the operator.
 */
class ApiException extends StableCashierException
{
    private string $apiCode;
    private int $status;
    private string $traceId;

    public function __construct(string $apiCode, string $message, int $status, string $traceId = '')
    {
        parent::__construct($message, $status);
        $this->apiCode = $apiCode;
        $this->status = $status;
        $this->traceId = $traceId;
    }

    public function getApiCode(): string
    {
        return $this->apiCode;
    }

    public function getStatus(): int
    {
        return $this->status;
    }

    public function getTraceId(): string
    {
        return $this->traceId;
    }
}
