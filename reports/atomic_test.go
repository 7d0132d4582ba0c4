package reports

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestAtomicWriteDanglingLink: a link whose target does not exist yet is
// written through (the target is created, the link stays), also along a
// chain of links and a relative link in another folder; a link into a
// folder that does not exist is an error naming it, and nothing is
// created. Issue 27: the link was replaced by a regular file.
func TestAtomicWriteDanglingLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	os.Symlink("t.txt", link)
	if err := AtomicWrite(link, text("through")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if got := readFile(t, filepath.Join(dir, "t.txt")); got != "through" {
		t.Errorf("target holds %q", got)
	}
	// A chain: a → sub/b → ../c.txt (relative to sub).
	os.Mkdir(filepath.Join(dir, "sub"), 0o777)
	os.Symlink("../c.txt", filepath.Join(dir, "sub", "b"))
	os.Symlink(filepath.Join("sub", "b"), filepath.Join(dir, "a"))
	if err := AtomicWrite(filepath.Join(dir, "a"), text("chain")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "c.txt")); got != "chain" {
		t.Errorf("chain target holds %q", got)
	}
	// Into a missing folder: refused in words, nothing made.
	bad := filepath.Join(dir, "bad")
	os.Symlink(filepath.Join("nodir", "t.txt"), bad)
	err := AtomicWrite(bad, text("x"))
	if err == nil || mechanics.IsInput(err) || !strings.Contains(err.Error(), "the folder "+filepath.Join(dir, "nodir")+" does not exist") {
		t.Errorf("link into a missing folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nodir")); !os.IsNotExist(err) {
		t.Error("the missing folder was made")
	}
	// A loop: one line, no Go function names.
	os.Symlink("l2", filepath.Join(dir, "l1"))
	os.Symlink("l1", filepath.Join(dir, "l2"))
	err = AtomicWrite(filepath.Join(dir, "l1"), text("x"))
	if err == nil || strings.Contains(err.Error(), "EvalSymlinks") || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("loop: %v", err)
	}
	if st, _ := os.Lstat(filepath.Join(dir, "l1")); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the looping link was replaced")
	}
}

// TestAtomicWriteErrorsNameThePath: errors say the path given and the
// problem in words, never a temporary name; a path through a file says
// which.
func TestAtomicWriteErrorsNameThePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "no", "x.csv"), "the folder " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(file, "x.csv"), file + " is not a folder"},
		{filepath.Join(file, "a", "x.csv"), "is not a folder"},
	} {
		err := AtomicWrite(c.path, text("x"))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("%s: %v; want %q", c.path, err, c.want)
		}
	}
	// A failed write of the temporary file names the output.
	out := filepath.Join(dir, "out.csv")
	err := AtomicWrite(out, func(w io.Writer) error {
		return &os.PathError{Op: "write", Path: filepath.Join(dir, ".out.csv.tmpabc"), Err: syscall.ENOSPC}
	})
	if err == nil || err.Error() != "cannot write "+out+": no space left on the device" || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("disk full: %v", err)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("left behind: %v", got)
	}
	if err := AtomicWrite("", text("x")); !mechanics.IsInput(err) {
		t.Errorf("empty path: %v", err)
	}
}

// TestStaleTempsRemoved: temporary files and bundle directories of
// oddsmith's naming that a killed run left (older than this process by
// StaleAge) are removed by the next write beside them; fresh ones (a run
// writing now), other names and links are left alone.
func TestStaleTempsRemoved(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := processStart.Add(-2 * StaleAge)
	mk := func(name string, isDir bool, when time.Time) string {
		p := filepath.Join(dir, name)
		if isDir {
			os.Mkdir(p, 0o777)
			os.WriteFile(filepath.Join(p, "a.csv"), []byte("x"), 0o644)
		} else {
			os.WriteFile(p, []byte("x"), 0o644)
		}
		os.Chtimes(p, when, when)
		return p
	}
	stale := mk(".out.csv.tmp3k9xq1", false, old)
	fresh := mk(".out.csv.tmp3k9xq2", false, time.Now())
	other := mk(".out.csv.tmp-mine", false, old)
	otherBase := mk(".other.csv.tmp3k9xq1", false, old)
	staleBundle := mk(".rep.oddsmith-12345", true, old)
	staleOld := mk(".rep.old-678", true, old)
	freshBundle := mk(".rep.oddsmith-999", true, time.Now())
	linkTarget := mk("keep.txt", false, old)
	link := filepath.Join(dir, ".out.csv.tmpzz")
	os.Symlink(linkTarget, link)
	os.Chtimes(link, old, old)

	if err := AtomicWrite(filepath.Join(dir, "out.csv"), text("new")); err != nil {
		t.Fatal(err)
	}
	b, err := NewBundle(filepath.Join(dir, "rep"))
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	for _, p := range []string{stale, staleBundle, staleOld} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s: a stale temporary was left", filepath.Base(p))
		}
	}
	for _, p := range []string{fresh, other, otherBase, freshBundle, linkTarget, link} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

// TestAtomicWriteDirLeavesNoFolder: a failed write removes the folders
// it made (issue 27: a failed sweep left an empty directory); folders
// that were there stay.
func TestAtomicWriteDirLeavesNoFolder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b", "c")
	paths := []string{filepath.Join(dir, "x.csv"), filepath.Join(dir, "x.png")}
	err := AtomicWriteDir(dir, paths, []func(io.Writer) error{text("x"), failing})
	if err == nil {
		t.Fatal("a failed write succeeded")
	}
	if got := entries(t, root); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
	// An existing folder stays, empty as it was.
	os.Mkdir(filepath.Join(root, "keep"), 0o777)
	dir = filepath.Join(root, "keep", "new")
	if err := AtomicWriteDir(dir, []string{filepath.Join(dir, "x.csv")}, []func(io.Writer) error{failing}); err == nil {
		t.Fatal("a failed write succeeded")
	}
	if got := entries(t, root); len(got) != 1 || len(entries(t, filepath.Join(root, "keep"))) != 0 {
		t.Errorf("left: %v", got)
	}
	// Success makes the folders.
	if err := AtomicWriteDir(dir, []string{filepath.Join(dir, "x.csv")}, []func(io.Writer) error{text("ok")}); err != nil || readFile(t, filepath.Join(dir, "x.csv")) != "ok" {
		t.Errorf("write: %v", err)
	}
	// A file in the way is bad input when it is the folder itself.
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	if err := AtomicWriteDir(file, []string{filepath.Join(file, "x")}, []func(io.Writer) error{text("x")}); !mechanics.IsInput(err) {
		t.Errorf("a file as the folder: %v", err)
	}
}

// TestBundleCleanupWithoutDescriptors: a failed bundle is removed even
// when removing a tree fails, as it does with no file descriptor left
// (ulimit -n: os.RemoveAll must open the directory): the files it wrote
// are removed by name, then the directory. The folders made for it go
// too. Issue 27: 'ulimit -n 8' left .out.oddsmith-NNN behind.
// Not parallel: it replaces removeAll.
func TestBundleCleanupWithoutDescriptors(t *testing.T) {
	removeAll = func(string) error { return &os.PathError{Op: "open", Path: "x", Err: syscall.EMFILE} }
	defer func() { removeAll = os.RemoveAll }()
	root := t.TempDir()
	b, err := NewBundle(filepath.Join(root, "new", "rep"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.csv", "a.png"} {
		if err := b.Write(f, text(f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Write("b.csv", failing); err == nil {
		t.Fatal("a failed write succeeded")
	}
	if err := b.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if got := entries(t, root); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
	// Something the bundle did not write cannot be removed by name: the
	// error says what is left.
	b, err = NewBundle(filepath.Join(root, "rep2"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(b.tmp, "stray"), nil, 0o644)
	if err := b.Close(); err == nil || !strings.Contains(err.Error(), "could not remove the temporary folder") {
		t.Errorf("close: %v", err)
	}
}

// TestBundleWriteErrorsNameTheBundle: a failed write names the file where
// the bundle puts it, not the temporary directory.
func TestBundleWriteErrorsNameTheBundle(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "rep")
	b, err := NewBundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Write("a.csv", func(io.Writer) error {
		return &os.PathError{Op: "write", Path: filepath.Join(b.tmp, "a.csv"), Err: syscall.EFBIG}
	})
	if err == nil || err.Error() != "cannot write "+filepath.Join(dir, "a.csv")+": the file is too large (see ulimit -f)" {
		t.Errorf("write: %v", err)
	}
}
