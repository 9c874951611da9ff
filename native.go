package cashier

// Native coin (ETH on Ethereum and Arbitrum, TRX on TRON) sent to a deposit
// address by mistake is recorded as a Payment with an empty Token, the
// network's coin symbol and decimals, and the effect NATIVE: it never
// credits the order, and the operator sweeps it into the merchant's vault
// (DepositFactory.sweepNative).

// NativeIndex is the LogIndex of a native-coin transfer: the value a
// transaction itself carries, which has no log. It lies above every real
// log index, so (chain, txHash, index) stays one key per transfer.
const NativeIndex uint = 1<<31 - 1

// Native reports whether t moved the network's own coin.
func (t *Transfer) Native() bool { return t.Token == "" }

// Native reports whether p is a native-coin payment.
func (p *Payment) Native() bool { return p.Token == "" }

// KeepRecipients returns the transfers of ts whose recipient keep accepts,
// in their order. keep is asked once, with each recipient once: the chain
// readers gather a range's candidates first, then ask the store which of
// their recipients are deposit addresses.
func KeepRecipients(ts []Transfer, keep func(addrs []string) (map[string]bool, error)) ([]Transfer, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	var addrs []string
	for _, t := range ts {
		if !seen[t.To] {
			seen[t.To] = true
			addrs = append(addrs, t.To)
		}
	}
	kept, err := keep(addrs)
	if err != nil {
		return nil, err
	}
	var out []Transfer
	for _, t := range ts {
		if kept[t.To] {
			out = append(out, t)
		}
	}
	return out, nil
}
