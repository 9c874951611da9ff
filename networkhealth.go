package cashier

// NetworkHealth is whether the service can watch a network through its
// nodes, apart from the operator's status (active, maintenance). A network
// nothing can watch (no node configured, or every node on another chain)
// is not active: its new orders and payouts are refused. One whose nodes
// only fail for now stays active: its payments are picked up when a node
// answers again.
type NetworkHealth struct {
	Chain  Chain  `json:"chain"`
	State  string `json:"state"` // one of the Network* states below
	Active bool   `json:"active"`
	Reason string `json:"reason,omitempty"` // what is wrong and the fix; empty when all is well
}

// The states of NetworkHealth.
const (
	NetworkWatched     = "active"      // a node answers and serves the network's chain
	NetworkUnreachable = "unreachable" // active, but no node answers now
	NetworkNoNode      = "no node"     // not active: no node URL configured
	NetworkWrongChain  = "wrong chain" // not active: every node serves another chain
)
