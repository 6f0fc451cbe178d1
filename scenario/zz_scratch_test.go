package scenario

import "testing"

func TestZZPending(t *testing.T) {
	sc, err := Load("../examples/c-big.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := sc.Build()
	if err != nil {
		t.Fatal(err)
	}
	var sum, n, mx int
	s := run.Net.Sched
	s.SetCheck(func() bool { p := s.Pending(); sum += p; n++; mx = max(mx, p); return true })
	run.Run()
	t.Logf("pending mean %d max %d", sum/n, mx)
}
