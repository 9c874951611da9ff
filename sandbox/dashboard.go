package sandbox

import (
	"context"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/dashboard"
)

// DashboardLogin is the demo owner account of the dashboard. The sandbox
// keeps its password in sandbox.json like every other demo credential.
type DashboardLogin struct {
	URL      string `json:"url"`
	Email    string `json:"email"`
	Password string `json:"password"`
}

// DemoOwnerEmail signs in as the demo merchant's owner.
const DemoOwnerEmail = "owner@sandbox.example"

// provisionDashboard creates the demo owner once.
func provisionDashboard(ctx context.Context, st cashier.AccountStore, info *Info) error {
	if info.Dashboard != nil {
		info.Dashboard.URL = info.BaseURL + dashboard.Prefix
		return nil
	}
	u, err := dashboard.CreateUser(ctx, st, cashier.SystemClock{},
		dashboard.UserSpec{Email: DemoOwnerEmail, MerchantID: info.MerchantID, Role: string(cashier.RoleOwner)}, "sandbox")
	if err != nil {
		return err
	}
	info.Dashboard = &DashboardLogin{URL: info.BaseURL + dashboard.Prefix, Email: u.Email, Password: u.Password}
	return nil
}
