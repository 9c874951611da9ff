"""StableCashier: the Python SDK of the stablecoin cashier's merchant API.

    from stablecashier import Client, APIError, verify_webhook
    c = Client("https://pay.example.com", api_key, secret_key)
    order = c.create_collection(cashier_id="cs_…", order_no="A1001", amount="12.50", symbol="USDT", chain_id="ETH")

Standard library only; amounts are decimal strings, never floats.
"""
from .client import VERSION, Client
from .errors import APIError, SignatureError, StableCashierError
from .webhook import WebhookEvent, verify_webhook

__version__ = VERSION
__all__ = ["Client", "APIError", "SignatureError", "StableCashierError", "WebhookEvent", "verify_webhook",
           "__version__"]
