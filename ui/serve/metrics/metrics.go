// Package metrics exports what a poolroids server does to Prometheus: its
// connections and sessions (as a [serve.Observer]), the frames its games
// draw, its arenas, players and watchers, and the pools of every live game
// summed by strategy and pool — the project's subject, in production.
//
// # Names and labels
//
// Every name starts with poolroids_ and follows Prometheus's conventions:
// counters end in _total, durations are histograms in seconds. Labels take
// a few values each (a refusal's reason, a pool strategy, "bullets" or
// "debris"); a user name, an address or an arena name is never a label,
// so that no player can grow the server's series.
//
// # The metrics
//
//	poolroids_sessions, poolroids_sessions_limit      games now, and MaxSessions (see Fleet)
//	poolroids_connections_accepted_total              let in by the rate limit and MaxStartups
//	poolroids_refused_total{reason}                   refusals, by the log's reason
//	poolroids_handshake_duration_seconds              accept to logged in (histogram)
//	poolroids_session_duration_seconds                logged in to gone (histogram)
//	poolroids_sent_bytes_total                        written to the clients
//	poolroids_frames_total, poolroids_frames_late_total
//	poolroids_frame_cells_total                       cells the frames sent (÷ frames: per frame)
//	poolroids_arenas, poolroids_players, poolroids_watchers
//	poolroids_pool_acquires_total{strategy,pool}      pool is bullets or debris
//	poolroids_pool_misses_total{strategy,pool}
//	poolroids_pool_in_use{strategy,pool}, poolroids_pool_capacity{strategy,pool}
//	go_*, process_*                                   the Go runtime and the process
//
// With a score database ([Metrics.Store]):
//
//	poolroids_scores_queued                           saves waiting on disk for the database
//	poolroids_scores_posted_total                     queued saves written since
//	poolroids_scores_database_failures_total          attempts that failed
//	poolroids_scores_database_up                      1 when the last attempt succeeded
//	poolroids_scores_database_last_success_timestamp_seconds
//
// In a fleet ([Metrics.Fleet]):
//
//	poolroids_fleet_members, poolroids_fleet_rooms    live members, rooms listed
//	poolroids_fleet_directory_up                      1 when the last heartbeat succeeded
//	poolroids_fleet_directory_failures_total
//	poolroids_fleet_relays{direction}                 sessions relayed now, in or out
//	poolroids_fleet_relayed_total{direction}
//
// A player relayed to another member is one session: the server they
// reached counts it in poolroids_sessions and as a relay out, the one
// that holds their game as a relay in only, so that the fleet's sum of
// poolroids_sessions is its players. MaxSessions bounds a server's
// sessions and relays in together.
//
// # Health
//
// The handler serves /healthz (200 while the process serves) and /readyz
// (200 when [Metrics.Ready]'s check finds nothing wrong, else 503 and
// what is), for a service manager, a balancer or an orchestrator.
//
// # Pools
//
// A game's pool counts only while the game lives, yet a counter must never
// go down. So each scrape adds what every live pool did since the last one
// to totals by strategy and pool: a game that ends between two scrapes
// loses only what it did since the last. Gauges (in use, capacity) are the
// sum over the live games at the scrape.
//
// Serve the [Metrics.Handler] on a listener of its own, never the SSH port.
package metrics

import (
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"poolroids/game"
	"poolroids/game/play"
	"poolroids/pool"
	"poolroids/ui/serve"
)

// Metrics holds a server's metrics and the registry that gathers them,
// with the Go runtime's and the process's. Make one with [New]; its
// methods are safe for concurrent use. A nil *Metrics is not usable.
type Metrics struct {
	reg        *prometheus.Registry
	accepted   prometheus.Counter
	refused    *prometheus.CounterVec
	handshake  prometheus.Histogram
	session    prometheus.Histogram
	sent       prometheus.Counter
	frames     prometheus.Counter
	framesLate prometheus.Counter
	cells      prometheus.Counter
	ready      func() []string // see Ready
}

var _ serve.Observer = (*Metrics)(nil)

// New returns the metrics of one server, registered with the Go and
// process collectors.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		accepted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "poolroids_connections_accepted_total",
			Help: "Connections let in by the rate limit and MaxStartups.",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "poolroids_refused_total",
			Help: "Connections, games, requests and channels refused, by the log's reason.",
		}, []string{"reason"}),
		handshake: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "poolroids_handshake_duration_seconds",
			Help:    "Time from a connection's accept to the end of its SSH handshake and login.",
			Buckets: prometheus.ExponentialBuckets(0.005, 2, 12), // 5 ms to 10 s, LoginTimeout's default
		}),
		session: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "poolroids_session_duration_seconds",
			Help:    "Time a logged-in connection lasted.",
			Buckets: []float64{1, 10, 30, 60, 300, 600, 1800, 3600, 7200}, // to MaxTime's default
		}),
		sent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "poolroids_sent_bytes_total",
			Help: "Bytes written to the clients' sockets, SSH framing included.",
		}),
		frames: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "poolroids_frames_total",
			Help: "Frames the games drew.",
		}),
		framesLate: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "poolroids_frames_late_total",
			Help: "Frames drawn more than two frame times after the one before.",
		}),
		cells: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "poolroids_frame_cells_total",
			Help: "Cells the frames sent to the terminals: those that changed, and those reprinted to skip a cursor move.",
		}),
	}
	m.reg.MustRegister(m.accepted, m.refused, m.handshake, m.session, m.sent, m.frames, m.framesLate, m.cells,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Accepted counts a connection let in.
func (m *Metrics) Accepted() { m.accepted.Inc() }

// Refused counts a refusal by its reason.
func (m *Metrics) Refused(reason string) { m.refused.WithLabelValues(reason).Inc() }

// LoggedIn observes a handshake's duration.
func (m *Metrics) LoggedIn(d time.Duration) { m.handshake.Observe(d.Seconds()) }

// Ended observes a session's duration.
func (m *Metrics) Ended(d time.Duration) { m.session.Observe(d.Seconds()) }

// Sent counts bytes sent.
func (m *Metrics) Sent(n int) { m.sent.Add(float64(n)) }

// Frame counts a frame a game drew, late or not, and the cells it sent.
// It allocates nothing.
func (m *Metrics) Frame(late bool, cells uint64) {
	m.frames.Inc()
	m.cells.Add(float64(cells))
	if late {
		m.framesLate.Inc()
	}
}

// Sessions exports the games running now, read from sessions at each
// scrape, and their limit. Call it once.
func (m *Metrics) Sessions(sessions func() int, limit int) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "poolroids_sessions",
			Help: "Games of the players connected to this server now, those relayed to another member included, those relayed here not.",
		}, func() float64 { return float64(sessions()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "poolroids_sessions_limit",
			Help: "Games that may run at once (MaxSessions).",
		}, func() float64 { return float64(limit) }))
}

// WebSessions exports the sessions of poolroids_sessions that play in a
// browser, read from sessions at each scrape. Call it once.
func (m *Metrics) WebSessions(sessions func() int) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "poolroids_web_sessions",
		Help: "Games of the players connected to this server in a browser now (of poolroids_sessions).",
	}, func() float64 { return float64(sessions()) }))
}

// Games exports live's arenas, players and watchers, and the pools of
// every live game, read at each scrape. Call it once.
func (m *Metrics) Games(live *play.Live) {
	m.reg.MustRegister(&games{live: live, seen: make(map[poolOf]pool.Stats), totals: make(map[poolKey]poolTotals)})
}

// Handler serves the metrics in Prometheus's exposition format at
// /metrics, /healthz and /readyz (see [Metrics.Ready]) and, with pprof
// set, net/http/pprof's profiles under /debug/pprof/ ([Pprof] with the
// command line: better served on a listener of their own).
func (m *Metrics) Handler(withPprof bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	m.health(mux)
	if withPprof {
		mux.Handle("/debug/pprof/", Pprof(true))
	}
	return mux
}

// Registry returns the registry, to gather from it in tests.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Pool names, the pool label's values.
const (
	poolBullets = "bullets"
	poolDebris  = "debris"
)

var (
	descArenas   = prometheus.NewDesc("poolroids_arenas", "Arenas open now.", nil, nil)
	descPlayers  = prometheus.NewDesc("poolroids_players", "Players in a game now, in arenas and solo.", nil, nil)
	descWatchers = prometheus.NewDesc("poolroids_watchers", "Watchers of live games now.", nil, nil)
	poolLabels   = []string{"strategy", "pool"}
	descAcquires = prometheus.NewDesc("poolroids_pool_acquires_total", "Items the live games' pools handed out.", poolLabels, nil)
	descMisses   = prometheus.NewDesc("poolroids_pool_misses_total", "Acquires the live games' pools refused: being full, or (bullets) over a ship's share.", poolLabels, nil)
	descInUse    = prometheus.NewDesc("poolroids_pool_in_use", "Items in use in the live games' pools now.", poolLabels, nil)
	descCapacity = prometheus.NewDesc("poolroids_pool_capacity", "Capacity of the live games' pools now.", poolLabels, nil)
)

// games collects the live games' figures at each scrape.
type games struct {
	live *play.Live

	mu     sync.Mutex // one scrape at a time
	seen   map[poolOf]pool.Stats
	totals map[poolKey]poolTotals
}

// poolOf names one pool of one live game, for the counts it had at the
// last scrape.
type poolOf struct {
	w    *game.World
	name string
}

type poolKey struct {
	strategy pool.Strategy
	name     string
}

type poolTotals struct {
	acquires, misses uint64 // since the start, by the strategy in use when counted
	inUse, capacity  int    // this scrape's
}

func (g *games) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descArenas, descPlayers, descWatchers, descAcquires, descMisses, descInUse, descCapacity} {
		ch <- d
	}
}

func (g *games) Collect(ch chan<- prometheus.Metric) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, t := range g.totals {
		t.inUse, t.capacity = 0, 0
		g.totals[k] = t
	}
	seen := make(map[poolOf]pool.Stats, len(g.seen))
	var arenas, players int
	g.live.Worlds(func(w *game.World, arena bool) {
		if arena {
			arenas++
		}
		for slot := range w.Ships() {
			if w.Player(slot).Phase != game.Absent {
				players++
			}
		}
		g.add(seen, poolOf{w, poolBullets}, w.BulletStats())
		g.add(seen, poolOf{w, poolDebris}, w.Debris().Stats())
	})
	g.seen = seen // the games gone since the last scrape drop out
	gauge := func(d *prometheus.Desc, v int, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), labels...)
	}
	gauge(descArenas, arenas)
	gauge(descPlayers, players)
	gauge(descWatchers, g.live.Watchers())
	for k, t := range g.totals {
		s := string(k.strategy)
		ch <- prometheus.MustNewConstMetric(descAcquires, prometheus.CounterValue, float64(t.acquires), s, k.name)
		ch <- prometheus.MustNewConstMetric(descMisses, prometheus.CounterValue, float64(t.misses), s, k.name)
		gauge(descInUse, t.inUse, s, k.name)
		gauge(descCapacity, t.capacity, s, k.name)
	}
}

// add adds what the pool p did since the last scrape to the totals of its
// strategy now, and its occupancy to this scrape's.
func (g *games) add(seen map[poolOf]pool.Stats, p poolOf, st pool.Stats) {
	last := g.seen[p]
	seen[p] = st
	k := poolKey{st.Strategy, p.name}
	t := g.totals[k]
	t.acquires += since(st.Acquires, last.Acquires)
	t.misses += since(st.Misses, last.Misses)
	t.inUse += st.Active
	t.capacity += st.Capacity
	g.totals[k] = t
}

// since is how much a count grew from was to now; a count below was was
// reset (ResetStats) and grew from zero.
func since(now, was uint64) uint64 {
	if now < was {
		return now
	}
	return now - was
}
