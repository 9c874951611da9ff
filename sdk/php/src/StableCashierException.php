<?php

declare(strict_types=1);

namespace StableCashier;

/** Base of the SDK's exceptions. */
class StableCashierException extends \RuntimeException
{
}
