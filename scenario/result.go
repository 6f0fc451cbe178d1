package scenario

import (
	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/routing"
	"github.com/tcplab/tcplab/wireless"
)

// Result is what one run of a scenario produced, in the JSON form of
// `tcplab run --format json`.
type Result struct {
	Scenario    string         `json:"scenario"`
	Seed        uint64         `json:"seed"`
	Events      uint64         `json:"events"`       // simulation events run
	SimSeconds  float64        `json:"sim_seconds"`  // simulated time at the end
	WallSeconds float64        `json:"wall_seconds"` // time the run took (the only non-deterministic field)
	Flows       []metrics.Flow `json:"flows"`        // in file order
	// Drops counts every drop in the network by cause
	// (network.DropCause names).
	Drops map[string]int64 `json:"drops"`
	// Queues holds, for every link direction whose queue held a packet
	// (by name, "link/FROM>TO"), how long its packets waited for the
	// transmitter: mean, percentiles and maximum over all it sent.
	Queues map[string]network.QueueStats `json:"queues,omitempty"`
	// Wireless holds each radio's MAC counters, by node (absent without
	// a wireless channel).
	Wireless map[string]wireless.Stats `json:"wireless,omitempty"`
	// Routing counts an on-demand routing protocol's control packets
	// (absent with static routes).
	Routing *routing.Stats `json:"routing,omitempty"`
	// Agents holds each ALL-TCP agent's counters, by node (absent
	// without agents).
	Agents map[string]any `json:"agents,omitempty"`
	// Emulation holds, in a run with kernel hosts (tcplab emulate), how
	// late events ran against the wall clock and each host's packets at
	// its device (package kernel).
	Emulation any `json:"emulation,omitempty"`
	// Warnings are problems found while building that do not stop the
	// run (an agent no flow crosses).
	Warnings []string `json:"warnings,omitempty"`
}
