// Package store keeps sweep results in one SQLite file: a row per run
// with its parameters, seed, metrics and the tcplab version that made it.
// The file opens in the sqlite3 shell; see README.md ("Experiments") for
// the schema and example queries.
//
// A run is keyed by a deterministic run key (a hash of its parameters and
// replication number) under a UNIQUE constraint, and each run is
// committed on its own as it finishes, so an interrupted sweep resumes
// without redoing or duplicating a run, and shards merge without
// duplicates.
package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (pure Go, no cgo)
)

const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
	run_key      TEXT PRIMARY KEY,   -- hash of (params, replication)
	sweep        TEXT NOT NULL,
	point        INTEGER NOT NULL,   -- grid point, in grid order
	replication  INTEGER NOT NULL,   -- 0-based
	seed         INTEGER NOT NULL,
	params       TEXT NOT NULL,      -- JSON object: parameter -> value as written
	metrics      TEXT NOT NULL,      -- JSON object: flow -> metric -> value
	result       TEXT NOT NULL,      -- the run's full result (tcplab run --format json), wall time zeroed
	version      TEXT NOT NULL,      -- tcplab version that ran it
	events       INTEGER NOT NULL,
	wall_seconds REAL NOT NULL,
	finished_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS params (
	run_key TEXT NOT NULL REFERENCES runs(run_key),
	name    TEXT NOT NULL,
	value   TEXT NOT NULL,           -- as written in the sweep file, e.g. 2%
	num     REAL,                    -- its numeric value (0.02), or NULL
	PRIMARY KEY (run_key, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS metrics (
	run_key TEXT NOT NULL REFERENCES runs(run_key),
	flow    TEXT NOT NULL,           -- flow name, or '' for whole-run metrics
	name    TEXT NOT NULL,
	value   REAL NOT NULL,
	PRIMARY KEY (run_key, flow, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS metrics_name ON metrics(name, flow);
`

// Store is an open result store.
type Store struct {
	db   *sql.DB
	path string
}

// Param is one grid parameter of a run.
type Param struct {
	Name  string
	Value string   // as written
	Num   *float64 // numeric value, when the text is a number (with %, units)
}

// Params are a grid point's parameters, in grid order.
type Params []Param

// Value is the named parameter as written, or "" if the point has none.
func (ps Params) Value(name string) string {
	for _, p := range ps {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// Num is the named parameter's numeric value; false if the point has no
// such parameter or it is not a number.
func (ps Params) Num(name string) (float64, bool) {
	for _, p := range ps {
		if p.Name == name && p.Num != nil {
			return *p.Num, true
		}
	}
	return 0, false
}

// Metric is one number a run produced, per flow ("" for the whole run).
type Metric struct {
	Flow  string
	Name  string
	Value float64
}

// Run is one finished run.
type Run struct {
	Key         string
	Sweep       string
	Point       int
	Replication int
	Seed        uint64
	Params      Params // in grid order
	Metrics     []Metric
	Result      json.RawMessage
	Version     string
	Events      int64
	WallSeconds float64
	FinishedAt  string // RFC 3339
}

// Open opens (creating if needed) the store at path in WAL mode, which
// lets readers (the sqlite3 shell, `tcplab plot`) look while a sweep
// writes, and makes each commit durable before Put returns.
func Open(path string) (*Store, error) {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(ON)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer anyway, and a single
	// connection keeps ATTACH (merge) and pragmas on the same session.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// OpenExisting opens a store that must already exist (for reading).
func OpenExisting(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	return Open(path)
}

// Close closes the store, checkpointing the WAL into the main file.
func (s *Store) Close() error {
	_, _ = s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return s.db.Close()
}

// DB exposes the database for queries the package does not wrap.
func (s *Store) DB() *sql.DB { return s.db }

// SetMeta records a sweep-level fact (its name, its spec's hash).
func (s *Store) SetMeta(key, value string) error {
	_, err := s.db.Exec("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	return err
}

// Meta returns a sweep-level fact, "" if unset.
func (s *Store) Meta(key string) (string, error) {
	var v string
	err := s.db.QueryRow("SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// Put stores a run in one transaction and reports whether it was new; a
// run whose key is already stored is left as it is.
func (s *Store) Put(r *Run) (bool, error) {
	params := map[string]string{}
	for _, p := range r.Params {
		params[p.Name] = p.Value
	}
	pj, err := json.Marshal(params)
	if err != nil {
		return false, err
	}
	mj, err := json.Marshal(metricsJSON(r.Metrics))
	if err != nil {
		return false, err
	}
	tx, err := s.db.Begin()
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.Exec(`INSERT OR IGNORE INTO runs(run_key, sweep, point, replication, seed, params, metrics, result, version, events, wall_seconds, finished_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Key, r.Sweep, r.Point, r.Replication, int64(r.Seed), string(pj), string(mj), string(r.Result), r.Version, r.Events, r.WallSeconds, r.FinishedAt)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	for _, p := range r.Params {
		if _, err := tx.Exec("INSERT INTO params(run_key, name, value, num) VALUES(?, ?, ?, ?)", r.Key, p.Name, p.Value, p.Num); err != nil {
			return false, err
		}
	}
	for _, m := range r.Metrics {
		if _, err := tx.Exec("INSERT INTO metrics(run_key, flow, name, value) VALUES(?, ?, ?, ?)", r.Key, m.Flow, m.Name, m.Value); err != nil {
			return false, err
		}
	}
	return true, tx.Commit()
}

func metricsJSON(ms []Metric) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, m := range ms {
		if out[m.Flow] == nil {
			out[m.Flow] = map[string]float64{}
		}
		out[m.Flow][m.Name] = m.Value
	}
	return out
}

// Keys returns the run keys already stored (what a resumed sweep skips).
func (s *Store) Keys() (map[string]bool, error) {
	rows, err := s.db.Query("SELECT run_key FROM runs")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		keys[k] = true
	}
	return keys, rows.Err()
}

// Count is the number of stored runs.
func (s *Store) Count() (int, error) {
	var n int
	err := s.db.QueryRow("SELECT count(*) FROM runs").Scan(&n)
	return n, err
}

// Runs returns every stored run, ordered by grid point and replication
// (then key, so the order is total).
func (s *Store) Runs() ([]*Run, error) {
	rows, err := s.db.Query(`SELECT run_key, sweep, point, replication, seed, result, version, events, wall_seconds, finished_at
		FROM runs ORDER BY point, replication, run_key`)
	if err != nil {
		return nil, err
	}
	var runs []*Run
	byKey := map[string]*Run{}
	for rows.Next() {
		r := &Run{}
		var seed int64
		var result string
		if err := rows.Scan(&r.Key, &r.Sweep, &r.Point, &r.Replication, &seed, &result, &r.Version, &r.Events, &r.WallSeconds, &r.FinishedAt); err != nil {
			rows.Close()
			return nil, err
		}
		r.Seed, r.Result = uint64(seed), json.RawMessage(result)
		runs = append(runs, r)
		byKey[r.Key] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	order, err := s.ParamNames()
	if err != nil {
		return nil, err
	}
	rank := map[string]int{}
	for i, n := range order {
		rank[n] = i
	}
	prows, err := s.db.Query("SELECT run_key, name, value, num FROM params")
	if err != nil {
		return nil, err
	}
	for prows.Next() {
		var key string
		var p Param
		var num sql.NullFloat64
		if err := prows.Scan(&key, &p.Name, &p.Value, &num); err != nil {
			prows.Close()
			return nil, err
		}
		if num.Valid {
			p.Num = &num.Float64
		}
		if r := byKey[key]; r != nil {
			r.Params = append(r.Params, p)
		}
	}
	prows.Close()
	mrows, err := s.db.Query("SELECT run_key, flow, name, value FROM metrics ORDER BY run_key, flow, name")
	if err != nil {
		return nil, err
	}
	for mrows.Next() {
		var key string
		var m Metric
		if err := mrows.Scan(&key, &m.Flow, &m.Name, &m.Value); err != nil {
			mrows.Close()
			return nil, err
		}
		if r := byKey[key]; r != nil {
			r.Metrics = append(r.Metrics, m)
		}
	}
	mrows.Close()
	for _, r := range runs {
		sort.SliceStable(r.Params, func(i, j int) bool { return rank[r.Params[i].Name] < rank[r.Params[j].Name] })
	}
	return runs, mrows.Err()
}

// ParamNames lists the grid's parameters in grid order (meta "axes"),
// falling back to sorted names for stores without it.
func (s *Store) ParamNames() ([]string, error) {
	axes, err := s.Meta("axes")
	if err != nil {
		return nil, err
	}
	var names []string
	if axes != "" {
		if err := json.Unmarshal([]byte(axes), &names); err != nil {
			return nil, fmt.Errorf("meta axes: %w", err)
		}
		return names, nil
	}
	rows, err := s.db.Query("SELECT DISTINCT name FROM params ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// FlowsOf is the set of the run's flows whose transport (tcp, udp) is
// transport, read from its stored result: repro tells a scenario's TCP
// connections from its cross traffic by what they are, not by their
// names.
func (r *Run) FlowsOf(transport string) map[string]bool {
	var res struct {
		Flows []struct {
			ID        string `json:"id"`
			Transport string `json:"transport"`
		} `json:"flows"`
	}
	set := map[string]bool{}
	if json.Unmarshal(r.Result, &res) != nil {
		return set
	}
	for _, f := range res.Flows {
		if f.Transport == transport {
			set[f.ID] = true
		}
	}
	return set
}
