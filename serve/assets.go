package serve

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// web is the page: web/index.html at /, every other file of web/ at
// /assets/<its path under web/>. Nothing is read from the disk.
//
//go:embed web
var web embed.FS

// asset is one embedded file, ready to send: its bytes, gzipped too when
// that is smaller, its type and an ETag.
type asset struct {
	body, gz    []byte
	ctype, etag string
}

// assets are the embedded files by their path under web/.
type assets struct{ files map[string]*asset }

// loadAssets reads the embedded files once.
func loadAssets() (*assets, error) {
	a := &assets{files: map[string]*asset{}}
	err := fs.WalkDir(web, "web", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := web.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		f := &asset{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, ctype: mime.TypeByExtension(path.Ext(p))}
		if f.ctype == "" {
			f.ctype = http.DetectContentType(body)
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if gz.Len() < len(body)*9/10 {
			f.gz = gz.Bytes()
		}
		a.files[strings.TrimPrefix(p, "web/")] = f
		return nil
	})
	return a, err
}

// serve answers GET / and GET /assets/<path>.
func (a *assets) serve(w http.ResponseWriter, r *http.Request) {
	name := "index.html"
	if r.URL.Path != "/" {
		name = strings.TrimPrefix(r.URL.Path, "/assets/")
	}
	f := a.files[name]
	if f == nil || name != path.Clean(name) {
		writeError(w, http.StatusNotFound, "not found: "+r.URL.Path)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "no-cache")
	h.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if f.gz != nil && acceptsGzip(r) {
		body = f.gz
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsGzip reports whether a client takes gzip (and does not refuse it
// with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" {
			q = strings.ReplaceAll(strings.TrimSpace(q), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
