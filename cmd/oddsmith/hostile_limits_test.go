package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/study"
	"github.com/oddsmith/oddsmith/systems"
)

// The hostile suite of issue 27's limits: generated shard files (forged,
// truncated, flipped, huge, from a pipe), every real parameter of every
// mechanic at its extremes, -o targets (links, folders, missing parents,
// ''), flags with odd numbers, a closed stdout and too few descriptors.
// Each case asserts the exit status, one line on stderr, no partial or
// temporary file, and for the huge inputs the bytes allocated. Nothing is
// timed. Every case runs under -short.

// noTemps fails if dir holds anything oddsmith leaves only by mistake: a
// temporary file or bundle folder, or a name not in keep.
func noTemps(t *testing.T, dir string, keep ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if !slices.Contains(keep, e.Name()) {
			t.Errorf("%s: left %s", dir, e.Name())
		}
	}
}

// hostileShards runs a small simulation in two shards and returns their
// files and bytes.
func hostileShards(t *testing.T, dir string) (files []string, data [][]byte) {
	t.Helper()
	files = shardAll(t, dir, "skill", 2, "sim", "ag.skill_test", "-n", "150000")
	for _, f := range files {
		data = append(data, readFile(t, f))
	}
	return files, data
}

// forgedHeader is a shard's first line and a header that says payload
// bytes follow, from a real shard's header.
func forgedHeader(t *testing.T, real []byte, payload int64) []byte {
	t.Helper()
	lines := bytes.SplitN(bytes.Clone(real), []byte("\n"), 3)
	var h map[string]any
	if err := json.Unmarshal(lines[1], &h); err != nil {
		t.Fatal(err)
	}
	h["payload_bytes"] = payload
	hj, _ := json.Marshal(h)
	return append(append(append(slices.Clone(lines[0]), '\n'), hj...), '\n')
}

// TestHostileLimitsShardFiles: every damaged or forged shard is refused
// with one line (exit 2), and merge writes nothing: no output, no
// temporary file.
func TestHostileLimitsShardFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files, data := hostileShards(t, dir)
	good := data[1]
	variants := map[string][]byte{
		"empty":          nil,
		"magic only":     []byte(study.ShardMagic),
		"future format":  []byte(study.ShardMagic + "99\n{}\n"),
		"no header":      []byte(study.ShardMagic + "1\n"),
		"zeros":          append([]byte(study.ShardMagic+"1\n"), make([]byte, 4096)...),
		"two shards":     append(slices.Clone(good), good...),
		"trailing bytes": append(slices.Clone(good), "x"...),
		"huge payload":   append(forgedHeader(t, good, 1<<40), make([]byte, 200)...),
		"no payload":     append(forgedHeader(t, good, -5), make([]byte, 200)...),
		"long header":    append(append([]byte(study.ShardMagic+"1\n{"), bytes.Repeat([]byte(" "), study.MaxShardHeader+10)...), '\n'),
	}
	for n := 0; n < len(good); n += 37 {
		variants[fmt.Sprintf("cut at %d", n)] = good[:n]
	}
	variants["cut at the checksum"] = good[:len(good)-72]
	variants["cut by one"] = good[:len(good)-1]
	for i := 0; i < len(good); i += 53 {
		c := slices.Clone(good)
		c[i] ^= 0x01
		variants[fmt.Sprintf("flip at %d", i)] = c
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range variants {
			if !yield(k) {
				return
			}
		}
	})
	work := t.TempDir()
	for i, name := range names {
		bad := filepath.Join(work, fmt.Sprintf("v%d.shard", i))
		if err := os.WriteFile(bad, variants[name], 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(work, "out.txt")
		code, _, errOut := wellBehaved(t, "merge", files[0], bad, "-o", out, "-q")
		if code != 2 {
			t.Errorf("%s: exit %d; want 2 (%s)", name, code, strings.TrimSpace(errOut))
		}
		os.Remove(bad)
		noTemps(t, work)
	}
	// The shards themselves merge.
	hostile(t, 0, "merge", files[0], files[1], "-o", filepath.Join(work, "ok.txt"), "-q")
}

// sparse makes a file of size bytes that starts with head, the rest a
// hole (zeros that take no disk).
func sparse(t *testing.T, name string, head []byte, size int64) string {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Skip("no sparse files here:", err)
	}
	return name
}

// allocatedBy is what the heap allocated while f ran.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileLimitsHugeShards: merge refuses huge shard files, from disk
// or from a pipe, after allocating a few MiB at most, whatever --memory
// (issue 27: 300 MB of zeros after a valid first line took 631 MB under
// --memory 64MiB, 0.8–1.1 GB from a pipe; 1.2 GB was read whole, 2.8 GB,
// before the refusal). Not parallel: it measures the process's
// allocations (parallel tests wait until the sequential ones are done).
func TestHostileLimitsHugeShards(t *testing.T) {
	dir := t.TempDir()
	files, data := hostileShards(t, dir)
	first := []byte(study.ShardMagic + "1\n")
	hdr := func(payload int64) []byte { return forgedHeader(t, data[0], payload) }
	const mib = 1 << 20
	cases := []struct {
		name, file, memory, want string
	}{
		{"300 MB of zeros after the first line", sparse(t, filepath.Join(dir, "z300"), first, 300e6), "64MiB", "no header"},
		{"1.2 GB of zeros after the first line", sparse(t, filepath.Join(dir, "z1200"), first, 1.2e9), "1GiB", "no header"},
		{"a header for 300 MB of counts", sparse(t, filepath.Join(dir, "h300"), hdr(300e6), int64(len(hdr(300e6)))+300e6+72), "64MiB", "the memory budget is 64 MiB"},
		{"a header for 300 MB, the default budget", sparse(t, filepath.Join(dir, "h300d"), hdr(300e6), int64(len(hdr(300e6)))+300e6+72), "1GiB", "the memory budget is 1 GiB"},
		{"a header for 20 MB of zeros", sparse(t, filepath.Join(dir, "h20"), hdr(20e6), int64(len(hdr(20e6)))+20e6+72), "1GiB", "checksum"},
		{"a header for 20 MB, the file cut short", sparse(t, filepath.Join(dir, "h20c"), hdr(20e6), 10e6), "1GiB", "truncated or damaged"},
	}
	out := filepath.Join(dir, "out.txt")
	for _, c := range cases {
		var code int
		var errOut string
		n := allocatedBy(func() {
			code, _, errOut = runCLI(t.Context(), "merge", files[0], c.file, "--memory", c.memory, "-o", out, "-q")
		})
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, %q; want 2 and one line saying %q", c.name, code, errOut, c.want)
		}
		if n > 8*mib {
			t.Errorf("%s: merge allocated %d bytes; want at most 8 MiB", c.name, n)
		}
	}
	// From a pipe: a valid first line, then 64 MiB of zeros.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	go func() {
		defer w.Close()
		if _, err := w.Write(first); err != nil {
			return
		}
		for range 64 {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { r.Close() })
	var code int
	var errOut string
	n := allocatedBy(func() {
		code, _, errOut = runCLI(t.Context(), "merge", fmt.Sprintf("/dev/fd/%d", r.Fd()), "--memory", "64MiB", "-q")
	})
	if code != 2 || !strings.Contains(errOut, "no header") {
		t.Errorf("zeros from a pipe: exit %d, %q", code, errOut)
	}
	if n > 8*mib {
		t.Errorf("zeros from a pipe: merge allocated %d bytes; want at most 8 MiB", n)
	}
	noTemps(t, dir, "z300", "z1200", "h300", "h300d", "h20", "h20c", filepath.Base(files[0]), filepath.Base(files[1]))
}

// extremes are values a real parameter is tried at: beyond exact
// arithmetic (1e-19, 5e-324 and its neighbours of few digits), the ends of
// its range, and a value with seventeen significant digits.
func extremes(p mechanics.Param) []string {
	mid := p.Min + (p.Max-p.Min)*0.123456789012345
	return []string{"1e-19", "5e-324", "1e-18", "0.000000000000000001", mechanics.FormatNum(p.Min), mechanics.FormatNum(p.Max),
		strconv.FormatFloat(mid, 'g', 17, 64), strconv.FormatFloat(math.Nextafter(p.Max, p.Min), 'g', -1, 64)}
}

// TestHostileLimitsRealParameters: every real parameter of every
// mechanic at its extremes gives a result (exit 0) or one line of bad
// input (exit 2) in both engines, never exit 1; 1e-19 and 5e-324 are
// refused with the advice to round (issue 27: "building the model failed
// … too many digits for exact arithmetic", exit 1, for seven parameters of
// ag.fall_damage, ag.radiation, gm.fall, gm.item_reaction and grim.fall).
func TestHostileLimitsRealParameters(t *testing.T) {
	t.Parallel()
	seen := 0
	for _, m := range systems.Default.All() {
		for _, p := range m.Params {
			if !p.Real {
				continue
			}
			seen++
			engines := [][]string{{"exact", "--memory", "256MiB"}, {"sim", "-n", "2000", "-q"}}
			if m.MCOnly {
				engines = engines[1:]
			}
			for _, v := range extremes(p) {
				for _, eng := range engines {
					args := append(slices.Clone(eng), m.ID, "--set", p.Name+"="+v, "--format", "csv")
					code, _, errOut := wellBehaved(t, args...)
					switch {
					case code != 0 && code != 2:
						t.Errorf("%q: exit %d; want 0 or 2: %s", args, code, errOut)
					case (v == "1e-19" || v == "5e-324") && p.Min <= 1e-19:
						if code != 2 || !strings.Contains(errOut, "round it") {
							t.Errorf("%q: exit %d, %q; want 2 and the advice to round", args, code, errOut)
						}
					}
				}
			}
		}
	}
	if seen < 9 {
		t.Errorf("%d real parameters; the systems declare at least 9", seen)
	}
}

// TestHostileLimitsOutputs: each -o target ends in the documented exit
// status with one line, writes through links (a dangling one too: issue
// 27 replaced it with a regular file), and leaves no partial or temporary
// file.
func TestHostileLimitsOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := func(p ...string) string { return filepath.Join(append([]string{dir}, p...)...) }
	os.WriteFile(at("afile"), []byte("keep"), 0o644)
	os.Symlink("target.txt", at("dangling"))
	os.Symlink(filepath.Join("nodir", "t.txt"), at("into-missing"))
	os.Symlink("loop2", at("loop1"))
	os.Symlink("loop1", at("loop2"))
	os.Mkdir(at("sub"), 0o777)
	os.Symlink(filepath.Join("..", "chained.txt"), at("sub", "hop"))
	os.Symlink(filepath.Join("sub", "hop"), at("chain"))
	cases := []struct {
		o    string
		code int
		want string // in the one line
	}{
		{"", 2, "--output is empty"},
		{at("dangling"), 0, ""},
		{at("chain"), 0, ""},
		{at("into-missing"), 1, "the folder " + at("nodir") + " does not exist"},
		{at("loop1"), 1, "symbolic links"},
		{dir, 2, "is a directory"},
		{at("no", "such", "x.txt"), 1, "the folder " + at("no", "such") + " does not exist"},
		{at("afile", "x.txt"), 1, at("afile") + " is not a folder"},
		{"/dev/null", 0, ""},
	}
	for _, c := range cases {
		for _, cmd := range [][]string{{"exact", "ag.skill_test"}, {"sim", "ag.skill_test", "-n", "1000", "-q"}, {"exact", "ag.skill_test", "--format", "json"}} {
			args := append(slices.Clone(cmd), "-o", c.o)
			code, out, errOut := wellBehaved(t, args...)
			if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("%q: exit %d, stdout %d bytes, stderr %q; want %d and %q", args, code, len(out), errOut, c.code, c.want)
			}
			for _, leak := range []string{".tmp", "EvalSymlinks", "lstat", "open "} {
				if strings.Contains(errOut, leak) {
					t.Errorf("%q: %q in %q", args, leak, errOut)
				}
			}
		}
	}
	for _, l := range []string{"dangling", "chain", "into-missing", "loop1"} {
		if st, err := os.Lstat(at(l)); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", l)
		}
	}
	if b, _ := os.ReadFile(at("target.txt")); !bytes.Contains(b, []byte("ag.skill_test")) {
		t.Error("the dangling link's target was not written")
	}
	if b, _ := os.ReadFile(at("chained.txt")); !bytes.Contains(b, []byte("ag.skill_test")) {
		t.Error("the chain's target was not written")
	}
	if b, _ := os.ReadFile(at("afile")); string(b) != "keep" {
		t.Error("afile changed")
	}
	noTemps(t, dir, "afile", "dangling", "into-missing", "loop1", "loop2", "sub", "chain", "target.txt", "chained.txt")
	noTemps(t, at("sub"), "hop")
	// A directory output through a file, or into a missing tree that then
	// fails, leaves no folder.
	hostile(t, 1, "sweep", "ag.skill_test", "--vary", "skill=0..2", "-o", at("afile", "d"), "-q")
	hostile(t, 1, "run", "../../examples/tour.toml", "-o", at("afile", "d", "e"), "-q")
	noTemps(t, dir, "afile", "dangling", "into-missing", "loop1", "loop2", "sub", "chain", "target.txt", "chained.txt")
}

// TestHostileLimitsInputErrors: an input the system cannot open (no
// descriptor left) is a runtime failure, exit 1 (issue 27: readPlan called
// EMFILE bad input); a name at fault is bad input; both say it in words.
func TestHostileLimitsInputErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err   error
		input bool
		words string
	}{
		{syscall.EMFILE, false, "too many open files (see ulimit -n)"},
		{syscall.EIO, false, "input/output error"},
		{syscall.ENOENT, true, "no such file or folder"},
		{syscall.EACCES, true, "permission denied"},
		{syscall.ENOTDIR, true, "a part of the path is not a folder"},
		{syscall.ELOOP, true, "too many symbolic links"},
	} {
		err := inputError("plan", "p.toml", &os.PathError{Op: "open", Path: "p.toml", Err: c.err})
		if mechanics.IsInput(err) != c.input || err.Error() != "cannot read the plan p.toml: "+c.words && !strings.HasPrefix(err.Error(), "cannot read the plan p.toml: "+c.words) {
			t.Errorf("%v: %v (bad input: %v); want bad input %v saying %q", c.err, err, mechanics.IsInput(err), c.input, c.words)
		}
		if strings.Contains(err.Error(), "open p.toml") {
			t.Errorf("%v: %q names the Go operation", c.err, err)
		}
	}
}

// TestHostileLimitsLeftovers: a failed plan or sweep leaves no folder it
// made (issue 27: a failed sweep left an empty directory, a failed plan
// its .out.oddsmith-NNN), and the temporary files of a killed run (older
// than this one) are removed by the next write beside them.
func TestHostileLimitsLeftovers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(dir, "big.toml")
	os.WriteFile(plan, []byte("[[analysis]]\nname = \"small\"\nexpr = \"3d6\"\n[[analysis]]\nname = \"big\"\nexpr = \"2000d1000\"\n"), 0o644)
	hostile(t, 2, "run", plan, "-o", filepath.Join(dir, "a", "b", "report"), "-q", "--memory", "1MiB")
	hostile(t, 2, "sweep", "--expr", "n*d1000 + 1000d1000", "--vary", "n=1..2", "-o", filepath.Join(dir, "c", "d"), "-q", "--memory", "1MiB")
	noTemps(t, dir, "big.toml")
	// A killed run's leftovers, an hour old: removed. A fresh one (a run
	// writing now) and another name stay.
	old := filepath.Join(dir, ".out.txt.tmp3k9x1q")
	fresh := filepath.Join(dir, ".out.txt.tmp3k9x2q")
	mine := filepath.Join(dir, ".out.txt.tmp-mine")
	oldBundle := filepath.Join(dir, ".rep.oddsmith-123456")
	for _, f := range []string{old, fresh, mine} {
		os.WriteFile(f, []byte("half"), 0o644)
	}
	os.Mkdir(oldBundle, 0o777)
	os.WriteFile(filepath.Join(oldBundle, "a.csv"), []byte("half"), 0o644)
	hour := time.Now().Add(-time.Hour)
	for _, f := range []string{old, mine, oldBundle} {
		os.Chtimes(f, hour, hour)
	}
	hostile(t, 0, "exact", "ag.skill_test", "-o", filepath.Join(dir, "out.txt"))
	hostile(t, 0, "run", "../../examples/tour.toml", "-o", filepath.Join(dir, "rep"), "-q")
	noTemps(t, dir, "big.toml", "out.txt", filepath.Base(fresh), filepath.Base(mine), "rep")
}

// TestHostileLimitsFlags: odd numbers in flags and settings are read in
// decimals or refused with one line (exit 2): 010 is ten, 0x10, 1_0, 1e3
// for a count, a space, a sign where none fits are refused.
func TestHostileLimitsFlags(t *testing.T) {
	t.Parallel()
	sim := []string{"sim", "ag.skill_test", "-q"}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{append(slices.Clone(sim), "-n", "010"), 0, ""},
		{append(slices.Clone(sim), "-n", "0x10"), 2, "in decimals"},
		{append(slices.Clone(sim), "-n", "1_000"), 2, "in decimals"},
		{append(slices.Clone(sim), "-n", "1e3"), 2, "in decimals"},
		{append(slices.Clone(sim), "-n", "+1000"), 0, ""},
		{append(slices.Clone(sim), "-n", "9223372036854775808"), 2, "-n, --trials"},
		{append(slices.Clone(sim), "-n", "0"), 2, "--trials must be between"},
		{append(slices.Clone(sim), "-n", ""), 2, "-n, --trials"},
		{append(slices.Clone(sim), "-s", "0b1"), 2, "in decimals"},
		{append(slices.Clone(sim), "-s", "-1"), 2, "-s, --seed"},
		{append(slices.Clone(sim), "--workers", "0o7"), 2, "in decimals"},
		{append(slices.Clone(sim), "--workers", "0"), 2, "--workers must be at least 1"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=1_0"}, 2, "is not a number"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=0x1"}, 2, "is not a number"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=0b1"}, 2, "is not a number"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=Inf"}, 2, "is not a number"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=1e400"}, 2, "past the range of numbers"},
		{[]string{"exact", "ag.skill_test", "--set", "skill=.5e1"}, 0, ""},
		{[]string{"exact", "ag.skill_test", "--set", "skill= 2 "}, 0, ""},
		{[]string{"sweep", "ag.skill_test", "--vary", "skill=1_0,2"}, 2, "is not a number"},
		{[]string{"sweep", "ag.skill_test", "--vary", "skill=0x0..2"}, 2, "is not a finite number"},
		{[]string{"exact", "ag.skill_test", "--memory", "1PiB"}, 0, ""},
		{[]string{"exact", "ag.skill_test", "--memory", "1PB"}, 0, ""},
		{[]string{"exact", "ag.skill_test", "--memory", "1.0000001PiB"}, 2, "between 1MiB and 1PiB"},
		{[]string{"exact", "ag.skill_test", "--memory", "1_000MiB"}, 2, "between 1MiB and 1PiB"},
		{[]string{"exact", "ag.skill_test", "--memory", "0x100MiB"}, 2, "between 1MiB and 1PiB"},
		{[]string{"exact", "ag.skill_test", "--bogus"}, 2, "unknown flag: --bogus (run 'oddsmith exact --help'"},
		{[]string{"exact", "ag.skill_test", "-Z"}, 2, "run 'oddsmith exact --help'"},
		{[]string{"frobnicate"}, 2, "unknown command \"frobnicate\" (run 'oddsmith --help'"},
	}
	for _, c := range cases {
		code, _, errOut := wellBehaved(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// TestHostileLimitsShardIndex: a scheduler's index with a space, a sign
// or another base is refused, not trimmed (issue 27: SLURM_ARRAY_TASK_ID="
// 1" was accepted). Not parallel: it sets the environment.
func TestHostileLimitsShardIndex(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{" 1", "1 ", "+1", "0x1", "1.0"} {
		t.Setenv("SLURM_ARRAY_TASK_ID", v)
		_, errOut := hostile(t, 2, "sim", "ag.skill_test", "--shard", "auto/2", "-o", filepath.Join(dir, "s"), "-q")
		if !strings.Contains(errOut, "is not a whole number") {
			t.Errorf("SLURM_ARRAY_TASK_ID=%q: %q", v, errOut)
		}
	}
	noTemps(t, dir)
}

// TestHostileLimitsExactWork: expensive exact work is refused before it
// starts (issue 27: 200d200!kh100 took 28 s of CPU before), with the
// advice to simulate; the same rolls simulate. The refusal before any
// work is counted in package exact (TestKeepRefusedBeforeStarting); here,
// the command's exit status and line. Keeping one of many dice
// (255d100000kl1 and kh1, 14 s and 41 s before) is an order statistic,
// linear in dice × faces, so it is computed, not refused.
func TestHostileLimitsExactWork(t *testing.T) {
	t.Parallel()
	for _, e := range []string{"255d100000kl1", "255d100000kh1"} {
		hostile(t, 0, "exact", "--expr", e)
	}
	for _, e := range []string{"200d200!kh100", "200d1400kh100"} {
		_, errOut := hostile(t, 2, "exact", "--expr", e)
		if !strings.Contains(errOut, "oddsmith sim") {
			t.Errorf("%s: %q; want the advice to simulate", e, errOut)
		}
		hostile(t, 0, "sim", "--expr", e, "-n", "2000", "-q")
	}
	// The budget counts a wide sum's working arrays.
	_, errOut := hostile(t, 2, "exact", "--expr", "1000d1000", "--memory", "16MiB")
	if !strings.Contains(errOut, "the memory budget is 16 MiB") {
		t.Errorf("1000d1000 under 16MiB: %q", errOut)
	}
}

// child runs the test binary as oddsmith with args (see TestMain), its
// standard descriptors files (nil: closed), and returns its exit status
// and stderr. Extra environment (ODDSMITH_NOFILE) sets up what the child
// does before main.
func child(t *testing.T, files [3]*os.File, env []string, args ...string) (int, string) {
	t.Helper()
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if files[2] == nil {
		files[2] = errW
	}
	env = append(append(os.Environ(), "ODDSMITH_AS_COMMAND=1", "ODDSMITH_ARGS="+strings.Join(args, " ")), env...)
	p, err := os.StartProcess(os.Args[0], []string{os.Args[0]}, &os.ProcAttr{Env: env, Files: files[:]})
	errW.Close()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	stderr.ReadFrom(errR)
	errR.Close()
	st, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return st.ExitCode(), stderr.String()
}

// TestHostileLimitsProcess: a standard output closed at start makes a
// command that prints exit 1 with one line (issue 27: exit 0, the output
// lost); /dev/null as stdout, a daemon's read-write /dev/null on every
// standard descriptor and -o FILE are fine. Too few descriptors is one
// line, exit 1, where the runtime's poller died with a goroutine dump.
func TestHostileLimitsProcess(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the closed-stdout check is Linux's")
	}
	dir := t.TempDir()
	// A terminal's stdin (a pipe here): only stdout is closed.
	in, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	defer inW.Close()
	code, errOut := child(t, [3]*os.File{in, nil, nil}, nil, "exact", "ag.skill_test")
	if code != 1 || !strings.Contains(errOut, "standard output is closed") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("closed stdout: exit %d, %q", code, errOut)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if code, errOut := child(t, [3]*os.File{nil, null, nil}, nil, "exact", "ag.skill_test"); code != 0 {
		t.Errorf(">/dev/null: exit %d, %q", code, errOut)
	}
	rw, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	if code, errOut := child(t, [3]*os.File{rw, rw, nil}, nil, "exact", "ag.skill_test"); code != 0 {
		t.Errorf("a daemon's /dev/null: exit %d, %q", code, errOut)
	}
	out := filepath.Join(dir, "x.txt")
	if code, errOut := child(t, [3]*os.File{in, nil, nil}, nil, "exact", "ag.skill_test", "-o", out); code != 0 {
		t.Errorf("closed stdout with -o: exit %d, %q", code, errOut)
	}
	// -o /dev/stdout into a pipe: /proc/self/fd/1's link text ("pipe:[…]")
	// is no path; the pipe is written in place.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	code, errOut = child(t, [3]*os.File{in, pw, nil}, nil, "exact", "ag.skill_test", "-o", "/dev/stdout")
	pw.Close()
	var piped bytes.Buffer
	piped.ReadFrom(pr)
	pr.Close()
	if code != 0 || !strings.Contains(piped.String(), "ag.skill_test") {
		t.Errorf("-o /dev/stdout into a pipe: exit %d, %q, stdout %q", code, errOut, piped.String())
	}
	// Too few descriptors: the child lowers its own limit before main.
	for _, n := range []string{"5", "6", "7"} {
		code, errOut := child(t, [3]*os.File{nil, null, nil}, []string{"ODDSMITH_NOFILE=" + n}, "sim", "ag.skill_test", "-n", "1000", "-q")
		if code != 1 || !strings.Contains(errOut, "too few files can be opened") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("ulimit -n %s: exit %d, %q", n, code, errOut)
		}
	}
	noTemps(t, dir, "x.txt")
}

// childHooks sets up the child before main (TestMain calls it): a lower
// limit of open files (ODDSMITH_NOFILE), as 'ulimit -n' would set.
func childHooks() {
	if n, err := strconv.ParseUint(os.Getenv("ODDSMITH_NOFILE"), 10, 64); err == nil {
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n})
	}
}
