package orders

import (
	"math/big"
	"unicode"
	"unicode/utf8"

	"github.com/stablecashier/cashier"
)

func newZero() *big.Int { return new(big.Int) }

// checkOrderNo: merchant order numbers are printable, bounded and non-empty;
// they appear in URLs, logs and webhook bodies.
func (s *Service) checkOrderNo(no string) error {
	if no == "" {
		return cashier.Errorf(cashier.EMissing, "orderNo is required")
	}
	if len(no) > s.Config.MaxOrderNoLen {
		return cashier.Errorf(cashier.EInvalid, "orderNo is longer than %d characters", s.Config.MaxOrderNoLen)
	}
	for _, r := range no {
		if !(r < utf8.RuneSelf && (r == '-' || r == '_' || r == '.' || r == ':' || unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return cashier.Errorf(cashier.EInvalid, "orderNo %q may hold only ASCII letters, digits and - _ . :", no)
		}
	}
	return nil
}

// checkText: free text is valid UTF-8, without control characters, and at
// most MaxTextLen characters (not bytes: a name in another script is as
// long as it reads).
func (s *Service) checkText(field, v string) error {
	if !utf8.ValidString(v) {
		return cashier.Errorf(cashier.EInvalid, "%s is not valid UTF-8", field)
	}
	if utf8.RuneCountInString(v) > s.Config.MaxTextLen {
		return cashier.Errorf(cashier.EInvalid, "%s is longer than %d characters", field, s.Config.MaxTextLen)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return cashier.Errorf(cashier.EInvalid, "%s contains control characters", field)
		}
	}
	return nil
}
