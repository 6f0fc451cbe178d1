package scenario

import (
	"strings"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/traffic"
)

// A part's kind comes from its registry, yet its messages name the line
// and the field as when the scenario package knew every kind: an unknown
// kind with what there is, a key of another kind with what this one
// takes, a missing required key, and what the kind's own validation finds,
// down to an element of a list inside it.
func TestPartErrorsNameTheLineAndField(t *testing.T) {
	const link = "duration: 10s\nnodes: [A, B]\nlinks:\n  - from: A\n    to: B\n    bandwidth: 1Mbps\n    delay: 10ms\n"
	cases := []struct {
		name, part string
		want       []string
	}{
		{"unknown queue type", "    queue: {type: redd}\n",
			[]string{`x.yaml:8: links[0].queue.type: unknown queue type "redd" (have ` + strings.Join(network.Queues.Names(), ", ") + `)`}},
		{"a key of another discipline", "    queue: {type: droptail, fraction: 0.3}\n",
			[]string{`x.yaml:8: links[0].queue.fraction: not a parameter of queue droptail (it takes: type, limit, limit_bytes)`}},
		{"a key of no discipline", "    queue: {type: droptail, limitt: 3}\n",
			[]string{`x.yaml:8: links[0].queue.limitt: unknown field (did you mean "limit"?)`}},
		{"a discipline's own check", "    queue:\n      type: red\n      min_th: 30\n      max_th: 10\n      max_p: 0\n",
			[]string{
				`x.yaml:11: links[0].queue.max_th: RED needs 0 ≤ min_th < max_th (got 30, 10)`,
				`x.yaml:12: links[0].queue.max_p: max_p must be positive`,
			}},
		{"a required key with its own message", "    queue: {type: marker}\n",
			[]string{`x.yaml:8: links[0].queue.fraction: missing: a marker needs its threshold (e.g. 0.3 for NewJersey)`}},
		{"no limit in any unit", "    queue: {limit: 0}\n",
			[]string{`x.yaml:8: links[0].queue.limit: queue limit must be positive, got 0`}},
		{"unknown loss model", "    loss: {model: gilbert, rate: 1%}\n",
			[]string{`x.yaml:8: links[0].loss.model: unknown loss model "gilbert" (have ` + strings.Join(network.Losses.Names(), ", ") + `)`}},
		{"missing keys, not the checks on their zero values", "    loss: {model: onoff}\n",
			[]string{
				`x.yaml:8: links[0].loss.mean_up: missing: loss model onoff needs it`,
				`x.yaml:8: links[0].loss.mean_down: missing: loss model onoff needs it`,
			}},
		{"keys common to every model", "    loss: {rate: 1%, direction: sideways, packets: some}\n",
			[]string{
				`x.yaml:8: links[0].loss.direction: unknown direction "sideways" (want forward, reverse or both)`,
				`x.yaml:8: links[0].loss.packets: unknown packet kind "some" (want all, data or acks)`,
			}},
		{"the second model of a list", "    loss:\n      - {rate: 1%}\n      - model: targeted\n        rate: 1%\n        cause: fire\n",
			[]string{`x.yaml:12: links[0].loss[1].cause: unknown cause "fire" (want wireless or congestion)`}},
		{"a field of an element inside a part", "    delay_process:\n      model: schedule\n      steps:\n        - {at: 2s, delay: 5ms}\n        - at: 1s\n",
			[]string{
				`x.yaml:12: links[0].delay_process.steps[1].at: steps must be in increasing time order`,
				`x.yaml:12: links[0].delay_process.steps[1].delay: missing`,
			}},
		{"a message about the part itself", "    delay_process: {model: two_state, delay2: 50ms, mean1: 0s, mean2: 1s}\n",
			[]string{`x.yaml:8: links[0].delay_process: each state needs a positive mean or min_stay`}},
	}
	const flow = "flows:\n  - name: f\n    src: A\n    dst: B\n"
	cases = append(cases, []struct {
		name, part string
		want       []string
	}{
		{"unknown application", flow + "    app: ftp\n",
			[]string{`x.yaml:12: flows[f].app.type: unknown application "ftp" (have ` + strings.Join(traffic.Apps.Names(), ", ") + `)`}},
		{"an application's own checks", flow + "    app: {type: onoff, rate: 1Mbps, packet_size: 20B, burst: 0s, idle: 1s}\n",
			[]string{
				`x.yaml:12: flows[f].app.burst: mean burst period must be positive`,
				`x.yaml:12: flows[f].app.packet_size: packet size 20B leaves no payload after the 28B UDP/IP header`,
			}},
		{"a parameter of an application that takes none", flow + "    app: {type: bulk, rate: 1Mbps}\n",
			[]string{`x.yaml:12: flows[f].app.rate: not a parameter of application bulk (it takes none)`}},
		{"a connection's application over UDP", flow + "    transport: udp\n    app: {type: transfer, size: 1MB}\n",
			[]string{`x.yaml:12: flows[f].transport: a transfer application needs TCP; UDP carries cbr and onoff only`}},
	}...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLines(t, parseErrors(t, link+c.part), c.want)
		})
	}
}
