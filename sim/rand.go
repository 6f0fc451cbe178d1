package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream returns the random stream of one component: a PCG generator seeded
// from (scenario seed, component name). Each component owns its stream, so
// adding a flow or a link never changes what the others draw.
func Stream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	n := h.Sum64()
	return rand.New(rand.NewPCG(splitmix(seed^0x9e3779b97f4a7c15), splitmix(n+seed)))
}

// splitmix is SplitMix64's output function: it spreads nearby seeds (1, 2,
// 3, ...) over unrelated PCG states.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
