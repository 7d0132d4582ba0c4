// Package benchmarks holds oddsmith's performance suites; it has no code of
// its own. Run them with
//
//	go test ./benchmarks -run '^$' -bench . -benchmem -count 10 | tee new.txt
//	benchstat new.txt
//
// Case names follow the workload (`BenchmarkExact/task=sum_1000d6`) so
// benchstat can pivot on /task.
package benchmarks
