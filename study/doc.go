// Package study decides what to compute and runs it: it chooses and runs
// an engine for a mechanic at a configuration ([Engine]), validates and
// runs grids of one or two varied parameters ([Sweep]), reads, validates
// and runs batch plans of analyses, overlays and charts into report
// bundles ([ParsePlan], [RunPlan]), holds the cross-system atlas, a plan of
// twelve charts built into the binary ([AtlasPlan]), and cuts a run into
// shards that run anywhere and merge exactly ([Shard], [ShardFile],
// [MergeShards]).
//
// # Where it sits
//
// Above the engines, below the command line: study imports both engines
// (exact and sim) and chooses between them, cmd/oddsmith calls it, and it
// hands plain results to package reports, which writes the files.
package study
