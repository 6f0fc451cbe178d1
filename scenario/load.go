package scenario

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	builtin "github.com/tcplab/tcplab/examples"
)

// Load reads, overrides (sets are PATH=VALUE, as --set) and checks a
// scenario file. A scenario problem is returned as Errors, listing every
// problem found; anything else (an unreadable file) as a plain error.
func Load(path string, sets []string) (*Scenario, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, sets)
}

// MaxFileBytes caps scenario and sweep files: a hand-written file is a
// few kilobytes, and reading /dev/zero or a log by mistake must stop.
const MaxFileBytes = 16 << 20

// ReadFile reads a scenario or sweep file of at most MaxFileBytes. A
// relative path under examples/ that is not on disk is read from the copy
// built into the binary, so that the examples, sweeps and reproductions
// run from any directory.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) && !filepath.IsAbs(path) {
		if rel := filepath.ToSlash(filepath.Clean(path)); strings.HasPrefix(rel, builtin.Dir+"/") {
			if b, ok := builtin.Read(rel); ok {
				return b, nil
			}
		}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a scenario file", path, MaxFileBytes>>20)
	}
	return data, nil
}

// Parse is Load on the contents of a file; file names it in messages.
func Parse(file string, data []byte, sets []string) (*Scenario, error) {
	r := &reporter{file: file, sets: sets}
	var doc yaml.Node
	if err := unmarshalYAML(data, &doc); err != nil {
		line, msg := syntaxError(err)
		// The parser reports an unclosed [ or { at the line before the one
		// it opened on; name the bracket's own line instead.
		if at, open := unclosed(data); at > 0 {
			line, msg = at, fmt.Sprintf("syntax error: this %q is never closed", string(open))
		}
		// yaml.v3 names no line for a control character: find it.
		if at, col, c := controlChar(data); line == 0 && at > 0 {
			line, msg = at, fmt.Sprintf("syntax error: control character %U at column %d is not allowed in YAML (a binary or corrupted file?)", c, col)
		}
		r.at(line, "", "%s", msg)
		return nil, r.err()
	}
	var root *yaml.Node
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		root = doc.Content[0]
	} else {
		root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1}
	}

	// Overrides apply to the file as written, so that a template such as
	// flows.f{i} can be changed; those naming a copy of a counted entry
	// (flows.f7) apply after expansion.
	var later []*override
	for i, s := range sets {
		o := parseOverride(r, i, s)
		if o == nil {
			continue
		}
		if err := o.apply(root); err != nil {
			if errors.As(err, new(errNotFound)) {
				later = append(later, o)
				continue
			}
			r.at(o.value.Line, "", "%v", err)
		}
	}
	if !expand(r, root) {
		return nil, r.err()
	}
	for _, o := range later {
		if err := o.apply(root); err != nil {
			r.at(o.value.Line, "", "%v", err)
		}
	}

	s := &Scenario{File: file, sets: sets}
	if root.Kind != yaml.MappingNode {
		r.at(root.Line, "", "a scenario is a mapping (duration:, nodes:, links:, flows:), got a %s", kindName(root))
		return nil, r.err()
	}
	d := &decoder{reporter: r}
	d.decodeStruct(root, reflect.ValueOf(s).Elem(), "")
	s.check(r)
	if err := r.err(); err != nil {
		return nil, err
	}
	s.warnings = r.warns
	return s, nil
}

// unmarshalYAML parses data into a node tree. The parser is third-party
// code fed untrusted input; a panic in it becomes an error.
func unmarshalYAML(data []byte, n *yaml.Node) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("yaml: cannot parse: %v", p)
		}
	}()
	return yaml.Unmarshal(data, n)
}

// unclosed finds the outermost flow bracket ([ or {) left open at the end
// of the text, skipping quoted strings and comments; line is 0 if every
// bracket closes.
func unclosed(data []byte) (line int, open byte) {
	type mark struct {
		line int
		b    byte
	}
	var stack []mark
	ln := 1
	var quote byte
	comment := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			ln++
			comment = false
			continue
		case comment:
			continue
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '#':
			comment = i == 0 || data[i-1] == ' ' || data[i-1] == '\t'
		case '"', '\'':
			// A quote starts a string only where a value can begin.
			if i == 0 || strings.IndexByte(" \t[{,:", data[i-1]) >= 0 {
				quote = c
			}
		case '[', '{':
			stack = append(stack, mark{ln, c})
		case ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return 0, 0
	}
	return stack[0].line, stack[0].b
}

// controlChar finds the first character YAML does not allow in a file
// (C0 controls other than tab, newline and carriage return, and DEL),
// with its line and column from 1.
func controlChar(data []byte) (line, col int, c rune) {
	line, col = 1, 0
	for _, r := range string(data) {
		col++
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == '\r':
		case r < 0x20 || r == 0x7f:
			return line, col, r
		}
	}
	return 0, 0, 0
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError splits "yaml: line 3: did not find expected key".
func syntaxError(err error) (int, string) {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, "syntax error: " + err.Error()
	}
	line, _ := strconv.Atoi(m[1])
	return line, "syntax error: " + m[2]
}
