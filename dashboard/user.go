package dashboard

import (
	"context"
	"crypto/rand"
	"net/mail"
	"strings"

	"github.com/stablecashier/cashier"
)

// UserSpec describes a dashboard user to create.
type UserSpec struct {
	Email      string
	MerchantID string // required unless Operator
	Role       string // owner, developer, reviewer, viewer; ignored for operators
	Operator   bool
	Password   string // empty: generate one
}

// CreatedUser is what creating a user reports; Password only when it was
// generated.
type CreatedUser struct {
	UserID     string `json:"userId"`
	Email      string `json:"email"`
	MerchantID string `json:"merchantId,omitempty"`
	Role       string `json:"role"`
	Password   string `json:"password,omitempty"`
}

// CreateUser validates spec, hashes the password and stores the user with
// an audit entry naming the command line as the actor.
func CreateUser(ctx context.Context, st cashier.AccountStore, clock cashier.Clock, spec UserSpec, via string) (*CreatedUser, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(spec.Email))
	if err != nil || addr.Name != "" || len(addr.Address) > 254 {
		return nil, cashier.Errorf(cashier.EInvalid, "email %q is not a plain email address", spec.Email)
	}
	email := strings.ToLower(addr.Address)
	u := &cashier.User{ID: newID("u_"), Email: email, CreatedAt: clock.Now()}
	if spec.Operator {
		if spec.MerchantID != "" || (spec.Role != "" && spec.Role != string(cashier.RoleOperator)) {
			return nil, cashier.Errorf(cashier.EInvalid, "an operator belongs to no merchant and has no merchant role")
		}
		u.Role = cashier.RoleOperator
	} else {
		if spec.MerchantID == "" {
			return nil, cashier.Errorf(cashier.EMissing, "--merchant is required (or --operator)")
		}
		if u.Role, err = cashier.ParseRole(spec.Role); err != nil || u.Role == cashier.RoleOperator {
			return nil, cashier.Errorf(cashier.EInvalid, "role must be owner, developer, reviewer or viewer, not %q", spec.Role)
		}
		if _, err := st.Merchant(ctx, spec.MerchantID); err != nil {
			return nil, cashier.Errorf(cashier.EInvalid, "merchant %s does not exist", spec.MerchantID)
		}
		u.MerchantID = spec.MerchantID
	}
	out := &CreatedUser{UserID: u.ID, Email: email, MerchantID: u.MerchantID, Role: string(u.Role)}
	pw := spec.Password
	if pw == "" {
		pw = GeneratePassword()
		out.Password = pw
	}
	if u.PasswordHash, err = HashPassword(pw); err != nil {
		return nil, cashier.Errorf(cashier.EInvalid, "%v", err)
	}
	err = st.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		return tx.AddAudit(ctx, &cashier.AuditEntry{At: clock.Now(), UserID: "", Email: via, MerchantID: u.MerchantID,
			Action: "user.create", Target: u.ID, Detail: email + " as " + string(u.Role), IP: "local"})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

const pwAlphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// GeneratePassword returns 20 characters from an alphabet without look-
// alike characters (about 116 bits).
func GeneratePassword() string {
	out := make([]byte, 0, 20)
	buf := make([]byte, 64)
	for len(out) < 20 {
		if _, err := rand.Read(buf); err != nil {
			panic(err)
		}
		for _, b := range buf {
			// 228 = 4*57: rejecting larger bytes keeps the draw unbiased.
			if b < 228 && len(out) < 20 {
				out = append(out, pwAlphabet[int(b)%len(pwAlphabet)])
			}
		}
	}
	return string(out)
}

func newID(prefix string) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	const hex = "0123456789abcdef"
	out := []byte(prefix)
	for _, c := range b {
		out = append(out, hex[c>>4], hex[c&15])
	}
	return string(out)
}
