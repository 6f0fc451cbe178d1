package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestBuiltInCopiesMatchTheFilesOnDisk(t *testing.T) {
	disk, _ := filepath.Glob("*.yaml")
	if len(disk) == 0 || len(List()) != len(disk) {
		t.Fatalf("%d built in, %d on disk", len(List()), len(disk))
	}
	for _, name := range disk {
		want, _ := os.ReadFile(name)
		for _, as := range []string{name, "examples/" + name, "./examples/" + name} {
			got, ok := Read(as)
			if !ok || !bytes.Equal(got, want) {
				t.Errorf("Read(%q): ok=%v, equal=%v", as, ok, bytes.Equal(got, want))
			}
		}
	}
	if _, ok := Read("examples/none.yaml"); ok {
		t.Error("Read found a file that does not exist")
	}
}

func TestWriteAllNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	wrote, err := WriteAll(dir)
	if err != nil || len(wrote) != len(List()) {
		t.Fatalf("wrote %d of %d: %v", len(wrote), len(List()), err)
	}
	mine := filepath.Join(dir, List()[0].Name)
	os.WriteFile(mine, []byte("# mine\n"), 0o644)
	if _, err := WriteAll(dir); err == nil {
		t.Fatal("second WriteAll succeeded over existing files")
	}
	if b, _ := os.ReadFile(mine); string(b) != "# mine\n" {
		t.Fatalf("edited file overwritten: %q", b)
	}
}

func TestSummaryIsTheLeadingComment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"# One line.\nname: x\n", "One line."},
		{"#\n# Two\n# lines\n#\n# not this\n", "Two lines"},
		{"name: x\n# late\n", ""},
		{"# " + string(bytes.Repeat([]byte("word "), 30)), "word word word word word word word word word word word word word word word word …"},
	}
	for _, tc := range tests {
		if got := summary([]byte(tc.in)); got != tc.want {
			t.Errorf("summary(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
