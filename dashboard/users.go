package dashboard

import (
	"context"
	"net/http"

	"github.com/stablecashier/cashier"
)

// The accounts page: owners manage their merchant's users, operators
// everyone's, with the same operations and rules as `cashier user`
// (ChangeUser): disable, enable, reset the password or the second factor,
// remove.

// userActions are the actions the page offers, in its order.
var userActions = []string{UserDisable, UserEnable, UserResetPassword, UserResetTOTP, UserRemove}

// Users lists the users a may manage: an owner's merchant's, or for an
// operator those of merchantID ("" everyone, operators first).
func (s *Server) Users(ctx context.Context, a *actor, merchantID string) ([]UserInfo, error) {
	if !a.can(OpUsersManage) {
		return nil, errForbidden
	}
	if !a.operator() {
		merchantID = a.user.MerchantID
	}
	return ListUsers(ctx, s.Store, merchantID, false)
}

// ChangeUser applies action to the user id on behalf of a, with the audit
// entry naming a. An owner may change only its own merchant's users.
func (s *Server) ChangeUser(ctx context.Context, a *actor, id, action string) (*UserChange, error) {
	if !a.can(OpUsersManage) {
		return nil, errForbidden
	}
	known := false
	for _, v := range userActions {
		known = known || v == action
	}
	if !known {
		return nil, cashier.Errorf(cashier.EInvalid, "action must be one of disable, enable, reset-password, reset-totp, remove")
	}
	u, err := s.Store.User(ctx, id)
	if err != nil || !s.mayManage(a, u) {
		return nil, errNotFound
	}
	by := cashier.AuditEntry{UserID: a.user.ID, Email: a.user.Email, IP: a.ip}
	return changeUser(ctx, s.Store, s.Clock, u.Email, action, "", by, func(cur *cashier.User) error {
		if cur.ID != u.ID || !s.mayManage(a, cur) {
			return errNotFound
		}
		return nil
	})
}

func (s *Server) mayManage(a *actor, u *cashier.User) bool {
	return a.operator() || (u.Role != cashier.RoleOperator && u.MerchantID != "" && u.MerchantID == a.user.MerchantID)
}

func (s *Server) userRoutes() {
	s.page("GET "+Prefix+"users", "nav.users", func(w http.ResponseWriter, r *http.Request, a *actor, p *page) (string, error) {
		us, err := s.Users(r.Context(), a, p.MerchantID)
		if err != nil {
			return "", err
		}
		p.Data = map[string]any{"Users": us, "Self": a.user.ID}
		return "users", nil
	})
	s.api("GET "+apiPrefix+"users", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		return s.Users(r.Context(), a, r.URL.Query().Get("merchantId"))
	})
	s.api("POST "+apiPrefix+"users/{id}", func(w http.ResponseWriter, r *http.Request, a *actor) (any, error) {
		var in struct {
			Action string `json:"action"`
		}
		if err := decode(r, &in); err != nil {
			return nil, err
		}
		ch, err := s.ChangeUser(r.Context(), a, r.PathValue("id"), in.Action)
		if err != nil {
			return nil, err
		}
		if isForm(r) && ch.Password != "" {
			// Shown once on the answer itself, never through a redirect.
			p := s.newPage(r, a, "user.password")
			p.Data = ch
			s.render(w, http.StatusOK, "userpass", p)
			return nil, nil
		}
		return s.done(w, r, a, "user."+in.Action, ch)
	})
}
