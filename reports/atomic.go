package reports

import (
	"io"
	"os"
	"path/filepath"
)

// AtomicWrite writes a file through a temporary file in the same directory
// and renames it into place, so a reader never sees a half-written file.
func AtomicWrite(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
