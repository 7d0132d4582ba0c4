// Package benchmarks holds oddsmith's performance suites; it has no code of
// its own. The quick set leaves out the per-mechanic sweeps and the shard
// comparison and takes a few minutes on two cores:
//
//	go test ./benchmarks -run '^$' -bench . -short
//
// The full suite, for a comparison of two versions (docs/performance.md says
// how long each takes and lists the figures):
//
//	go test ./benchmarks -run '^$' -bench . -benchmem -count 6 | tee new.txt
//	benchstat old.txt new.txt
//
// Case names follow the workload (`BenchmarkExact/task=sum_1000d6`) so
// benchstat can pivot on /task.
package benchmarks
