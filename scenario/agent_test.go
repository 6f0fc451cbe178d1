package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/alltcp"
)

const agentBase = `name: a
duration: 5s
nodes: [H1, {name: R, agent: AGENT}, H2, X]
links:
  - {name: l1, from: H1, to: R, bandwidth: 4Mbps, delay: 10ms}
  - {name: l2, from: R, to: H2, bandwidth: 4Mbps, delay: 10ms}
  - {name: l3, from: H2, to: X, bandwidth: 4Mbps, delay: 10ms}
flows:
  - {name: f, src: SRC, dst: DST, transport: {variant: tahoe, profile: ns2}}
`

func agentScenario(agent, src, dst string) string {
	return strings.NewReplacer("AGENT", agent, "SRC", src, "DST", dst).Replace(agentBase)
}

// TestBadAgentSettingsNameTheirLine checks that an agent's impossible
// settings stop the scenario before it runs, at the file, line and field.
func TestBadAgentSettingsNameTheirLine(t *testing.T) {
	cases := []struct{ agent, want string }{
		{"{type: alltcp, alpha: 0.9, beta: 0.8}", "a.yaml:3: nodes[R].agent.alpha: 0.9 is not below beta 0.8"},
		{"{type: alltcp, beta: 0.3}", "a.yaml:3: nodes[R].agent.beta: 0.3 is not above alpha's default 0.5"},
		{"{type: alltcp, epsilon: 1.2}", "a.yaml:3: nodes[R].agent.epsilon: 1.2: want ε in (0, 1)"},
		{"{type: alltcp, epsilon: 0}", "a.yaml:3: nodes[R].agent.epsilon: 0: want ε in (0, 1)"},
		{"{type: alltcp, predictor: lstm}", `nodes[R].agent.predictor: "lstm": want farima, arima, ewma or last`},
		{"{type: alltcp, buffer: 1KB}", "nodes[R].agent.buffer: 1000 bytes: want at least two segments"},
		{"{type: tdlrp}", `nodes[R].agent.type: "tdlrp": the only agent is alltcp`},
		{"{type: alltcp, gama_max: 2}", "nodes[R].agent.gama_max: unknown field"},
		{"tdlrp", `a.yaml:3: nodes[R].agent.type: "tdlrp": the only agent is alltcp`},
		// One error, at its line (a line-less "type" error came with it).
		{"[alltcp]", "a.yaml:3: nodes[R].agent: want a mapping (key: value), got a list"},
	}
	for _, tc := range cases {
		_, err := Parse("a.yaml", []byte(agentScenario(tc.agent, "H1", "H2")), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "problems") {
			t.Errorf("%s: got %v, want %q alone", tc.agent, err, tc.want)
		}
	}
}

// TestAgentByItsNameTakesItsDefaults checks the bare-name form (agent:
// alltcp), as app and routing take it: the kind with its defaults.
func TestAgentByItsNameTakesItsDefaults(t *testing.T) {
	byName, err := Parse("a.yaml", []byte(agentScenario("alltcp", "H1", "H2")), nil)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := Parse("a.yaml", []byte(agentScenario("{type: alltcp}", "H1", "H2")), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := byName.Nodes[1].Agent, mapped.Nodes[1].Agent
	if a == nil || a.Type != "alltcp" || fmt.Sprint(a.Params) != fmt.Sprint(b.Params) {
		t.Fatalf("agent: alltcp gave %+v, {type: alltcp} %+v", a, b)
	}
}

// TestAgentNoFlowCrossesIsAWarning checks that an agent off every flow's
// path is reported, and that the run still happens; an agent on the path
// is silent and splits the flow.
func TestAgentNoFlowCrossesIsAWarning(t *testing.T) {
	s, err := Parse("a.yaml", []byte(agentScenario("{type: alltcp, mode: split}", "H2", "X")), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "a.yaml:3: nodes[R].agent: no flow crosses node R") {
		t.Errorf("warnings %q", res.Warnings)
	}
	s, err = Parse("a.yaml", []byte(agentScenario("{type: alltcp, mode: split}", "H1", "H2")), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if st, ok := res.Agents["R"].(alltcp.Stats); len(res.Warnings) != 0 || !ok || st.Splits != 1 || st.LongLived != 1 {
		t.Errorf("warnings %q, agent %+v", res.Warnings, res.Agents["R"])
	}
}
