package orders

import "github.com/stablecashier/cashier"

// A cashier or contract id that does not exist and one that belongs to
// another merchant get the same answer, so the answer does not tell a
// caller which ids exist.

func cashierNotFound(id string) error {
	return cashier.Errorf(cashier.ECashierNotFound, "cashier %s does not exist", id)
}

func contractNotFound(id string) error {
	return cashier.Errorf(cashier.EContractNotFound, "contract %s does not exist", id)
}

// missing reports an error of the store's "no such row" kinds.
func missing(err error) bool {
	switch cashier.ErrorCode(err) {
	case cashier.ENotFound, cashier.ECashierNotFound, cashier.EContractNotFound:
		return true
	}
	return false
}
