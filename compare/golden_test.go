package compare

import (
	"testing"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/scenario/scenariotest"
)

// TestDropListRunsUnchanged pins every drop-list validation run, result
// and sender events, so that a change of the engine that is meant to keep
// behaviour shows it kept it (scenario/scenariotest).
func TestDropListRunsUnchanged(t *testing.T) {
	got := map[string]scenariotest.Case{}
	add := func(key, y string) {
		sc, err := scenario.Parse("droplist.yaml", []byte(y), nil)
		if err != nil {
			t.Fatal(err)
		}
		got[key] = scenariotest.Run(t, sc)
	}
	for _, c := range dropCases() {
		add("ns2/"+c.key(), c.tcplabYAML())
	}
	for _, c := range ns3DropCases() {
		add("ns3/"+c.key(), c.yaml(ns3Transport))
	}
	scenariotest.Check(t, "testdata/golden-droplist.json", got)
}
