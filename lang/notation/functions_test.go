package notation

import (
	"slices"
	"testing"
)

// TestPoolFunction: the functions that read a pool, and no other.
func TestPoolFunction(t *testing.T) {
	t.Parallel()
	var got []string
	for _, f := range Functions() {
		if PoolFunction(f) {
			got = append(got, f)
		}
	}
	want := []string{"all", "any", "count", "distinct", "highest", "largest_set", "lowest", "straight", "sum"}
	if !slices.Equal(got, want) {
		t.Errorf("pool functions %v, want %v", got, want)
	}
}
