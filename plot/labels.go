package plot

import (
	"strings"
)

// fieldLabels names the scenario fields a sweep varies most often, by the
// part of the path after the link or flow name.
var fieldLabels = map[string]string{
	"loss.rate":                "loss rate",
	"rate":                     "802.11b rate",
	"loss.type":                "loss model",
	"bandwidth":                "bandwidth",
	"delay":                    "delay",
	"queue.limit":              "queue limit",
	"queue.type":               "queue",
	"transport.variant":        "TCP variant",
	"transport.profile":        "TCP profile",
	"transport.window":         "window",
	"transport.mss":            "MSS",
	"transport.sack":           "SACK",
	"transport.rto.min":        "minimum RTO",
	"transport.rto.policy":     "RTO policy",
	"transport.delack_timeout": "delayed-ACK timer",
	"app.size":                 "transfer size",
	"start":                    "start time",
	"count":                    "number of flows",
	"duration":                 "duration",
	"seed":                     "seed",
}

// ParamLabel names a sweep parameter for people: labels[path] when given,
// else "loss rate on lossy" for links.lossy.loss.rate, "TCP variant of
// ftp" for flows.ftp.transport.variant; a path it does not know keeps its
// last field, and a named case (variant) stays as it is.
func ParamLabel(path string, labels map[string]string) string {
	if l, ok := labels[path]; ok {
		return l
	}
	// Indices of lists (loss.0.rate: the first error model) name no
	// quantity.
	var parts []string
	for _, f := range strings.Split(path, ".") {
		if strings.Trim(f, "0123456789") != "" {
			parts = append(parts, f)
		}
	}
	if len(parts) >= 2 && parts[0] == "wireless" {
		field := strings.Join(parts[1:], ".")
		name, ok := fieldLabels[field]
		if !ok {
			name = strings.ReplaceAll(parts[len(parts)-1], "_", " ")
		}
		return name + " at the radios"
	}
	if len(parts) >= 3 && (parts[0] == "links" || parts[0] == "flows" || parts[0] == "nodes") {
		field := strings.Join(parts[2:], ".")
		name, ok := fieldLabels[field]
		if !ok {
			name = strings.ReplaceAll(parts[len(parts)-1], "_", " ")
		}
		if parts[0] == "links" {
			return name + " on " + parts[1]
		}
		return name + " of " + parts[1]
	}
	if name, ok := fieldLabels[path]; ok {
		return name
	}
	return strings.ReplaceAll(path, "_", " ")
}
