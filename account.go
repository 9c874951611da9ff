package cashier

import (
	"context"
	"time"
)

// Role is what a dashboard user may do. Merchant users hold one of the
// four merchant roles; operators run the whole service and belong to no
// merchant. What each role may do is one table in the dashboard package.
type Role string

const (
	RoleOwner     Role = "owner"
	RoleDeveloper Role = "developer"
	RoleReviewer  Role = "reviewer"
	RoleViewer    Role = "viewer"
	RoleOperator  Role = "operator"
)

// ParseRole accepts the five role names.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RoleOwner, RoleDeveloper, RoleReviewer, RoleViewer, RoleOperator:
		return r, nil
	}
	return "", Errorf(EInvalid, "role must be owner, developer, reviewer, viewer or operator, not %q", s)
}

// User is a person who signs in to the dashboard.
type User struct {
	ID           string
	Email        string // lower case, unique
	MerchantID   string // empty for operators
	Role         Role
	PasswordHash string // argon2id in PHC text form
	TOTPSecret   []byte // nil: no second factor; stored sealed
	// TOTPStep is the last TOTP time step (Unix seconds / 30) accepted
	// from the user; a code of that step or an earlier one is refused.
	// Written only by AcceptTOTPStep, never by UpdateUser.
	TOTPStep  int64
	Disabled  bool
	CreatedAt time.Time
}

// Session is a signed-in browser. Only the SHA-256 of its token is stored,
// so a read of the database does not hand out live sessions.
type Session struct {
	TokenHash []byte
	UserID    string
	CSRF      string // synchronizer token for every change
	IP        string
	CreatedAt time.Time
	SeenAt    time.Time
	ExpiresAt time.Time
}

// AuditEntry records one change made through the dashboard.
type AuditEntry struct {
	ID         int64
	At         time.Time
	UserID     string
	Email      string
	MerchantID string // the merchant whose data changed; empty: service-wide
	Action     string // operation name, e.g. "cashier.update"
	Target     string // id of what changed
	Detail     string // short human-readable summary, never a secret
	IP         string
}

// AuditFilter selects audit entries, newest first.
type AuditFilter struct {
	MerchantID string // empty: every merchant (operators)
	Limit      int
}

// NetworkState is an operator's override of a network's status.
type NetworkState struct {
	Chain     Chain
	Status    NetworkStatus
	UpdatedAt time.Time
}

// AccountReader holds the dashboard's lookups.
type AccountReader interface {
	User(ctx context.Context, id string) (*User, error)
	UserByEmail(ctx context.Context, email string) (*User, error)
	Users(ctx context.Context, merchantID string) ([]User, error)
	SessionByHash(ctx context.Context, hash []byte) (*Session, error)
	Audit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
	NetworkStates(ctx context.Context) ([]NetworkState, error)
	Merchants(ctx context.Context) ([]Merchant, error)
	SearchCollections(ctx context.Context, f OrderSearch) ([]CollectionOrder, int, error)
	SearchPayouts(ctx context.Context, f OrderSearch) ([]PayoutOrder, int, error)
}

// OrderSearch is the dashboard's order filter. Empty fields match
// anything; Address matches the deposit, payer or recipient address.
type OrderSearch struct {
	MerchantID string // empty: every merchant (operators)
	Status     string
	Chain      Chain
	Symbol     string
	OrderNo    string
	Address    string
	TxID       string
	Start, End time.Time // inclusive bounds on CreatedAt
	Page       int
	PageSize   int
}

// AccountTx is a store transaction with the dashboard's writes: a change
// and its audit entry commit together.
type AccountTx interface {
	Tx
	AccountReader
	CreateUser(ctx context.Context, u *User) error
	UpdateUser(ctx context.Context, u *User) error
	// AcceptTOTPStep records step as the user's last accepted TOTP step.
	// It fails with ErrTOTPReused, changing nothing, unless step is later
	// than the one recorded, so of two sign-ins with one code (on any
	// instances) only one commits.
	AcceptTOTPStep(ctx context.Context, userID string, step int64) error
	CreateSession(ctx context.Context, s *Session) error
	TouchSession(ctx context.Context, hash []byte, seen time.Time) error
	DeleteSession(ctx context.Context, hash []byte) error
	// EndSessions deletes every session of a user and reports how many.
	EndSessions(ctx context.Context, userID string) (int, error)
	// DeleteUser removes a user and their sessions; the audit log keeps
	// their entries.
	DeleteUser(ctx context.Context, id string) error
	AddAudit(ctx context.Context, e *AuditEntry) error
	// ReplaceMerchantKeys stores m's new API, secret and webhook keys and
	// status. The replaced API key (with its secret) stays valid until
	// m.PrevKeyUntil, or stops working at commit when that is zero.
	ReplaceMerchantKeys(ctx context.Context, m *Merchant) error
	// EndPreviousKey ends a rotation's grace at once: the previous API key
	// stops working at commit. ENotFound when there is none.
	EndPreviousKey(ctx context.Context, merchantID string) error
	UpdateCashier(ctx context.Context, c *Cashier) error
	SetNetworkState(ctx context.Context, s NetworkState) error
	// PutOneTimeView stores v (its body sealed), and drops the views
	// expired at v's creation.
	PutOneTimeView(ctx context.Context, v *OneTimeView, now time.Time) error
	// TakeOneTimeView returns the body of the view under tokenHash if it
	// belongs to session and is unexpired at now, and deletes it: a view
	// is taken once. nil when there is none to take.
	TakeOneTimeView(ctx context.Context, tokenHash, session []byte, now time.Time) ([]byte, error)
}

// OneTimeView is a result shown on one page view only (a key rotation's
// new keys): the request that makes it stores it under a random token of
// its session and redirects to the page that takes it. It is kept in the
// store so that the page may be served by any instance.
type OneTimeView struct {
	TokenHash []byte // SHA-256 of the view's token
	Session   []byte // token hash of the session it belongs to
	Body      []byte
	Until     time.Time
}

// ErrTOTPReused refuses a TOTP code whose time step was accepted already.
var ErrTOTPReused = Errorf(EInvalid, "this code was used already; wait for the next one")

// AccountStore is a Store that also keeps dashboard accounts.
type AccountStore interface {
	Store
	AccountReader
	UpdateAccounts(ctx context.Context, fn func(AccountTx) error) error
}
