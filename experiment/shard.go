package experiment

import (
	"fmt"
	"strconv"
)

// ShardFromEnv finds this process's shard from a cluster's environment:
// Slurm job arrays (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, and
// SLURM_ARRAY_TASK_MIN for arrays that do not start at 0) or Kubernetes
// Indexed Jobs (JOB_COMPLETION_INDEX, with the count from count, or
// TCPLAB_SHARDS, as Kubernetes does not export it). ok is false when
// neither is set.
func ShardFromEnv(getenv func(string) string, count int) (i, n int, ok bool, err error) {
	num := func(name string) (int, error) {
		v, err := strconv.Atoi(getenv(name))
		if err != nil {
			return 0, fmt.Errorf("%s=%q: not an integer", name, getenv(name))
		}
		return v, nil
	}
	if getenv("SLURM_ARRAY_TASK_ID") != "" {
		id, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return 0, 0, false, err
		}
		if getenv("SLURM_ARRAY_TASK_COUNT") == "" {
			return 0, 0, false, fmt.Errorf("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
		}
		n, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return 0, 0, false, err
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = num("SLURM_ARRAY_TASK_MIN"); err != nil {
				return 0, 0, false, err
			}
		}
		i = id - lo
		if i < 0 || i >= n {
			return 0, 0, false, fmt.Errorf("slurm array task %d is outside %d..%d: use a contiguous array (--array=0-%d)", id, lo, lo+n-1, n-1)
		}
		return i, n, true, nil
	}
	if getenv("JOB_COMPLETION_INDEX") != "" {
		idx, err := num("JOB_COMPLETION_INDEX")
		if err != nil {
			return 0, 0, false, err
		}
		n := count
		if n <= 0 && getenv("TCPLAB_SHARDS") != "" {
			if n, err = num("TCPLAB_SHARDS"); err != nil {
				return 0, 0, false, err
			}
		}
		if n <= 0 {
			return 0, 0, false, fmt.Errorf("JOB_COMPLETION_INDEX is set: give the number of shards (the Job's completions) with --shards or TCPLAB_SHARDS")
		}
		if idx < 0 || idx >= n {
			return 0, 0, false, fmt.Errorf("JOB_COMPLETION_INDEX %d is outside 0..%d", idx, n-1)
		}
		return idx, n, true, nil
	}
	return 0, 0, false, nil
}

// ParseShard reads "I/N" (0 <= I < N).
func ParseShard(s string) (i, n int, err error) {
	var a, b int
	if _, err := fmt.Sscanf(s, "%d/%d", &a, &b); err != nil || fmt.Sprintf("%d/%d", a, b) != s {
		return 0, 0, fmt.Errorf("--shard %q: want I/N, e.g. 0/4", s)
	}
	if b < 1 || a < 0 || a >= b {
		return 0, 0, fmt.Errorf("--shard %q: want 0 <= I < N", s)
	}
	return a, b, nil
}
