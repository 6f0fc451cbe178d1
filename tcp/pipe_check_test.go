package tcp

import (
	"os"
	"testing"
)

// TestMain runs the package's tests with the SACK pipe checked against
// its segment-by-segment definition at every computation: every lossy run
// of the tests (SACK recovery, timeouts, partial ACKs, profiles) is then
// a check of the incremental pipe.
func TestMain(m *testing.M) {
	checkPipe = true
	os.Exit(m.Run())
}
