package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostile runs the command and checks what every run must satisfy
// (wellBehaved) and the wanted exit status.
func hostile(t *testing.T, want int, args ...string) (stdout, stderr string) {
	t.Helper()
	code, out, errOut := wellBehaved(t, args...)
	if code != want {
		t.Errorf("%q: exit %d; want %d (stderr %q)", args, code, want, errOut)
	}
	return out, errOut
}

// wellBehaved runs the command and checks what every run must satisfy,
// whatever its exit status: no stack trace and no "internal error", and
// when it fails, one line naming the problem (a flag error included: its
// pointer to --help is on the same line) and nothing on stdout.
func wellBehaved(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	code, out, errOut := runCLI(t.Context(), args...)
	for _, bad := range []string{"goroutine", "panic", "internal error", "runtime error"} {
		if strings.Contains(errOut, bad) {
			t.Errorf("%q: %q on stderr: %s", args, bad, errOut)
		}
	}
	if code != 0 {
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if !strings.HasPrefix(lines[0], "oddsmith: ") || len(lines) > 1 {
			t.Errorf("%q: stderr is not one clear line: %q", args, errOut)
		}
		if out != "" {
			t.Errorf("%q: failed but wrote to stdout: %q", args, out)
		}
	}
	return code, out, errOut
}

func TestHostileSettings(t *testing.T) {
	t.Parallel()
	for _, set := range []string{
		"skill=NaN", "skill=Inf", "skill=-Inf", "skill=1e400", "skill=0x10", "skill=", "skill= ", "=3", "skill==3",
		"skill=3=4", "skill=-0", "opt.tie=", "opt.tie=BAND", "skill=١", "skill=\x00", "skill=9999999999999999999999",
		"ag.skill_test.skill=41", "opt.=x", ".=x", "opt.tie.x=band",
	} {
		t.Run(set, func(t *testing.T) {
			want := 2
			if set == "skill=-0" {
				want = 0
			}
			hostile(t, want, "exact", "ag.skill_test", "--set", set)
		})
	}
	hostile(t, 2, "exact", "ag.fall_damage", "--set", "height=NaN")
	hostile(t, 2, "exact", "ag.fall_damage", "--set", "height=1e309")
	hostile(t, 0, "exact", "ag.fall_damage", "--set", "height=12.125")
	hostile(t, 2, "describe", "ag.skill_test", "--set", "skill=99")
	hostile(t, 2, "sim", "ag.skill_test", "-n", "1e6")
	hostile(t, 2, "sim", "ag.skill_test", "-n", "-5")
	hostile(t, 2, "sim", "ag.skill_test", "-n", "99999999999999999999")
	hostile(t, 2, "sim", "ag.skill_test", "--workers", "-1")
	hostile(t, 2, "sim", "ag.skill_test", "--seed", "x")
}

func TestHostileSweeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "never")
	for _, vary := range [][]string{
		{"skill=NaN..5"}, {"skill=0..Inf"}, {"skill=-Inf..0"}, {"skill=0..5:NaN"}, {"skill=0..1e300:1e-300"},
		{"skill=0..9999", "tn=0..9999"}, {"skill=0...3"}, {"skill=0..3", "skill=0..3"},
		{"skill=3..1"}, {"skill=0..3:0"}, {"skill=0..3:-1"}, {"skill"}, {"=0..3"}, {"skill=0..50"}, {"nope=0..3"},
		{"skill=0..2", "tn=1..3", "attribute=0..1"},
	} {
		args := []string{"sweep", "ag.skill_test", "-o", out, "-q"}
		for _, v := range vary {
			args = append(args, "--vary", v)
		}
		hostile(t, 2, args...)
	}
	hostile(t, 2, "sweep", "ag.skill_test", "--vary", "skill=0..3", "--workers", "0", "-o", out)
	hostile(t, 2, "sweep", "ag.skill_test", "--vary", "skill=0..3", "--plot", "pie", "-o", out)
	hostile(t, 2, "sweep", "ag.skill_test", "--vary", "skill=0..3", "--metric", "event:nope", "-o", out)
	hostile(t, 2, "sweep", "ag.attack", "--vary", "aiming=0..4", "--set", "skill=2", "-o", out)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused sweep created its output directory")
	}
	// The output is a file: refused, the file untouched.
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("keep"), 0o644)
	hostile(t, 2, "sweep", "ag.skill_test", "--vary", "skill=0..3", "-o", file, "-q")
	if b, _ := os.ReadFile(file); string(b) != "keep" {
		t.Error("the file was changed")
	}
	// Decimal steps land on decimals, not float noise.
	stdout, _ := hostile(t, 0, "sweep", "ag.fall_damage", "--vary", "height=0..0.9:0.1", "-o", dir, "-q")
	csv, _ := os.ReadFile(strings.Fields(stdout)[0])
	if strings.Contains(string(csv), "0000000") {
		t.Errorf("float noise in the sweep CSV:\n%s", csv)
	}
}

func TestHostileOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A directory is not a file.
	hostile(t, 2, "exact", "ag.skill_test", "-o", dir)
	// A missing directory on the way is an I/O failure.
	hostile(t, 1, "exact", "ag.skill_test", "-o", filepath.Join(dir, "no", "such", "file.csv"))
	// Devices are written in place.
	hostile(t, 0, "exact", "ag.skill_test", "-o", "/dev/null")
	// A symlink stays; its target gets the output.
	target := filepath.Join(dir, "target.json")
	os.WriteFile(target, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink(target, link)
	hostile(t, 0, "exact", "ag.skill_test", "-o", link, "--format", "json")
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced")
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"mechanic":"ag.skill_test"`) {
		t.Error("the target was not written")
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode became %v", st.Mode().Perm())
	}
	// A full disk is an I/O failure, for every command that writes.
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		for _, args := range [][]string{{"list"}, {"describe", "ag.skill_test"}, {"exact", "ag.skill_test"}, {"exact", "ag.skill_test", "-o", "/dev/full"}} {
			code := run(context.Background(), args, full, &strings.Builder{})
			if code != 1 {
				t.Errorf("%v to /dev/full: exit %d; want 1", args, code)
			}
		}
		full.Close()
	}
}

// TestOutputUmask: a new output file respects the umask. The umask is the
// process's: the test is not parallel, so no other test runs under it.
func TestOutputUmask(t *testing.T) {
	name := filepath.Join(t.TempDir(), "new.csv")
	old := syscall.Umask(0o027)
	hostile(t, 0, "exact", "ag.skill_test", "-o", name, "--format", "csv")
	syscall.Umask(old)
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("new file mode %v under umask 027", st.Mode().Perm())
	}
}

func TestHostilePlans(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	out := filepath.Join(dir, "never")
	for _, src := range []string{
		"", "\x00\x01\x02", "[[analysis]]\n", "title = 3\n", "[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nset = { skill = 1e999 }\n",
		"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\nset = { skill = [1, 2] }\n",
		"[[analysis]]\nname = \"a/b\"\nmechanic = \"ag.skill_test\"\n",
		"[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\ntrials = -3\nengine = \"sim\"\n",
		"[[analysis]]\nname = \"index\"\nmechanic = \"ag.skill_test\"\nvary = { skill = \"0..1\" }\n[[overlay]]\nname = \"index\"\nrange = \"0..1\"\nseries = []\n",
	} {
		hostile(t, 2, "run", write("plan.toml", src), "-o", out, "-q")
	}
	hostile(t, 2, "run", filepath.Join(dir, "missing.toml"), "-o", out)
	hostile(t, 2, "run", dir, "-o", out)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused plan created its output directory")
	}
	// A bundle never lands in a directory holding other files.
	mine := filepath.Join(dir, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("keep"), 0o644)
	good := write("good.toml", "[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n")
	hostile(t, 2, "run", good, "-o", mine, "-q")
	if es, _ := os.ReadDir(mine); len(es) != 1 {
		t.Errorf("the foreign directory now holds %d entries", len(es))
	}
	// A second run replaces the first bundle as a whole.
	report := filepath.Join(dir, "report")
	hostile(t, 0, "run", good, "-o", report, "-q")
	hostile(t, 0, "run", write("other.toml", "[[analysis]]\nname = \"b\"\nmechanic = \"grim.core.check\"\n"), "-o", report, "-q")
	if _, err := os.Stat(filepath.Join(report, "a.csv")); !os.IsNotExist(err) {
		t.Error("a stale file of the first bundle stayed")
	}
}
