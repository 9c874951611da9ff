package dashboard

import (
	"context"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// UserInfo is a user as an operator lists them: never a secret.
type UserInfo struct {
	UserID     string    `json:"userId"`
	Email      string    `json:"email"`
	MerchantID string    `json:"merchantId,omitempty"`
	Role       string    `json:"role"`
	TOTP       bool      `json:"totp"` // a second factor is set up
	Disabled   bool      `json:"disabled"`
	CreatedAt  time.Time `json:"createdAt"`
}

func userInfo(u *cashier.User) UserInfo {
	return UserInfo{UserID: u.ID, Email: u.Email, MerchantID: u.MerchantID, Role: string(u.Role),
		TOTP: u.TOTPSecret != nil, Disabled: u.Disabled, CreatedAt: u.CreatedAt}
}

// ListUsers lists a merchant's users, or the operators, or (merchantID ""
// and !operators) everyone: operators first, then each merchant's users.
func ListUsers(ctx context.Context, st cashier.AccountStore, merchantID string, operators bool) ([]UserInfo, error) {
	var ids []string
	switch {
	case operators:
		ids = []string{""}
	case merchantID != "":
		if _, err := st.Merchant(ctx, merchantID); err != nil {
			return nil, cashier.Errorf(cashier.EInvalid, "merchant %s does not exist", merchantID)
		}
		ids = []string{merchantID}
	default:
		ms, err := st.Merchants(ctx)
		if err != nil {
			return nil, err
		}
		ids = []string{""}
		for _, m := range ms {
			ids = append(ids, m.ID)
		}
	}
	out := []UserInfo{}
	for _, id := range ids {
		us, err := st.Users(ctx, id)
		if err != nil {
			return nil, err
		}
		for i := range us {
			out = append(out, userInfo(&us[i]))
		}
	}
	return out, nil
}

// User actions an operator takes on an account.
const (
	UserDisable       = "disable"
	UserEnable        = "enable"
	UserResetPassword = "reset-password"
	UserResetTOTP     = "reset-totp"
	UserRemove        = "remove"
)

// UserChange is what changing a user reports; Password only when one was
// generated.
type UserChange struct {
	UserInfo
	Removed       bool   `json:"removed,omitempty"`
	SessionsEnded int    `json:"sessionsEnded"`
	Password      string `json:"password,omitempty"`
}

// ChangeUser applies action to the user with email, with its audit entry,
// in one transaction. Disabling, resetting the password or the second
// factor, and removing end the user's sessions. The last enabled owner of
// a merchant (or the last enabled operator) can be neither disabled nor
// removed: nobody could then manage the merchant's users from the
// dashboard. password is used by reset-password; empty: generate one.
func ChangeUser(ctx context.Context, st cashier.AccountStore, clock cashier.Clock, email, action, password, via string) (*UserChange, error) {
	return changeUser(ctx, st, clock, email, action, password, cashier.AuditEntry{Email: via, IP: "local"}, nil)
}

// changeUser is ChangeUser with the audit entry's author (by: user id,
// email, IP) and a check of the user found, in the same transaction,
// before anything changes (the dashboard's scope: an owner changes only
// the users of its merchant).
func changeUser(ctx context.Context, st cashier.AccountStore, clock cashier.Clock, email, action, password string,
	by cashier.AuditEntry, allow func(u *cashier.User) error) (*UserChange, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return nil, cashier.Errorf(cashier.EMissing, "--email is required")
	}
	var out UserChange
	var hash string
	if action == UserResetPassword {
		if password == "" {
			password = GeneratePassword()
			out.Password = password
		}
		var err error
		if hash, err = HashPassword(password); err != nil { // before the transaction: argon2 is slow
			return nil, cashier.Errorf(cashier.EInvalid, "%v", err)
		}
	}
	err := st.UpdateAccounts(ctx, func(tx cashier.AccountTx) error {
		u, err := tx.UserByEmail(ctx, email)
		if err != nil {
			return err
		}
		if allow != nil {
			if err := allow(u); err != nil {
				return err
			}
		}
		detail := email
		switch action {
		case UserDisable, UserRemove:
			if err := needAnotherManager(ctx, tx, u, action); err != nil {
				return err
			}
			if action == UserDisable {
				u.Disabled = true
				err = tx.UpdateUser(ctx, u)
			} else {
				err = tx.DeleteUser(ctx, u.ID)
				out.Removed = true
				detail += " (" + string(u.Role) + ")"
			}
		case UserEnable:
			u.Disabled = false
			err = tx.UpdateUser(ctx, u)
		case UserResetPassword:
			u.PasswordHash = hash
			err = tx.UpdateUser(ctx, u)
		case UserResetTOTP:
			u.TOTPSecret = nil
			err = tx.UpdateUser(ctx, u)
		default:
			return cashier.Errorf(cashier.EInvalid, "unknown user action %q", action)
		}
		if err != nil {
			return err
		}
		if action != UserEnable && action != UserRemove {
			if out.SessionsEnded, err = tx.EndSessions(ctx, u.ID); err != nil {
				return err
			}
		}
		out.UserInfo = userInfo(u)
		return tx.AddAudit(ctx, &cashier.AuditEntry{At: clock.Now(), UserID: by.UserID, Email: by.Email, MerchantID: u.MerchantID,
			Action: "user." + action, Target: u.ID, Detail: detail, IP: by.IP})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// needAnotherManager refuses to disable or remove u when u is the last
// enabled owner of its merchant, or the last enabled operator.
func needAnotherManager(ctx context.Context, tx cashier.AccountTx, u *cashier.User, action string) error {
	if u.Disabled || (u.Role != cashier.RoleOwner && u.Role != cashier.RoleOperator) {
		return nil
	}
	peers, err := tx.Users(ctx, u.MerchantID)
	if err != nil {
		return err
	}
	for _, p := range peers {
		if p.ID != u.ID && p.Role == u.Role && !p.Disabled {
			return nil
		}
	}
	if u.Role == cashier.RoleOperator {
		return cashier.Errorf(cashier.EInvalidStatus, "cannot %s %s: the last enabled operator; create another first", action, u.Email)
	}
	return cashier.Errorf(cashier.EInvalidStatus, "cannot %s %s: the last enabled owner of merchant %s; create another owner first", action, u.Email, u.MerchantID)
}
