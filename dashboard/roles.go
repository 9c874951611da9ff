package dashboard

import "github.com/stablecashier/cashier"

// Op is one dashboard operation. Pages, the admin JSON API and scripts all
// go through the same operations, and the role table below is the only
// place that says who may run which.
type Op string

const (
	OpView           Op = "view"            // read the merchant's orders, cashiers, contracts, overview
	OpKeysRotate     Op = "keys.rotate"     // issue new API, secret and webhook keys (creates them after a revoke)
	OpKeysRevoke     Op = "keys.revoke"     // disable the API key
	OpCashierUpdate  Op = "cashier.update"  // name, webhook URL, open/close
	OpCashierTest    Op = "cashier.test"    // send a signed test event
	OpContractCreate Op = "contract.create" // register a payout contract
	OpEventResend    Op = "event.resend"    // deliver a webhook event again
	OpReview         Op = "payout.review"   // approve or refuse payouts awaiting review
	OpAuditRead      Op = "audit.read"      // read the audit log
	OpNetworkState   Op = "network.state"   // put a network in or out of maintenance
	OpOwnAccount     Op = "account.update"  // one's own second factor
	OpReviewPolicy   Op = "review.policy"   // which payouts wait for review
	OpUsersManage    Op = "users.manage"    // disable, enable, reset or remove accounts (owners: their merchant's)
	OpRefundCreate   Op = "refund.create"   // refund a collection order (money leaves the payout contract)
)

// roleOps is the role → allowed operations table.
var roleOps = map[cashier.Role][]Op{
	cashier.RoleOwner: {OpView, OpKeysRotate, OpKeysRevoke, OpCashierUpdate, OpCashierTest, OpContractCreate,
		OpEventResend, OpReview, OpAuditRead, OpOwnAccount, OpReviewPolicy, OpUsersManage, OpRefundCreate},
	cashier.RoleDeveloper: {OpView, OpKeysRotate, OpKeysRevoke, OpCashierUpdate, OpCashierTest, OpEventResend, OpOwnAccount},
	cashier.RoleReviewer:  {OpView, OpReview, OpOwnAccount},
	cashier.RoleViewer:    {OpView, OpOwnAccount},
	cashier.RoleOperator: {OpView, OpKeysRotate, OpKeysRevoke, OpCashierUpdate, OpCashierTest, OpContractCreate,
		OpEventResend, OpReview, OpAuditRead, OpNetworkState, OpOwnAccount, OpReviewPolicy, OpUsersManage, OpRefundCreate},
}

// Can reports whether role may run op.
func Can(role cashier.Role, op Op) bool {
	for _, o := range roleOps[role] {
		if o == op {
			return true
		}
	}
	return false
}
