// Command oddsmith is the command line of the oddsmith toolkit, which
// computes how tabletop dice mechanics behave, exactly and by simulation.
//
// It parses the arguments and flags, wires the packages that do the work
// (the registry of systems with the --rules files laid over it, study to
// run the engines, sweeps, plans and shards, reports to write the results)
// and maps their errors to exit statuses: 0 ok, 1 failure, 2 bad input,
// 130 and 143 interrupted (SIGINT, SIGTERM). It has no logic of its own
// beyond the command line's (flag values, bounded reads of input files,
// the arguments and input checksums a shard records for merge): models,
// engines, output formats and shard files live in those packages.
//
//	oddsmith list
//	oddsmith describe ag.skill_test
//	oddsmith exact ag.skill_test --set skill=2 --set attribute=2 --set tn=5
//	oddsmith sim ag.skill_test --set skill=2 -n 1000000 -s 42 --workers 2
package main
