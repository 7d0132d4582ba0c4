package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
)

// response remembers whether anything was written (a panic after that
// cannot answer 500) and whether the answer is a stream of lines.
type response struct {
	http.ResponseWriter
	wrote, streaming bool
}

func (r *response) WriteHeader(code int) {
	r.wrote = true
	r.ResponseWriter.WriteHeader(code)
}

func (r *response) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

func (r *response) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// line writes one line of a stream of JSON lines and sends it at once.
func (r *response) line(v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	if _, err := r.Write(b); err != nil {
		return err
	}
	return http.NewResponseController(r.ResponseWriter).Flush()
}

// marshal is v as JSON on one line, a newline after it; like the command
// line's JSON, it leaves <, > and & as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeJSON answers v with a status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal error: "+oneLine(err.Error()))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// writeError answers {"error": msg} with a status.
func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := marshal(map[string]string{"error": oneLine(msg)})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// apiError is an answer other than 400 for bad input: a status and its
// message.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

// timeLimitError says a computation ran past the server's time limit.
type timeLimitError struct {
	limit   string
	command string
}

func (e *timeLimitError) Error() string {
	return "the computation ran past the server's time limit of " + e.limit + ": ask for less (fewer trials, a smaller model), or run it on the command line: " + e.command
}

// status is the HTTP status and the message of an error: bad input 400
// (and a computation past the time limit), a refusal of its own status
// (413, 408),
// busy 503, anything else 500 "internal error: …"; 0 when the client has
// gone (nothing to answer).
func status(ctx context.Context, err error) (int, string) {
	var ae *apiError
	var tl *timeLimitError
	switch {
	case errors.As(err, &ae):
		return ae.status, ae.msg
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable, err.Error()
	case errors.As(err, &tl):
		return http.StatusBadRequest, tl.Error()
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return 0, ""
	case errorIsInput(err):
		return http.StatusBadRequest, oneLine(err.Error())
	}
	return http.StatusInternalServerError, "internal error: " + oneLine(err.Error())
}

// fail answers an error (nothing when the client has gone).
func fail(w http.ResponseWriter, ctx context.Context, err error) {
	if code, msg := status(ctx, err); code != 0 {
		writeError(w, code, msg)
	}
}
