"""The SDK's errors."""


class StableCashierError(Exception):
    """Base of the SDK's errors."""


class APIError(StableCashierError):
    """The service refused a request (or answered with something that is not its envelope).

    code is the service's error code ("000105", "ERROR_000401", ...), message its
    explanation, status the HTTP status and trace the id to quote to the operator.
    """

    def __init__(self, code, message, status, trace=""):
        super().__init__("%s (code %s, HTTP %s, trace %s)" % (message, code, status, trace))
        self.code = code
        self.message = message
        self.status = status
        self.trace = trace


class SignatureError(StableCashierError):
    """A webhook did not verify: answer it with a non-2xx status and do not act on it."""
