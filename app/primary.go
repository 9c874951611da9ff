package app

import (
	"context"
	"time"
)

// watchPrimary reports, on PostgreSQL, whether the database the instance
// reaches takes writes: the read pool connects as the write pool does
// (with a multi-host URL and target_session_attrs=read-write, only to a
// primary), and a server in recovery is a standby. SQLite has no standby:
// the metric is left out.
func (o *Ops) watchPrimary() {
	s := o.svc
	if s.Config.DatabaseURL == "" {
		return
	}
	_, read := s.Store.Pools()
	o.Metrics.WatchPrimary(func(ctx context.Context) (bool, error) {
		var primary bool
		err := read.QueryRowContext(ctx, `SELECT NOT pg_is_in_recovery()`).Scan(&primary)
		return primary, err
	}, 5*time.Second)
}
