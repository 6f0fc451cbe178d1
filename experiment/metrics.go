package experiment

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/store"
)

// FlowMetricNames lists the numeric per-flow results (metrics.Flow JSON
// names), which a sweep may collect by name.
func FlowMetricNames() []string {
	t := reflect.TypeFor[metrics.Flow]()
	var ns []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch f.Type.Kind() {
		case reflect.Float64, reflect.Int64, reflect.Int, reflect.Int32:
			ns = append(ns, name)
		}
	}
	sort.Strings(ns)
	return ns
}

// KnownMetric reports whether a sweep can collect metric m: a numeric
// flow result, dropped.CAUSE, accuracy.NAME or coding.NAME of a flow, or run.events,
// run.sim_seconds, run.drops.CAUSE, run.agent.NODE.COUNTER (an ALL-TCP
// agent's, forecast errors as run.agent.NODE.forecast.PREDICTOR.nmse),
// run.queue.LINK/FROM>TO.STAT (a link direction's queueing delay: mean_ms,
// p50_ms, p90_ms, p99_ms, max_ms, packets, queued; 0 for a link whose
// queue never held a packet) of the whole run.
func KnownMetric(m string) bool {
	for _, n := range FlowMetricNames() {
		if m == n {
			return true
		}
	}
	for _, p := range []string{"dropped.", "accuracy.", "coding.", "run.drops.", "run.agent.", "run.queue."} {
		if strings.HasPrefix(m, p) && len(m) > len(p) {
			return true
		}
	}
	return m == "run.events" || m == "run.sim_seconds"
}

// extract picks the metrics of a result. want empty means every numeric
// flow result plus every drop cause seen; flows empty means all flows.
func extract(res *scenario.Result, want, flows []string) []store.Metric {
	keepFlow := func(id string) bool {
		if len(flows) == 0 {
			return true
		}
		for _, f := range flows {
			if f == id {
				return true
			}
		}
		return false
	}
	var out []store.Metric
	for i := range res.Flows {
		f := &res.Flows[i]
		if !keepFlow(f.ID) {
			continue
		}
		all := flatten(f)
		if len(want) == 0 {
			for _, n := range slices.Sorted(maps.Keys(all)) {
				out = append(out, store.Metric{Flow: f.ID, Name: n, Value: all[n]})
			}
			continue
		}
		for _, n := range want {
			if strings.HasPrefix(n, "run.") {
				continue
			}
			// Absent counters (a drop cause that never happened) are 0;
			// absent accuracies are not measured, so not stored.
			v, ok := all[n]
			if !ok && strings.HasPrefix(n, "accuracy.") {
				continue
			}
			out = append(out, store.Metric{Flow: f.ID, Name: n, Value: v})
		}
	}
	run := map[string]float64{"run.events": float64(res.Events), "run.sim_seconds": res.SimSeconds}
	for c, n := range res.Drops {
		run["run.drops."+c] = float64(n)
	}
	for node, st := range res.Agents {
		for k, v := range numbers(st) {
			run["run.agent."+node+"."+k] = v
		}
	}
	for link, q := range res.Queues {
		for k, v := range numbers(q) {
			run["run.queue."+link+"."+k] = v
		}
	}
	for _, n := range want {
		if strings.HasPrefix(n, "run.") {
			out = append(out, store.Metric{Flow: "", Name: n, Value: run[n]})
		}
	}
	return out
}

// flatten turns a flow result into name → value for its numbers, with
// maps of numbers as prefix.key.
func flatten(f *metrics.Flow) map[string]float64 { return numbers(f) }

// numbers flattens the JSON form of v to its numbers, nested objects
// joined with dots.
func numbers(v any) map[string]float64 {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	out := map[string]float64{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			switch x := v.(type) {
			case float64:
				out[prefix+k] = x
			case map[string]any:
				walk(prefix+k+".", x)
			}
		}
	}
	walk("", m)
	return out
}
