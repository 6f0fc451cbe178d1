package store

import (
	"fmt"
)

// Merge adds the runs of the stores at paths into s. A run already in s
// (same key) is kept and the copy skipped, so merging shards, or merging
// the same shard twice, never duplicates. Stores from different sweeps
// (meta "spec" differs) are refused: their keys would not mean the same.
func (s *Store) Merge(paths ...string) (added, skipped int, err error) {
	spec, err := s.Meta("spec")
	if err != nil {
		return 0, 0, err
	}
	for _, p := range paths {
		in, err := OpenExisting(p)
		if err != nil {
			return added, skipped, err
		}
		inSpec, err := in.Meta("spec")
		if err == nil {
			err = in.Close() // checkpoint its WAL so ATTACH sees every run
		} else {
			in.Close()
		}
		if err != nil {
			return added, skipped, fmt.Errorf("%s: %w", p, err)
		}
		if spec != "" && inSpec != "" && inSpec != spec {
			return added, skipped, fmt.Errorf("%s: from a different sweep (spec %.12s, want %.12s)", p, inSpec, spec)
		}
		a, k, err := s.mergeOne(p)
		added += a
		skipped += k
		if err != nil {
			return added, skipped, fmt.Errorf("%s: %w", p, err)
		}
		if spec == "" {
			spec = inSpec
		}
	}
	return added, skipped, nil
}

func (s *Store) mergeOne(path string) (added, skipped int, err error) {
	if _, err := s.db.Exec("ATTACH DATABASE ? AS src", path); err != nil {
		return 0, 0, err
	}
	defer s.db.Exec("DETACH DATABASE src")
	tx, err := s.db.Begin()
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRow("SELECT count(*) FROM src.runs").Scan(&total); err != nil {
		return 0, 0, err
	}
	const cols = "run_key, sweep, point, replication, seed, params, metrics, result, version, events, wall_seconds, finished_at"
	res, err := tx.Exec("INSERT OR IGNORE INTO main.runs(" + cols + ") SELECT " + cols + " FROM src.runs")
	if err != nil {
		return 0, 0, err
	}
	n, _ := res.RowsAffected()
	for _, q := range []string{
		"INSERT OR IGNORE INTO main.params(run_key, name, value, num) SELECT run_key, name, value, num FROM src.params",
		"INSERT OR IGNORE INTO main.metrics(run_key, flow, name, value) SELECT run_key, flow, name, value FROM src.metrics",
		// Sweep-level facts of the first store merged are kept.
		"INSERT OR IGNORE INTO main.meta(key, value) SELECT key, value FROM src.meta",
	} {
		if _, err := tx.Exec(q); err != nil {
			return 0, 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, err
	}
	return int(n), total - int(n), nil
}
