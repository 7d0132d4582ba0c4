package benchmarks

import "testing"

// notInQuickSet leaves a long benchmark out of the quick set: with
// -short, `go test ./benchmarks -run '^$' -bench . -short` runs every
// workload a performance table needs except the per-mechanic sweeps
// (SimMechanic, SimMechanicTop, ServeRoundTrip: 95 mechanics each) and the
// shard comparison (4·10⁸ trials an op), and finishes in a few minutes on
// two cores (docs/performance.md says how long each set takes).
func notInQuickSet(b *testing.B) {
	b.Helper()
	if testing.Short() {
		b.Skip("left out of the quick set (-short); run without -short for it")
	}
}
