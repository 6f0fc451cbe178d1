// Package examples holds tcplab's example scenarios and sweeps, built into
// the binary so that every command (run, sweep, repro, compare) works from
// any directory: a path under examples/ that does not exist on disk is read
// from here (scenario.ReadFile). A file on disk always wins, so an edited
// checkout runs what it shows.
package examples

import (
	"bufio"
	"bytes"
	"embed"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Dir is the directory name the built-in files answer to.
const Dir = "examples"

// Example is one built-in file.
type Example struct {
	Name    string // file name, e.g. dumbbell-lossy.yaml
	Summary string // the first line of its leading comment
}

// List returns the built-in files in name order.
func List() []Example {
	ents, _ := fs.ReadDir(files, ".") // sorted by name
	out := make([]Example, 0, len(ents))
	for _, e := range ents {
		b, _ := files.ReadFile(e.Name())
		out = append(out, Example{Name: e.Name(), Summary: summary(b)})
	}
	return out
}

// Read returns the built-in file name (with or without the examples/
// prefix); ok is false when there is none.
func Read(name string) (data []byte, ok bool) {
	name = strings.TrimPrefix(path.Clean(name), Dir+"/")
	b, err := files.ReadFile(name)
	return b, err == nil
}

// summary is the start of a YAML file's leading comment, cut at a word
// boundary near 80 characters.
func summary(b []byte) string {
	var text []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		c, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "#")
		c = strings.TrimSpace(c)
		if !ok || (c == "" && len(text) > 0) {
			break
		}
		if c != "" {
			text = append(text, c)
		}
	}
	s := strings.Join(text, " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80])
		if i := strings.LastIndexByte(s, ' '); i > 40 {
			s = s[:i]
		}
		s = strings.TrimRight(s, " ,:;") + " …"
	}
	return s
}

// WriteAll writes every built-in file into dir (created if needed) and
// returns the paths written. An existing file is left alone and reported
// as an error, so that edits are never overwritten.
func WriteAll(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var wrote []string
	for _, e := range List() {
		b, _ := files.ReadFile(e.Name)
		p := filepath.Join(dir, e.Name)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return wrote, err
		}
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return wrote, err
		}
		wrote = append(wrote, p)
	}
	return wrote, nil
}
