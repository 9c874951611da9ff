package orders

import "github.com/stablecashier/cashier"

// Networks says whether a network can take new orders now: a network
// nothing watches (no node configured, or every node on another chain)
// must not take a payment nobody would see.
type Networks interface {
	// Inactive is nil for an active network, otherwise an error that
	// names the network and says why.
	Inactive(c cashier.Chain) error
}

// lookupToken is the registry's token for a new order on c, refused on a
// network in maintenance or not active.
func (s *Service) lookupToken(c cashier.Chain, symbol string) (cashier.Token, error) {
	t, err := s.Registry.LookupToken(c, symbol)
	if err != nil {
		return t, err
	}
	if s.Networks != nil {
		if err := s.Networks.Inactive(c); err != nil {
			return cashier.Token{}, err
		}
	}
	return t, nil
}
