package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

var descPrimary = prometheus.NewDesc("cashier_database_primary",
	"1 when this instance reached a database primary that takes writes at this scrape (PostgreSQL: connected and not in recovery; SQLite: the file answered), else 0. Alert on every instance reporting 0: the service has no primary.", nil, nil)

// WatchPrimary adds cashier_database_primary, asking check at every
// scrape (bounded by timeout) whether the database this instance writes to
// is a primary now. An error counts as no primary: during a failover the
// old primary is gone and the standby not yet promoted, and both look the
// same from here.
func (m *Metrics) WatchPrimary(check func(context.Context) (bool, error), timeout time.Duration) {
	m.Registry.MustRegister(&primaryCollector{check: check, timeout: timeout})
}

type primaryCollector struct {
	check   func(context.Context) (bool, error)
	timeout time.Duration
}

func (c *primaryCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descPrimary }

func (c *primaryCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	ok, err := c.check(ctx)
	v := 0.0
	if err == nil && ok {
		v = 1
	}
	ch <- prometheus.MustNewConstMetric(descPrimary, prometheus.GaugeValue, v)
}
