package reports

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
)

// tempSeq makes temporary names unique within the process.
var tempSeq atomic.Uint64

// createTemp creates a new file beside path with permissions 0666 masked
// by the umask (the kernel applies it, as for any new file), so a file
// that did not exist gets the permissions a user expects.
func createTemp(dir, base string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(uint64(time.Now().UnixNano())+tempSeq.Add(1), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot create a temporary file in %s", dir)
}

// AtomicWrite writes the file at path so that a reader never sees it half
// written and a failed or interrupted write leaves what was there before:
//
//   - a new path or a regular file: written to a temporary file in the same
//     directory and renamed into place; a new file gets 0666 less the
//     umask, a replaced file keeps its permissions;
//   - a symbolic link: its target is written that way, and the link stays;
//   - a device, a named pipe or a socket (/dev/stdout, /dev/null, a FIFO):
//     written directly, never replaced by a regular file;
//   - a directory: refused (bad input).
func AtomicWrite(path string, write func(io.Writer) error) (err error) {
	if path == "" {
		return mechanics.Invalid("no output file given")
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	st, statErr := os.Stat(target)
	switch {
	case statErr == nil && st.IsDir():
		return mechanics.Invalid("%s is a directory; give a file name", path)
	case statErr == nil && !st.Mode().IsRegular():
		// A device, pipe or socket: there is nothing to rename over.
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return statErr
	}
	f, err := createTemp(filepath.Dir(target), filepath.Base(target))
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
	if statErr == nil { // replacing a regular file: keep its permissions
		if err = f.Chmod(st.Mode().Perm()); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), target)
}

// AtomicWriteAll writes several files: every one is first written in full
// to a temporary file, and only then are they renamed into place, so a
// failure while writing (a full disk, an interrupted run) leaves none of
// them changed. Paths must be new or regular files.
func AtomicWriteAll(paths []string, writes []func(io.Writer) error) (err error) {
	temps := make([]*os.File, len(paths))
	defer func() {
		if err != nil {
			for _, f := range temps {
				if f != nil {
					f.Close()
					os.Remove(f.Name())
				}
			}
		}
	}()
	for i, p := range paths {
		if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
			return mechanics.Invalid("%s exists and is not a regular file; it will not be replaced", p)
		}
		f, err := createTemp(filepath.Dir(p), filepath.Base(p))
		if err != nil {
			return err
		}
		temps[i] = f
		if err := writes[i](f); err != nil {
			return err
		}
		if st, err := os.Stat(p); err == nil {
			if err := f.Chmod(st.Mode().Perm()); err != nil {
				return err
			}
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	for i, p := range paths {
		if err := os.Rename(temps[i].Name(), p); err != nil {
			return err
		}
		temps[i] = nil
	}
	return nil
}
