package reports

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
)

// tempSeq makes temporary names unique within the process.
var tempSeq atomic.Uint64

// processStart is when this process started writing files, near enough:
// temporary files older than it (by StaleAge) are left over from a run that
// was killed.
var processStart = time.Now()

// StaleAge is how much older than this process a temporary file or
// directory of oddsmith's naming must be before a run that writes beside it
// removes it as left over from a killed run (a run writing its own at the
// same moment is never that old: outputs are written from memory in one
// go).
const StaleAge = time.Minute

// tempInfix is what oddsmith puts between a file's name and the unique
// suffix of its temporary file: ".out.csv.tmp3k9x…".
const tempInfix = ".tmp"

// maxLinks bounds a chain of symbolic links given as an output (Linux
// gives up at 40 too).
const maxLinks = 40

// createTemp creates a new file beside path with permissions 0666 masked
// by the umask (the kernel applies it, as for any new file), so a file
// that did not exist gets the permissions a user expects.
func createTemp(dir, base string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, "."+base+tempInfix+strconv.FormatUint(uint64(time.Now().UnixNano())+tempSeq.Add(1), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot create a temporary file in %s", dir)
}

// isTempName reports whether name is the name createTemp gives a
// temporary file of base: "." + base + ".tmp" + base-36 digits.
func isTempName(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+tempInfix)
	if !ok || rest == "" || len(rest) > 13 {
		return false
	}
	for _, r := range rest {
		if (r < '0' || r > '9') && (r < 'a' || r > 'z') {
			return false
		}
	}
	return true
}

// isStale reports whether a file of oddsmith's temporary naming is left
// over from a run killed before this one: a regular file or directory
// (never a link) last changed StaleAge before this process started.
func isStale(st fs.FileInfo) bool {
	return st.Mode()&(fs.ModeSymlink|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice) == 0 &&
		st.ModTime().Before(processStart.Add(-StaleAge))
}

// removeStaleTemps removes the temporary files of base in dir that a
// killed run left (see isStale). Failures are ignored: it only tidies.
func removeStaleTemps(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !isTempName(e.Name(), base) || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() && isStale(st) {
			os.Remove(p)
		}
	}
}

// Errno words: what a failed file operation says to a person.
var errnoWords = map[syscall.Errno]string{
	syscall.ENOENT:  "no such file or folder",
	syscall.ENOTDIR: "a part of the path is not a folder",
	syscall.ELOOP:   "too many symbolic links (a loop?)",
	syscall.EACCES:  "permission denied",
	syscall.EPERM:   "operation not permitted",
	syscall.EROFS:   "the file system is read-only",
	syscall.ENOSPC:  "no space left on the device",
	syscall.EDQUOT:  "over the disk quota",
	syscall.EFBIG:   "the file is too large (see ulimit -f)",
	syscall.EMFILE:  "too many open files (see ulimit -n)",
	syscall.ENFILE:  "too many open files in the system",
	syscall.EISDIR:  "is a folder",
	syscall.EIO:     "input/output error",
	syscall.EXDEV:   "the temporary file and the target are on different file systems",
	syscall.EBADF:   "the file is closed",
	syscall.EPIPE:   "the reader went away (broken pipe)",
}

// Words says a file-system error in words, without the temporary names
// and Go operation names a *PathError or *LinkError carries ("open
// .out.tmp3k9x: no space left on device" is "no space left on the
// device").
func Words(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if w, ok := errnoWords[errno]; ok {
			return w
		}
		return errno.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// fileError is a failure to write a file, named by the path the user gave
// and said in words (Words); the cause stays reachable with errors.Is
// (syscall.ENOSPC, fs.ErrNotExist).
type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string { return "cannot write " + e.path + ": " + Words(e.err) }
func (e *fileError) Unwrap() error { return e.err }

// writeError names a failed write of path. Errors of the file system
// (which carry temporary names) are said in words; any other error (the
// writer's own, a cancellation) passes as it is.
func writeError(path string, err error) error {
	var fe *fileError
	if err == nil || errors.As(err, &fe) {
		return err
	}
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	if errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return &fileError{path, err}
	}
	return err
}

// folderError checks that the folder a new file goes into exists: a
// missing folder, or a path through a file, is an error (a failure to
// write, exit status 1, as any unwritable destination) named in words.
// shown is the path as the user gave it; file the file to create (a link's
// target, perhaps).
func folderError(shown, file string) error {
	dir := filepath.Dir(file)
	via := ""
	if shown != file {
		via = fmt.Sprintf(" (a link to %s)", file)
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && st.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("cannot write %s%s: %s is not a folder", shown, via, dir)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s%s: the folder %s does not exist (create it first)", shown, via, dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("cannot write %s%s: a part of %s is not a folder", shown, via, dir)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("cannot write %s%s: too many symbolic links in %s (a loop?)", shown, via, dir)
	}
	return &fileError{shown, err}
}

// resolveOutput is the file a write of path goes to: path itself, or for a
// symbolic link the file at the end of its chain, which need not exist
// yet (a dangling link's target is created) but whose folder must.
func resolveOutput(path string) (string, error) {
	// What the kernel reaches through every link: a device, a pipe or a
	// socket is written at path itself (/dev/stdout is a link to
	// /proc/self/fd/1, whose own link text, "pipe:[…]", is no path).
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return path, nil
	}
	target := path
	for hops := 0; ; hops++ {
		st, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target, folderError(path, target)
		case errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP):
			return "", folderError(path, target)
		case err != nil:
			return "", &fileError{path, err}
		case st.Mode()&fs.ModeSymlink == 0:
			return target, nil
		case hops == maxLinks:
			return "", fmt.Errorf("cannot write %s: it is a chain of over %d symbolic links (a loop?)", path, maxLinks)
		}
		dest, err := os.Readlink(target)
		if err != nil {
			return "", &fileError{path, err}
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(target), dest)
		}
		target = dest
	}
}

// AtomicWrite writes the file at path so that a reader never sees it half
// written and a failed or interrupted write leaves what was there before:
//
//   - a new path or a regular file: written to a temporary file in the same
//     directory and renamed into place; a new file gets 0666 less the
//     umask, a replaced file keeps its permissions;
//   - a symbolic link: the file it points to is written that way (created
//     when the link dangles), and the link stays; a link into a folder
//     that does not exist is an error, as any folder that does not exist;
//   - a device, a named pipe or a socket (/dev/stdout, /dev/null, a FIFO):
//     written directly, never replaced by a regular file;
//   - a directory: refused (bad input); a path whose folder does not
//     exist: an error naming the folder.
//
// Temporary files of path that a killed run left (older than this process
// by StaleAge) are removed first. Errors name path, never a temporary file.
func AtomicWrite(path string, write func(io.Writer) error) (err error) {
	if path == "" {
		return mechanics.Invalid("no output file given (-o names a file)")
	}
	target, err := resolveOutput(path)
	if err != nil {
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
			return writeError(path, err)
		}
		if err := write(f); err != nil {
			f.Close()
			return writeError(path, err)
		}
		return writeError(path, f.Close())
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return writeError(path, statErr)
	}
	dir, base := filepath.Dir(target), filepath.Base(target)
	removeStaleTemps(dir, base)
	f, err := createTemp(dir, base)
	if err != nil {
		return writeError(path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = writeError(path, err)
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
// them changed. Paths must be new or regular files. Temporary files a
// killed run left beside them are removed first (see AtomicWrite).
func AtomicWriteAll(paths []string, writes []func(io.Writer) error) (err error) {
	temps := make([]*os.File, len(paths))
	failed := ""
	defer func() {
		if err != nil {
			for _, f := range temps {
				if f != nil {
					f.Close()
					os.Remove(f.Name())
				}
			}
			err = writeError(failed, err)
		}
	}()
	for i, p := range paths {
		failed = p
		if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
			return mechanics.Invalid("%s exists and is not a regular file; it will not be replaced", p)
		}
		if err := folderError(p, p); err != nil {
			return err
		}
		removeStaleTemps(filepath.Dir(p), filepath.Base(p))
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
		failed = p
		if err := os.Rename(temps[i].Name(), p); err != nil {
			return err
		}
		temps[i] = nil
	}
	return nil
}

// AtomicWriteDir writes files (paths inside dir) as AtomicWriteAll does,
// creating dir and its missing parents first; when the writing fails, the
// folders it created are removed again, so a failed run leaves no empty
// directory behind. A dir that exists and is not a directory is refused
// (bad input).
func AtomicWriteDir(dir string, paths []string, writes []func(io.Writer) error) (err error) {
	if dir == "" {
		return mechanics.Invalid("no output directory given")
	}
	created, err := mkdirAll(dir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			removeCreated(created)
		}
	}()
	return AtomicWriteAll(paths, writes)
}

// mkdirAll makes dir and its missing parents, like os.MkdirAll, and
// returns the folders it created, the deepest last. Errors are said in
// words; dir itself being a file is bad input.
func mkdirAll(dir string) (created []string, err error) {
	dir = filepath.Clean(dir)
	var missing []string
	for p := dir; ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err == nil {
			if !st.IsDir() {
				if p == dir {
					return nil, mechanics.Invalid("%s exists and is not a directory", dir)
				}
				return nil, fmt.Errorf("cannot make the folder %s: %s is not a folder", dir, p)
			}
			break
		}
		// ENOTDIR: a file further up, which the next round names.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return nil, fmt.Errorf("cannot make the folder %s: %s", dir, Words(err))
		}
		missing = append(missing, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	slices.Reverse(missing)
	for _, p := range missing {
		if err := os.Mkdir(p, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			removeCreated(created)
			return nil, fmt.Errorf("cannot make the folder %s: %s", p, Words(err))
		}
		created = append(created, p)
	}
	return created, nil
}

// removeCreated removes folders mkdirAll created, the deepest first, if
// they are empty (os.Remove leaves a folder something else wrote into).
func removeCreated(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		os.Remove(created[i])
	}
}
