package reports

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func failing(io.Writer) error { return errors.New("disk full") }

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// TestAtomicWriteFiles is not parallel: it sets the process's umask.
func TestAtomicWriteFiles(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()

	// A new file gets 0666 less the umask; a replaced one keeps its mode.
	p := filepath.Join(dir, "out.csv")
	if err := AtomicWrite(p, text("a")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v; want 0644", st.Mode().Perm())
	}
	os.Chmod(p, 0o640)
	if err := AtomicWrite(p, text("b")); err != nil || readFile(t, p) != "b" {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("replaced file mode %v; want 0640 kept", st.Mode().Perm())
	}
	// A failed write leaves the old content and no temporary file.
	if err := AtomicWrite(p, failing); err == nil || readFile(t, p) != "b" {
		t.Errorf("failed write: %v, content %q", err, readFile(t, p))
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("left behind: %v", got)
	}
	// A symlink stays a symlink; its target gets the content.
	target := filepath.Join(dir, "target.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := AtomicWrite(link, text("new")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 || readFile(t, target) != "new" {
		t.Errorf("symlink replaced or target not written")
	}
	// A named pipe is written, not replaced by a regular file.
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := AtomicWrite(fifo, text("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("pipe read %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the pipe was replaced")
	}
	// A device is written in place.
	if err := AtomicWrite("/dev/null", text("x")); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
	if st, _ := os.Stat("/dev/null"); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null is no longer a device")
	}
	// A directory is bad input.
	if err := AtomicWrite(dir, text("x")); !mechanics.IsInput(err) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestAtomicWriteAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.png")
	os.WriteFile(a, []byte("old a"), 0o644)
	if err := AtomicWriteAll([]string{a, b}, []func(io.Writer) error{text("new a"), failing}); err == nil {
		t.Fatal("a failed write succeeded")
	}
	if readFile(t, a) != "old a" {
		t.Error("the first file changed although the second failed")
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("left behind: %v", got)
	}
	if err := AtomicWriteAll([]string{a, b}, []func(io.Writer) error{text("new a"), text("b")}); err != nil || readFile(t, a) != "new a" || readFile(t, b) != "b" {
		t.Errorf("write all: %v", err)
	}
}

func bundle(t *testing.T, dir string, files ...string) ([]string, error) {
	t.Helper()
	b, err := NewBundle(dir)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	for _, f := range files {
		if err := b.Write(f, text(f)); err != nil {
			return nil, err
		}
	}
	return b.Commit()
}

func TestBundleDestinations(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	// New directory.
	dir := filepath.Join(root, "report")
	if _, err := bundle(t, dir, "a.csv", "a.png"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(entries(t, dir), " "); got != ".oddsmith-bundle a.csv a.png index.md" {
		t.Errorf("bundle holds %s", got)
	}
	// An earlier bundle is replaced as a whole: no stale file stays.
	if _, err := bundle(t, dir, "b.csv"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(entries(t, dir), " "); got != ".oddsmith-bundle b.csv index.md" {
		t.Errorf("replaced bundle holds %s", got)
	}
	if got := entries(t, root); len(got) != 1 {
		t.Errorf("left beside the bundle: %v", got)
	}
	// An empty directory is filled.
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := bundle(t, empty, "c.csv"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(entries(t, empty), " "); got != ".oddsmith-bundle c.csv index.md" {
		t.Errorf("filled directory holds %s", got)
	}
	// A directory with other files, or a file, is refused and untouched.
	mine := filepath.Join(root, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("keep"), 0o644)
	if _, err := bundle(t, mine, "d.csv"); !mechanics.IsInput(err) || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("foreign directory: %v", err)
	}
	if got := strings.Join(entries(t, mine), " "); got != "notes.txt" {
		t.Errorf("foreign directory now holds %s", got)
	}
	file := filepath.Join(root, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if _, err := bundle(t, file, "e.csv"); !mechanics.IsInput(err) {
		t.Errorf("file as bundle: %v", err)
	}
	// Two parts writing one name fail before anything is put in place.
	dup := filepath.Join(root, "dup")
	if _, err := bundle(t, dup, "x_pmf.png", "x_pmf.png"); err == nil {
		t.Error("a duplicate file name was accepted")
	}
	if _, err := os.Stat(dup); !os.IsNotExist(err) {
		t.Error("a failed bundle created its directory")
	}
	if got := entries(t, root); strings.Join(got, " ") != "empty file mine report" {
		t.Errorf("root holds %v", got)
	}
}

// A variable with no value at all (every trial undefined) still gives a
// valid JSON document (JSON has no NaN) and a CSV with an undefined row.
func TestAllUndefinedVariable(t *testing.T) {
	t.Parallel()
	r := &engine.Result{Mechanic: "x.y", Engine: engine.Exact, Vars: []engine.VarResult{{Name: "time", Undefined: 1, UndefinedLabel: "not absorbed within 5 steps",
		Stats: engine.Stats{Mean: math.NaN(), SD: math.NaN()}}}}
	var js, cs strings.Builder
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"undefined":{"time":{"label":"not absorbed within 5 steps","p":1}}`) {
		t.Errorf("JSON %s", js.String())
	}
	if err := WriteCSV(&cs, r); err != nil || !strings.Contains(cs.String(), "undefined,time,not absorbed within 5 steps,1,") || strings.Contains(cs.String(), "NaN") {
		t.Errorf("CSV %v:\n%s", err, cs.String())
	}
	var tb strings.Builder
	if err := WriteTable(&tb, r); err != nil || strings.Contains(tb.String(), "NaN") {
		t.Errorf("table %v:\n%s", err, tb.String())
	}
}
