package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in a scenario, located either at a line of
// the file or at a --set flag (whose values have no line of their own).
type Error struct {
	File  string // the scenario file
	Line  int    // 1-based; 0 when the problem is not tied to a line
	Set   string // the --set flag the offending value came from, if any
	Field string // the field's path, e.g. links[bottleneck].bandwidth
	Msg   string

	setIndex int // which --set flag, for ordering
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Set != "":
		fmt.Fprintf(&b, "--set %s", e.Set)
	case e.Line > 0:
		fmt.Fprintf(&b, "%s:%d", e.File, e.Line)
	default:
		b.WriteString(e.File)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one scenario. Loading keeps going after
// the first problem so that one run of `tcplab validate` shows them all.
type Errors []*Error

// maxShown is how many problems Error spells out. One mistake in a
// template with count: 100000 is 100 000 problems at one line; the first
// ones say what is wrong, the rest only bury it (compilers stop likewise).
// Every problem stays in the slice for a program to read.
const maxShown = 20

func (es Errors) Error() string {
	n := min(len(es), maxShown)
	lines := make([]string, n, n+1)
	for i, e := range es[:n] {
		lines[i] = e.Error()
	}
	if len(es) > n {
		lines = append(lines, fmt.Sprintf("... and %d more problems (%d in all)", len(es)-n, len(es)))
	}
	return strings.Join(lines, "\n")
}

// Sorted orders --set problems first, in flag order (an override is the
// latest change to the scenario, often the cause of what follows, and
// must not sit below the shown problems), then file problems by line; the
// sort is stable so problems on one line keep their discovery order.
func (es Errors) Sorted() Errors {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if (a.Set != "") != (b.Set != "") {
			return a.Set != ""
		}
		if a.Set != "" {
			return a.setIndex < b.setIndex
		}
		return a.Line < b.Line
	})
	return es
}

// reporter collects errors and turns yaml line numbers into locations.
// Lines of nodes that came from the k-th --set flag are stored as -(k+1),
// a marking that survives the copies made by count expansion.
type reporter struct {
	file  string
	sets  []string
	errs  Errors
	bad   map[string]bool // fields already reported
	warns []string        // problems that do not stop the run
}

// warn records a problem that does not stop the run, placed as an error
// would be.
func (r *reporter) warn(line int, field, format string, args ...any) {
	e := &Error{File: r.file, Field: field, Msg: fmt.Sprintf(format, args...)}
	if line < 0 && -line-1 < len(r.sets) {
		e.Set, e.setIndex = r.sets[-line-1], -line-1
	} else if line > 0 {
		e.Line = line
	}
	r.warns = append(r.warns, e.Error())
}

// at reports a problem with field. Only the first problem of a field is
// kept: a value that failed to parse would otherwise also fail the
// checks made on its zero value.
func (r *reporter) at(line int, field, format string, args ...any) {
	if field != "" {
		if r.bad[field] {
			return
		}
		if r.bad == nil {
			r.bad = map[string]bool{}
		}
		r.bad[field] = true
	}
	e := &Error{File: r.file, Field: field, Msg: fmt.Sprintf(format, args...)}
	if line < 0 && -line-1 < len(r.sets) {
		e.Set, e.setIndex = r.sets[-line-1], -line-1
	} else if line > 0 {
		e.Line = line
	}
	r.errs = append(r.errs, e)
}

func (r *reporter) err() error {
	if len(r.errs) == 0 {
		return nil
	}
	return r.errs.Sorted()
}
