# Create a collection order and read it back with the Python SDK
# (pip install ./sdk/python, or PYTHONPATH=sdk/python).
# Needs CASHIER_URL, API_KEY, SECRET_KEY, CASHIER_ID and ORDER_NO.
import json, os
from stablecashier import APIError, Client

client = Client(os.environ["CASHIER_URL"], os.environ["API_KEY"], os.environ["SECRET_KEY"])
order_no = os.environ["ORDER_NO"]
try:
    created = client.create_collection(cashier_id=os.environ["CASHIER_ID"], order_no=order_no,
                                       amount="12.50", symbol="USDT", chain_id="ETH")
except APIError as e:  # the service's own code and reason, e.g. 000201 "order number ... exists already"
    raise SystemExit(f"refused: {e.code} {e.message} (HTTP {e.status}, trace {e.trace})")
print(json.dumps(created))
print(json.dumps(client.get_collection(order_no)))
