package metrics

import (
	"fmt"
	"net/http"
	"net/http/pprof"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"poolroids/game/scores"
)

// Store exports the high-score store's figures, read from stats at each
// scrape: the saves queued while its database is away, those posted
// since, the failed attempts to reach it, whether it answers and when it
// last did. Call it once.
func (m *Metrics) Store(stats func() scores.Stats) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "poolroids_scores_queued",
			Help: "High scores saved on local disk, waiting for the score database.",
		}, func() float64 { return float64(stats().Queued) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "poolroids_scores_posted_total",
			Help: "Queued high scores written to the score database.",
		}, func() float64 { return float64(stats().Posted) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "poolroids_scores_database_failures_total",
			Help: "Attempts to reach the score database that failed.",
		}, func() float64 { return float64(stats().Failures) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "poolroids_scores_database_up",
			Help: "1 when the last attempt to reach the score database succeeded.",
		}, func() float64 { return up(!stats().Down) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "poolroids_scores_database_last_success_timestamp_seconds",
			Help: "When the score database last answered, in Unix seconds; 0: never.",
		}, func() float64 {
			if t := stats().LastSuccess; !t.IsZero() {
				return float64(t.UnixMilli()) / 1e3
			}
			return 0
		}))
}

// FleetStats is a member's view of its fleet, for [Metrics.Fleet].
type FleetStats struct {
	DirectoryUp       bool   // the last heartbeat reached the directory
	DirectoryFailures uint64 // heartbeats and reads that failed
	Members, Rooms    int    // live members (this one included) and rooms listed
	// RelaysIn are the sessions played here for players connected to
	// another member, RelaysOut this server's players playing on another;
	// RelayedIn and RelayedOut count them all.
	RelaysIn, RelaysOut   int
	RelayedIn, RelayedOut uint64
}

var (
	descMembers     = prometheus.NewDesc("poolroids_fleet_members", "Live members of the fleet, this server included, as the directory last read.", nil, nil)
	descRooms       = prometheus.NewDesc("poolroids_fleet_rooms", "Arenas and watchable games the fleet's directory lists, this server's included.", nil, nil)
	descDirUp       = prometheus.NewDesc("poolroids_fleet_directory_up", "1 when the last heartbeat reached the fleet's directory.", nil, nil)
	descDirFailures = prometheus.NewDesc("poolroids_fleet_directory_failures_total", "Heartbeats and reads of the fleet's directory that failed.", nil, nil)
	relayLabels     = []string{"direction"}
	descRelays      = prometheus.NewDesc("poolroids_fleet_relays", "Sessions relayed now: in, played here for another member's player; out, this server's player playing on another.", relayLabels, nil)
	descRelayed     = prometheus.NewDesc("poolroids_fleet_relayed_total", "Sessions relayed, by direction (see poolroids_fleet_relays).", relayLabels, nil)
)

// Fleet exports the fleet's figures, read from stats at each scrape. Call
// it once.
func (m *Metrics) Fleet(stats func() FleetStats) { m.reg.MustRegister(fleet(stats)) }

// fleet collects a FleetStats, read once a scrape.
type fleet func() FleetStats

func (f fleet) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descMembers, descRooms, descDirUp, descDirFailures, descRelays, descRelayed} {
		ch <- d
	}
}

func (f fleet) Collect(ch chan<- prometheus.Metric) {
	st := f()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	gauge(descMembers, float64(st.Members))
	gauge(descRooms, float64(st.Rooms))
	gauge(descDirUp, up(st.DirectoryUp))
	counter(descDirFailures, st.DirectoryFailures)
	gauge(descRelays, float64(st.RelaysIn), "in")
	gauge(descRelays, float64(st.RelaysOut), "out")
	counter(descRelayed, st.RelayedIn, "in")
	counter(descRelayed, st.RelayedOut, "out")
}

func up(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// Ready sets the check of /readyz: it returns what keeps the server from
// being ready, one short phrase each ("draining", "score database
// unreachable"), none when it is. Without one, /readyz answers as
// /healthz. Call it before the handler serves.
func (m *Metrics) Ready(check func() []string) { m.ready = check }

// health serves /healthz, 200 "ok" while the process serves HTTP at all,
// and /readyz, 200 "ready" or 503 with what is not, a line each.
func (m *Metrics) health(mux *http.ServeMux) {
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		var problems []string
		if m.ready != nil {
			problems = m.ready()
		}
		if len(problems) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, strings.Join(problems, "\n"))
			return
		}
		fmt.Fprintln(w, "ready")
	})
}

// Pprof serves net/http/pprof's profiles under /debug/pprof/, for a
// listener of their own: they show the program's insides to whoever
// reaches them. /debug/pprof/cmdline, the command line, is served only
// with cmdline set: a process that holds a secret there (a database URL
// with its password) must not give it away; it answers 403 and why.
func Pprof(cmdline bool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	if cmdline {
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	} else {
		mux.HandleFunc("/debug/pprof/cmdline", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "the command line holds a secret: not shown", http.StatusForbidden)
		})
	}
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
