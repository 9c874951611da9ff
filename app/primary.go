package app

import (
	"context"
	"time"
)

// watchPrimary exports whether the database the instance writes to takes
// writes. On PostgreSQL the read pool connects as the write pool does
// (with a multi-host URL and target_session_attrs=read-write, only to a
// primary), and a server in recovery is a standby. SQLite has no standby:
// its file is the primary whenever it answers.
func (o *Ops) watchPrimary() {
	_, read := o.svc.Store.Pools()
	q := `SELECT NOT pg_is_in_recovery()`
	if o.svc.Config.DatabaseURL == "" {
		q = `SELECT 1 = 1`
	}
	o.Metrics.WatchPrimary(func(ctx context.Context) (bool, error) {
		var primary bool
		err := read.QueryRowContext(ctx, q).Scan(&primary)
		return primary, err
	}, 5*time.Second)
}
