package ring

import (
	"math/rand/v2"
	"testing"
)

// The buffer behaves as a FIFO against a plain slice model over random
// pushes and pops, across many growths and wraps.
func TestBufferMatchesSliceModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b Buffer[int]
	var model []int
	next := 0
	for step := range 100000 {
		if rng.IntN(3) > 0 || len(model) == 0 {
			b.PushBack(next)
			model = append(model, next)
			next++
		} else {
			got := b.PopFront()
			if got != model[0] {
				t.Fatalf("step %d: popped %d, want %d", step, got, model[0])
			}
			model = model[1:]
		}
		if b.Len() != len(model) {
			t.Fatalf("step %d: Len %d, want %d", step, b.Len(), len(model))
		}
		if len(model) > 0 {
			i := rng.IntN(len(model))
			if *b.At(i) != model[i] {
				t.Fatalf("step %d: At(%d) = %d, want %d", step, i, *b.At(i), model[i])
			}
		}
	}
}

// At gives a pointer into the buffer: writes through it are kept.
func TestAtIsAddressable(t *testing.T) {
	var b Buffer[[2]int]
	for i := range 20 {
		b.PushBack([2]int{i, 0})
	}
	b.PopFront()
	b.At(3)[1] = 7
	if v := *b.At(3); v != [2]int{4, 7} {
		t.Errorf("At(3) = %v", v)
	}
}

// PopFront clears the slot it leaves, so the buffer does not keep popped
// packets alive.
func TestPopFrontClearsTheSlot(t *testing.T) {
	var b Buffer[*int]
	x := 1
	b.PushBack(&x)
	b.PopFront()
	for _, p := range b.buf {
		if p != nil {
			t.Fatal("popped pointer still held")
		}
	}
}

// Once grown, a buffer in steady state does not allocate.
func TestSteadyStateDoesNotAllocate(t *testing.T) {
	var b Buffer[*int]
	x := 1
	for range 100 {
		b.PushBack(&x)
	}
	if n := testing.AllocsPerRun(1000, func() { b.PushBack(&x); b.PopFront() }); n != 0 {
		t.Errorf("%.1f allocations per push and pop", n)
	}
}

func BenchmarkPushPop(b *testing.B) {
	var r Buffer[*int]
	x := 1
	for range 50 {
		r.PushBack(&x)
	}
	for b.Loop() {
		r.PushBack(&x)
		r.PopFront()
	}
}
