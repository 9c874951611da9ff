package cashier

// PayoutSource is where a payout's tokens leave from: the payout contract
// itself in balance mode, the approving wallet in allowance mode. The
// payout detail's fromAddress and the payout webhook's fromAddress both
// come from here, so they cannot disagree. k may be nil when the contract
// is unknown.
func PayoutSource(o *PayoutOrder, k *Contract) string {
	if o.PayoutType != PayoutAllowance && k != nil {
		return k.Address
	}
	return o.FromAddress
}
