package mechanics

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestSlotGetByMultiplication: Get's division by multiplication agrees with
// hardware division for strides and radices of every size, at the edges of
// 32-bit codes and beyond them.
func TestSlotGetByMultiplication(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := []int{1, 2, 3, 4, 1 << 20, 1<<26 + 1, 5, 7, 10, 11, 64, 1000, 65535, 65536, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1}
	for range 20 {
		ds = append(ds, 1+rng.IntN(1<<20), 1+rng.IntN(1<<32))
	}
	codes := []int{0, 1, 2, 1<<52 - 1, 1 << 51, 1<<32 - 2, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1 << 40, -1}
	for range 300 {
		codes = append(codes, rng.IntN(1<<32), rng.IntN(1<<16), rng.IntN(1<<50), rng.IntN(1<<52))
	}
	for _, stride := range ds {
		for _, radix := range ds {
			if hi, lo := bits.Mul64(uint64(stride), uint64(radix)); hi != 0 || lo > 1<<52 {
				continue
			}
			s := newSlot(-3, stride, radix, &Field{Name: "x"})
			for _, c := range codes {
				if c < 0 {
					continue
				}
				if got, want := s.Get(c), (c/stride)%radix-3; got != want {
					t.Fatalf("stride %d radix %d code %d: Get = %d, want %d", stride, radix, c, got, want)
				}
			}
		}
	}
}
