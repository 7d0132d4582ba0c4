package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Bundle is a report directory that appears whole or not at all. It is
// built in a temporary directory and put in place by Commit:
//
//   - a directory that does not exist yet is created by renaming the
//     finished bundle into place;
//   - an empty directory is filled file by file, index.md last (the
//     temporary directory is inside it, so its parent may be read-only);
//   - a directory holding an earlier oddsmith bundle (it has the marker
//     file BundleMarker) is replaced as a whole: the old one is renamed
//     aside, the new one renamed in, the old one removed;
//   - any other directory, or a path that is not a directory, is refused
//     (bad input), so nothing a user keeps there is clobbered.
//
// An error or an interruption before Commit leaves the destination as it
// was.
type Bundle struct {
	dir, tmp string
	mode     bundleMode
	// created are the folders NewBundle made for dir's parents, removed
	// again when the bundle is not committed.
	created   []string
	committed bool
	mu        sync.Mutex // Write may be called from several goroutines
	files     []string
	written   map[string]bool
	// Index is the Markdown of index.md, written by Commit.
	Index bytes.Buffer
}

type bundleMode int

const (
	bundleNew bundleMode = iota
	bundleFill
	bundleReplace
)

// BundleMarker is the file that marks a directory as an oddsmith bundle.
const BundleMarker = ".oddsmith-bundle"

// Temporary directories of a bundle: beside dir ("."+base+".oddsmith-"
// and, while an old bundle is replaced, "."+base+".old-") or inside an
// empty dir (".oddsmith-tmp-"), each followed by MkdirTemp's digits.
const (
	bundleTempInfix = ".oddsmith-"
	bundleOldInfix  = ".old-"
	bundleFillTemp  = ".oddsmith-tmp-"
)

// isBundleTemp reports whether name is one of a bundle's temporary
// directories: prefix followed by digits only.
func isBundleTemp(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" || len(rest) > 20 {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// removeStaleBundles removes the temporary directories of a bundle at dir
// that a killed run left (oddsmith's naming, older than this process by
// StaleAge). Failures are ignored: it only tidies.
func removeStaleBundles(dir string) {
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	look := func(in string, prefixes ...string) {
		entries, err := os.ReadDir(in)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || !slices.ContainsFunc(prefixes, func(p string) bool { return isBundleTemp(e.Name(), p) }) {
				continue
			}
			p := filepath.Join(in, e.Name())
			if st, err := os.Lstat(p); err == nil && st.IsDir() && isStale(st) {
				os.RemoveAll(p)
			}
		}
	}
	look(parent, "."+base+bundleTempInfix, "."+base+bundleOldInfix)
	look(dir, bundleFillTemp)
}

// NewBundle starts a bundle that Commit will put at dir. Temporary
// directories of a bundle at dir that a killed run left are removed first.
// Errors name dir and say the problem in words.
func NewBundle(dir string) (*Bundle, error) {
	if dir == "" {
		return nil, mechanics.Invalid("no output directory given")
	}
	shown := dir
	dir = filepath.Clean(dir)
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	b := &Bundle{dir: dir, written: map[string]bool{}}
	fail := func(err error) (*Bundle, error) {
		b.Close()
		if mechanics.IsInput(err) {
			return nil, err
		}
		return nil, fmt.Errorf("cannot write the bundle %s: %s", shown, Words(err))
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR): // mkdirAll names a file in the way
		parent := filepath.Dir(dir)
		if b.created, err = mkdirAll(parent); err != nil {
			return nil, err // it names the folder and the problem
		}
		removeStaleBundles(dir)
		b.mode = bundleNew
		b.tmp, err = os.MkdirTemp(parent, "."+filepath.Base(dir)+bundleTempInfix+"*")
		if err != nil {
			return fail(err)
		}
		// MkdirTemp makes 0700; a bundle gets the permissions of a new
		// directory (0777 less the umask).
		if err := fixDirMode(b.tmp); err != nil {
			return fail(err)
		}
		return b, nil
	case err != nil:
		return fail(err)
	case !st.IsDir():
		return nil, mechanics.Invalid("%s exists and is not a directory; give a new or empty directory for the bundle", dir)
	}
	removeStaleBundles(dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fail(err)
	}
	switch {
	case len(entries) == 0:
		b.mode = bundleFill
		b.tmp, err = os.MkdirTemp(dir, bundleFillTemp+"*")
	case hasMarker(dir):
		b.mode = bundleReplace
		b.tmp, err = os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+bundleTempInfix+"*")
		if err == nil {
			err = os.Chmod(b.tmp, st.Mode().Perm())
		}
	default:
		return nil, mechanics.Invalid("%s is not empty and holds no earlier oddsmith bundle; give a new or empty directory (a bundle there would mix with other files)", dir)
	}
	if err != nil {
		return fail(err)
	}
	return b, nil
}

func hasMarker(dir string) bool {
	st, err := os.Lstat(filepath.Join(dir, BundleMarker))
	return err == nil && st.Mode().IsRegular()
}

// fixDirMode gives a directory made by MkdirTemp the permissions of a
// directory made by Mkdir (0777 less the umask), found by making one.
func fixDirMode(dir string) error {
	probe := filepath.Join(dir, ".mode")
	if err := os.Mkdir(probe, 0o777); err != nil {
		return err
	}
	st, err := os.Stat(probe)
	os.Remove(probe)
	if err != nil {
		return err
	}
	return os.Chmod(dir, st.Mode().Perm())
}

// Write adds one file to the bundle. Writing the same name twice is an
// error: two parts of a plan would overwrite each other. Errors name the
// file where the bundle puts it, not the temporary directory.
func (b *Bundle) Write(name string, f func(io.Writer) error) error {
	b.mu.Lock()
	if b.written[name] || name == BundleMarker {
		b.mu.Unlock()
		return fmt.Errorf("two parts of the bundle write %s", name)
	}
	b.written[name] = true
	b.mu.Unlock()
	final := filepath.Join(b.dir, name)
	fh, err := os.OpenFile(filepath.Join(b.tmp, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return writeError(final, err)
	}
	if err := f(fh); err != nil {
		fh.Close()
		return writeError(final, err)
	}
	if err := fh.Close(); err != nil {
		return writeError(final, err)
	}
	b.mu.Lock()
	b.files = append(b.files, name)
	b.mu.Unlock()
	return nil
}

// Commit writes index.md and the marker and puts the bundle in place; it
// returns the final paths of its files.
func (b *Bundle) Commit() ([]string, error) {
	// Files are listed and moved in name order (whatever order they were
	// written in), index.md last.
	sort.Strings(b.files)
	if err := b.Write("index.md", func(w io.Writer) error { _, err := w.Write(b.Index.Bytes()); return err }); err != nil {
		return nil, err
	}
	marker := func(dir string) error {
		return writeError(filepath.Join(b.dir, BundleMarker), os.WriteFile(filepath.Join(dir, BundleMarker), []byte("oddsmith "+mechanics.Version+"\n"), 0o666))
	}
	moved := func(err error) error {
		if err == nil {
			return nil
		}
		return fmt.Errorf("cannot put the bundle in place at %s: %s", b.dir, Words(err))
	}
	switch b.mode {
	case bundleNew:
		if err := marker(b.tmp); err != nil {
			return nil, err
		}
		if err := os.Rename(b.tmp, b.dir); err != nil {
			return nil, moved(err)
		}
		b.tmp = ""
	case bundleFill:
		for _, f := range b.files { // index.md was written last, so it moves last
			if err := os.Rename(filepath.Join(b.tmp, f), filepath.Join(b.dir, f)); err != nil {
				return nil, moved(err)
			}
		}
		if err := marker(b.dir); err != nil {
			return nil, err
		}
	case bundleReplace:
		if err := marker(b.tmp); err != nil {
			return nil, err
		}
		aside, err := os.MkdirTemp(filepath.Dir(b.dir), "."+filepath.Base(b.dir)+bundleOldInfix+"*")
		if err != nil {
			return nil, moved(err)
		}
		os.Remove(aside) // only the unique name is wanted
		if err := os.Rename(b.dir, aside); err != nil {
			return nil, moved(err)
		}
		if err := os.Rename(b.tmp, b.dir); err != nil {
			os.Rename(aside, b.dir) // put the old bundle back
			return nil, moved(err)
		}
		b.tmp = ""
		os.RemoveAll(aside)
	}
	b.committed = true
	out := make([]string, len(b.files))
	for i, f := range b.files {
		out[i] = filepath.Join(b.dir, f)
	}
	return out, nil
}

// removeAll is os.RemoveAll; a test makes it fail as it does when no file
// descriptor is left (ulimit -n).
var removeAll = os.RemoveAll

// Close removes what is left of the temporary directory (after Commit, or
// on failure) and, when the bundle was not committed, the folders
// NewBundle made for it. Should removing the whole tree fail (it opens the
// directory, which needs a file descriptor), the files the bundle wrote
// are removed by name and then the directory. The error says what was
// left behind.
func (b *Bundle) Close() error {
	if !b.committed {
		defer removeCreated(b.created)
	}
	if b.tmp == "" {
		return nil
	}
	tmp := b.tmp
	if err := removeAll(tmp); err == nil {
		b.tmp = ""
		return nil
	}
	b.mu.Lock()
	names := slices.Collect(maps.Keys(b.written))
	b.mu.Unlock()
	for _, n := range append(names, BundleMarker, ".mode") {
		os.Remove(filepath.Join(tmp, n))
	}
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("could not remove the temporary folder %s: %s (remove it by hand)", tmp, Words(err))
	}
	b.tmp = ""
	return nil
}

// WriteResultFiles writes the CSV and the plots of one result — the PMF
// and "at least" curve of the primary variable (and its tail on a log
// scale, when it has a long one), the first band as a stacked bar, the
// survival curve of a process — and returns their names. A plot that
// would show nothing a sentence does not (Degenerate), or the "at least"
// curve of a process's time that is its survival curve again, is not
// drawn: skipped says why, one line each, for the index.
func (b *Bundle) WriteResultFiles(name string, r *engine.Result) (links, skipped []string, err error) {
	links = []string{name + ".csv"}
	if err := b.Write(name+".csv", func(w io.Writer) error { return WriteCSV(w, r) }); err != nil {
		return nil, nil, err
	}
	plot := func(file, kind, output string, write func(io.Writer) error) error {
		if kind != "" {
			if bad, why := Degenerate(kind, output, r); bad {
				skipped = append(skipped, file+": "+why)
				return nil
			}
		}
		if err := b.Write(file, write); err != nil {
			return err
		}
		links = append(links, file)
		return nil
	}
	if len(r.Vars) > 0 && len(r.Vars[0].P) > 0 {
		v := &r.Vars[0]
		if err := plot(name+"_pmf.png", "pmf", v.Name, func(w io.Writer) error { return WritePMF(w, r, v) }); err != nil {
			return nil, nil, err
		}
		if DuplicatesSurvival(r, v) {
			skipped = append(skipped, fmt.Sprintf("%s_atleast.png: P(%s ≥ t) is the survival curve again (%s_survival.png)", name, v.Name, name))
		} else if err := plot(name+"_atleast.png", "atleast", v.Name, func(w io.Writer) error { return WriteAtLeast(w, r, v) }); err != nil {
			return nil, nil, err
		}
		if HasLongTail(v) || hasSmallTail(v) {
			if err := plot(name+"_tail.png", "tail", v.Name, func(w io.Writer) error { return WriteTail(w, r, v) }); err != nil {
				return nil, nil, err
			}
		}
	}
	if len(r.Bands) > 0 {
		band := r.Bands[0].Name
		if err := plot(name+"_bands.png", "bands", band, func(w io.Writer) error {
			return WriteBands(w, fmt.Sprintf("%s — %s", r.Mechanic, band), "", []string{name}, []*engine.Result{r}, band)
		}); err != nil {
			return nil, nil, err
		}
	}
	if r.Process != nil {
		if err := plot(name+"_survival.png", "survival", "", func(w io.Writer) error { return WriteSurvival(w, r) }); err != nil {
			return nil, nil, err
		}
	}
	return links, skipped, nil
}

// SkippedList is the Markdown that names the charts left out, one line
// each ("file: why").
func SkippedList(skipped []string) string {
	var b strings.Builder
	for _, s := range skipped {
		file, why, _ := strings.Cut(s, ": ")
		fmt.Fprintf(&b, "- not drawn: %s — %s\n", file, why)
	}
	return b.String()
}

// LinkList is the Markdown that links files: images inline, others as a list.
func LinkList(files []string) string {
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			fmt.Fprintf(&b, "![%s](%s)\n", f, f)
		} else {
			fmt.Fprintf(&b, "- [%s](%s)\n", f, f)
		}
	}
	return b.String()
}

// OverlayRow is one point of an overlay series.
type OverlayRow struct {
	Series, Mechanic, Fingerprint string
	// X is the point on the chart's axis; Setting the parameter setting
	// that produced it ("height=30"), which differs where a series has its
	// own unit (a scale).
	X       float64
	Setting string
	Value   float64
}

// WriteOverlayCSV writes the table behind an overlay chart.
func WriteOverlayCSV(w io.Writer, name string, rows []OverlayRow) error {
	fmt.Fprintf(w, "# oddsmith: %s\n# overlay: %s\n", mechanics.Version, name)
	cw := csvWriter(w)
	cw.Write([]string{"series", "mechanic", "x", "setting", "value", "fingerprint"})
	for _, r := range rows {
		cw.Write([]string{r.Series, r.Mechanic, mechanics.FormatNum(r.X), r.Setting, num(r.Value), r.Fingerprint})
	}
	cw.Flush()
	return cw.Error()
}
