package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/study"
)

// yamlList reads the block list of quoted strings that follows the first
// line "key:" after a line containing after (a small reader for our own
// manifests, not general YAML).
func yamlList(t *testing.T, src, after, key string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(src, after)
	if !ok {
		t.Fatalf("no %q in the manifest", after)
	}
	lines := strings.Split(rest, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != key+":" {
			continue
		}
		var out []string
		for _, l := range lines[i+1:] {
			l = strings.TrimSpace(l)
			if !strings.HasPrefix(l, "- ") {
				break
			}
			s, err := strconv.Unquote(strings.TrimPrefix(l, "- "))
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			out = append(out, s)
		}
		return out
	}
	t.Fatalf("no %s: list after %q", key, after)
	return nil
}

// TestKubernetesIndexedJob runs the Indexed Job of examples/kubernetes as
// Kubernetes would: each index with JOB_COMPLETION_INDEX set and $(VAR)
// expanded in the arguments, the shared volume a directory, then the merge
// Job's command; the result has the bytes of the same simulation on one
// machine. Only the trial count is made small.
func TestKubernetesIndexedJob(t *testing.T) {
	for _, v := range study.IndexVars {
		t.Setenv(v, "")
	}
	dir := t.TempDir()
	job, err := os.ReadFile("../../examples/kubernetes/indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(job)
	if !strings.Contains(src, "completionMode: Indexed") {
		t.Fatal("the Job is not an Indexed Job")
	}
	m := regexp.MustCompile(`(?m)^\s*completions: (\d+)$`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("no completions in the Job")
	}
	k, _ := strconv.Atoi(m[1])
	args := yamlList(t, src, "name: shard", "args")
	if !strings.Contains(strings.Join(args, " "), fmt.Sprintf("--shard auto/%d", k)) {
		t.Fatalf("the shard arguments %q do not say --shard auto/%d (completions: %d)", args, k, k)
	}
	for i := range args {
		if i > 0 && args[i-1] == "-n" {
			args[i] = "200000" // small enough for a test
		}
	}
	expand := regexp.MustCompile(`\$\(([A-Z_]+)\)`)
	var shardArgs []string
	for i := range k {
		t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(i))
		shardArgs = shardArgs[:0]
		for _, a := range args {
			a = expand.ReplaceAllStringFunc(a, func(v string) string { return os.Getenv(v[2 : len(v)-1]) })
			shardArgs = append(shardArgs, strings.ReplaceAll(a, "/shards/", dir+"/"))
		}
		mustRun(t, append(shardArgs, "-q")...)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "")

	merge, err := os.ReadFile("../../examples/kubernetes/merge-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sh := yamlList(t, string(merge), "name: merge", "args")
	if len(sh) != 1 {
		t.Fatalf("merge args %q: want one shell command", sh)
	}
	var margs []string
	for _, f := range strings.Fields(strings.ReplaceAll(sh[0], "/shards/", dir+"/"))[1:] { // drop "oddsmith"
		if strings.Contains(f, "*") {
			files, _ := filepath.Glob(f)
			if len(files) != k {
				t.Fatalf("%s matches %d shard files; want %d", f, len(files), k)
			}
			margs = append(margs, files...)
			continue
		}
		margs = append(margs, f)
	}
	mustRun(t, margs...)

	// The same simulation on one machine.
	var single []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--shard" || args[i] == "-o" {
			i++
			continue
		}
		single = append(single, args[i])
	}
	want := mustRun(t, append(single, "-q")...)
	got := readFile(t, filepath.Join(dir, "skill.csv"))
	if !bytes.Equal(got, []byte(want)) {
		t.Errorf("the merged Kubernetes shards differ from one run:\n%s\nwant:\n%s", got, want)
	}
}
