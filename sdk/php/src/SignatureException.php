<?php

declare(strict_types=1);

namespace StableCashier;

/** A webhook did not verify: answer it with a non-2xx status and do not act on it. */
class SignatureException extends StableCashierException
{
}
