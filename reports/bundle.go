package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
)

// Bundle is a report directory built in a temporary directory beside its
// destination and moved into place file by file, index.md last, so an
// error or an interruption never leaves a half-written file.
type Bundle struct {
	dir, tmp string
	files    []string
	// Index is the Markdown of index.md, written by Commit.
	Index bytes.Buffer
}

// NewBundle starts a bundle that Commit will move to dir.
func NewBundle(dir string) (*Bundle, error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, ".oddsmith-bundle-*")
	if err != nil {
		return nil, err
	}
	return &Bundle{dir: dir, tmp: tmp}, nil
}

// Write adds one file to the bundle.
func (b *Bundle) Write(name string, f func(io.Writer) error) error {
	fh, err := os.Create(filepath.Join(b.tmp, name))
	if err != nil {
		return err
	}
	if err := f(fh); err != nil {
		fh.Close()
		return err
	}
	b.files = append(b.files, name)
	return fh.Close()
}

// Commit writes index.md and moves every file into the destination,
// index.md last; it returns their final paths.
func (b *Bundle) Commit() ([]string, error) {
	if err := b.Write("index.md", func(w io.Writer) error { _, err := w.Write(b.Index.Bytes()); return err }); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for _, f := range b.files { // index.md was written last, so it moves last
		if err := os.Rename(filepath.Join(b.tmp, f), filepath.Join(b.dir, f)); err != nil {
			return nil, err
		}
		out = append(out, filepath.Join(b.dir, f))
	}
	return out, nil
}

// Close removes the temporary directory (after Commit, or on failure).
func (b *Bundle) Close() error { return os.RemoveAll(b.tmp) }

// WriteResultFiles writes the CSV and the plots of one result — the PMF
// and "at least" curve of the primary variable, the first band as a stacked
// bar, the survival curve of a process — and returns their names.
func (b *Bundle) WriteResultFiles(name string, r *mechanics.Result) ([]string, error) {
	links := []string{name + ".csv"}
	if err := b.Write(name+".csv", func(w io.Writer) error { return WriteCSV(w, r) }); err != nil {
		return nil, err
	}
	if len(r.Vars) > 0 {
		v := &r.Vars[0]
		if err := b.Write(name+"_pmf.png", func(w io.Writer) error { return WritePMF(w, r, v) }); err != nil {
			return nil, err
		}
		if err := b.Write(name+"_atleast.png", func(w io.Writer) error { return WriteAtLeast(w, r, v) }); err != nil {
			return nil, err
		}
		links = append(links, name+"_pmf.png", name+"_atleast.png")
	}
	if len(r.Bands) > 0 {
		band := r.Bands[0].Name
		if err := b.Write(name+"_bands.png", func(w io.Writer) error {
			return WriteBands(w, fmt.Sprintf("%s — %s", r.Mechanic, band), "", []string{name}, []*mechanics.Result{r}, band)
		}); err != nil {
			return nil, err
		}
		links = append(links, name+"_bands.png")
	}
	if r.Process != nil {
		if err := b.Write(name+"_survival.png", func(w io.Writer) error { return WriteSurvival(w, r) }); err != nil {
			return nil, err
		}
		links = append(links, name+"_survival.png")
	}
	return links, nil
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
	X, Value                      float64
}

// WriteOverlayCSV writes the table behind an overlay chart.
func WriteOverlayCSV(w io.Writer, name string, rows []OverlayRow) error {
	fmt.Fprintf(w, "# oddsmith: %s\n# overlay: %s\n", mechanics.Version, name)
	cw := csvWriter(w)
	cw.Write([]string{"series", "mechanic", "x", "value", "fingerprint"})
	for _, r := range rows {
		cw.Write([]string{r.Series, r.Mechanic, mechanics.FormatNum(r.X), num(r.Value), r.Fingerprint})
	}
	cw.Flush()
	return cw.Error()
}
