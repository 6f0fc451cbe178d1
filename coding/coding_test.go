package coding

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// payloadOf is packet n's bytes, derived from the seed: what the
// application sent, to compare with what it got.
func payloadOf(seed uint64, n int64, size int) []byte {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// transfer pushes packets through an erasure channel of loss p: the sender
// adds a packet whenever fewer than window are unseen (a TCP-like window
// driven by the decoder's acknowledgements, which arrive at once), codes
// with redundancy r, and the receiver delivers; it returns the delivered
// payloads in order and the decoder's counts.
func transfer(t *testing.T, packets int64, p, r float64, window, size int, seed uint64) ([][]byte, DecoderStats) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	enc, err := NewEncoder(r, size, window, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	dec := NewDecoder(size)
	var got [][]byte
	var c Coded
	next := int64(0)
	for steps := 0; dec.Stats.Delivered < packets; steps++ {
		if steps > int(packets)*100 {
			t.Fatalf("stuck: %d of %d delivered", dec.Stats.Delivered, packets)
		}
		send := 0
		if next < packets && next-dec.Seen() < int64(window) {
			k, err := enc.Add(next, payloadOf(seed, next, size))
			if err != nil {
				t.Fatal(err)
			}
			next++
			send = k
		} else {
			send = 1 // nothing new to add: a retransmission's worth of redundancy
			if _, err := enc.Add(dec.Seen(), nil); err != nil {
				t.Fatal(err)
			}
		}
		for range send {
			enc.Next(&c)
			if rng.Float64() < p {
				continue // erased
			}
			if _, err := dec.Receive(&c); err != nil {
				t.Fatal(err)
			}
			dec.Deliver(func(n int64, b []byte) {
				if n != int64(len(got)) {
					t.Fatalf("delivered packet %d after %d", n, len(got))
				}
				got = append(got, append([]byte(nil), b...))
			})
			enc.Seen(dec.Seen())
		}
	}
	return got, dec.Stats
}

// Every byte delivered equals the byte sent, exactly once and in order,
// at every loss rate and redundancy.
func TestDecodeIsExact(t *testing.T) {
	for _, tc := range []struct {
		p, r   float64
		window int
	}{{0, 1, 8}, {0.05, 1.1, 32}, {0.1, 1.2, 50}, {0.2, 1.3, 100}, {0.3, 1.5, 128}, {0.06, 1.064, 50}} {
		t.Run(fmt.Sprintf("p%g-R%g-w%d", tc.p, tc.r, tc.window), func(t *testing.T) {
			const n, size = 2000, 1000
			got, st := transfer(t, n, tc.p, tc.r, tc.window, size, 7)
			if len(got) != n {
				t.Fatalf("%d packets delivered, want %d", len(got), n)
			}
			for i, b := range got {
				if !bytes.Equal(b, payloadOf(7, int64(i), size)) {
					t.Fatalf("packet %d differs from what was sent", i)
				}
			}
			if st.Innovative != n {
				t.Errorf("%d innovative coded packets for %d packets", st.Innovative, n)
			}
		})
	}
}

// Each innovative packet advances the acknowledgement by one packet (the
// oldest unseen), a non-innovative one leaves it: the duplicate ACK.
func TestInnovativePacketsAdvanceTheAck(t *testing.T) {
	const size = 64
	enc, _ := NewEncoder(1, size, 16, rand.New(rand.NewPCG(1, 1)))
	dec := NewDecoder(size)
	var c Coded
	for n := int64(0); n < 5; n++ {
		enc.Add(n, payloadOf(1, n, size))
	}
	for i := range 5 {
		enc.Next(&c)
		ok, err := dec.Receive(&c)
		if err != nil || !ok {
			t.Fatalf("coded packet %d: innovative %v, %v", i, ok, err)
		}
		if dec.Seen() != int64(i+1) {
			t.Fatalf("after %d innovative packets the ACK is %d", i+1, dec.Seen())
		}
	}
	enc.Next(&c) // a sixth combination of five packets cannot be innovative
	if ok, _ := dec.Receive(&c); ok || dec.Seen() != 5 {
		t.Fatalf("sixth combination innovative=%v, ACK %d", ok, dec.Seen())
	}
	var delivered int
	dec.Deliver(func(n int64, b []byte) {
		if !bytes.Equal(b, payloadOf(1, n, size)) {
			t.Fatalf("packet %d decoded wrong", n)
		}
		delivered++
	})
	if delivered != 5 {
		t.Fatalf("%d of 5 decoded", delivered)
	}
}

func TestRedundancyBelowOneIsRejected(t *testing.T) {
	if _, err := NewEncoder(0.9, 100, 10, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("R = 0.9 accepted")
	}
}
