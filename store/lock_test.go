//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// One sweep per store: a second Lock is refused with the holder named, and
// released by the first one's end.
func TestLockRefusesASecondSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	release, err := a.Lock()
	if err != nil {
		t.Fatal(err)
	}
	var held *InUseError
	if _, err := b.Lock(); !errors.As(err, &held) || held.PID == "" {
		t.Fatalf("second lock: %v, want an InUseError naming the holder", err)
	}
	release()
	again, err := b.Lock()
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
	// A finished sweep leaves nothing beside its store.
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s.lock after release: %v", path, err)
	}
}
