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
