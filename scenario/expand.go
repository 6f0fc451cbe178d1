package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/sim"
)

// Count expansion: an entry of nodes, links or flows with "count: N"
// stands for N copies of itself in its place, with "{i}" in every string
// (names, node references, any value) replaced by 1..N. It works on the
// YAML tree, before decoding, so each copy is checked like a hand-written
// entry and its errors point at the template's lines. A counted flow's
// start_step staggers the copies: copy k starts at start + (k-1)·start_step.

const (
	maxCount  = 1000000 // copies of one entry
	maxCopies = 2000000 // entries of one list after expansion
	maxNodes  = 1e7     // YAML nodes copied by expansion per list (about 1 GB), to bound memory
)

// expandLists are the top-level lists whose entries may carry a count.
var expandLists = []string{"nodes", "links", "flows"}

// expand replaces counted entries by their copies. It reports false when
// a list would pass the limits: nothing is expanded past that point, and
// decoding the rest would only add problems that follow from it.
func expand(r *reporter, root *yaml.Node) bool {
	if root.Kind != yaml.MappingNode {
		return true
	}
	for _, list := range expandLists {
		seq := mappingValue(root, list)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		var out []*yaml.Node
		total, made := 0, 0
		for i, e := range seq.Content {
			n, countAt := entryCount(r, e, list+"["+elementLabel(e, i)+"]")
			if countAt < 0 {
				out = append(out, e)
				total++
				continue
			}
			made += n * copiedSize(e)
			if total+n > maxCopies || made > maxNodes {
				r.at(e.Content[countAt+1].Line, list+"["+elementLabel(e, i)+"].count", "%s would have more than %d entries or %d copied values", list, maxCopies, int(maxNodes))
				return false
			}
			tmpl := &yaml.Node{}
			*tmpl = *e
			tmpl.Content = append(append([]*yaml.Node(nil), e.Content[:countAt]...), e.Content[countAt+2:]...)
			stagger := staggering(r, tmpl, list+"["+elementLabel(e, i)+"]")
			for k := 1; k <= n; k++ {
				c := substitute(tmpl, strconv.Itoa(k))
				if stagger != nil {
					stagger(c, k-1)
				}
				out = append(out, c)
			}
			total += n
		}
		seq.Content = out
	}
	return true
}

// staggering handles a counted flow's start_step: it removes the key from
// the template and returns a function that writes copy k's start,
// start + k·start_step, into the copy. Writing it into the tree keeps one
// meaning for start: an override of flows.f3.start sets f3's start.
func staggering(r *reporter, tmpl *yaml.Node, path string) func(c *yaml.Node, k int) {
	at := -1
	for i := 0; i+1 < len(tmpl.Content); i += 2 {
		if tmpl.Content[i].Value == "start_step" {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	stepNode := tmpl.Content[at+1]
	tmpl.Content = append(tmpl.Content[:at:at], tmpl.Content[at+2:]...)
	step, err := durationNode(stepNode)
	if err != nil {
		r.at(stepNode.Line, path+".start_step", "%v", err)
		return nil
	}
	var start sim.Time
	line := stepNode.Line
	if s := mappingValue(tmpl, "start"); s != nil {
		if start, err = durationNode(s); err != nil {
			return nil // reported when the copies are decoded
		}
		line = s.Line
	}
	return func(c *yaml.Node, k int) {
		// Float arithmetic cannot overflow; a start beyond the longest
		// duration then fails to parse, with a message, when decoded.
		t := min(float64(start)+float64(k)*float64(step), 2*maxDuration)
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strconv.FormatInt(int64(t), 10) + "ns", Line: line}
		if i := mappingIndex(c, "start"); i >= 0 {
			c.Content[i] = v // replaced, not written through: scalars are shared
			return
		}
		c.Content = append(c.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "start", Line: line}, v)
	}
}

func durationNode(n *yaml.Node) (sim.Time, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, fmt.Errorf("want a single value, got a %s", kindName(n))
	}
	return parseDuration(n.Value)
}

// entryCount reads an entry's count. countAt is the index of the count key
// in the mapping's Content, or -1 if the entry has no (valid) count; a bad
// count is reported and the entry is then kept as a single copy without it.
func entryCount(r *reporter, e *yaml.Node, path string) (n, countAt int) {
	if e.Kind != yaml.MappingNode {
		return 0, -1
	}
	for i := 0; i+1 < len(e.Content); i += 2 {
		if e.Content[i].Value != "count" {
			continue
		}
		v := e.Content[i+1]
		n, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || n < 0 || n > maxCount {
			r.at(v.Line, path+".count", "count must be an integer from 0 to %d, got %q", maxCount, v.Value)
			e.Content = append(e.Content[:i:i], e.Content[i+2:]...)
			return 0, -1
		}
		return n, i
	}
	return 0, -1
}

// substitute copies n with "{i}" replaced by k in every scalar. A scalar
// without "{i}" (every key, most values) is shared by all the copies, not
// copied: nothing changes a scalar in place (overrides and staggering
// replace it in its parent), and at 100 000 copies the copying was a
// fifth of loading.
func substitute(n *yaml.Node, k string) *yaml.Node {
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "{i}") {
		return n
	}
	c := &yaml.Node{}
	*c = *n
	if n.Kind == yaml.ScalarNode {
		c.Value = strings.ReplaceAll(n.Value, "{i}", k)
	}
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, e := range n.Content {
			c.Content[i] = substitute(e, k)
		}
	}
	return c
}

// copiedSize is how many nodes substitute makes for one copy of n: the
// scalars without "{i}" are shared, not copied.
func copiedSize(n *yaml.Node) int {
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "{i}") {
		return 0
	}
	size := 1
	for _, c := range n.Content {
		size += copiedSize(c)
	}
	return size
}
