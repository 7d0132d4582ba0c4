package benchmarks

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/serve"
	"github.com/oddsmith/oddsmith/systems"
)

// serveTrials is the trials of a simulator-only mechanic's round trip.
const serveTrials = 10_000

// startServer runs the workbench's server on a loopback port until the
// benchmark ends and returns its address.
func startServer(b *testing.B) string {
	s, err := serve.New(serve.Options{Log: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	b.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// percentile is the q-quantile of sorted durations, in milliseconds.
func percentile(ds []time.Duration, q float64) float64 {
	i := min(int(q*float64(len(ds))), len(ds)-1)
	return float64(ds[i]) / float64(time.Millisecond)
}

// BenchmarkServeRoundTrip is the API round trip of every registered
// mechanic at its defaults: POST /api/run on a loopback connection, the
// answer read whole — the exact engine's, or for a simulator-only mechanic
// a simulation of 10⁴ trials. It reports the median and the 95th
// percentile of the ops (ms); docs/performance.md lists the ten slowest.
// It is left out of the quick set (95 mechanics).
func BenchmarkServeRoundTrip(b *testing.B) {
	notInQuickSet(b)
	base := startServer(b)
	client := &http.Client{}
	for _, m := range systems.Default.All() {
		body := fmt.Sprintf(`{"mechanic": %q}`, m.ID)
		if m.MCOnly {
			body = fmt.Sprintf(`{"mechanic": %q, "engine": "sim", "trials": %d}`, m.ID, serveTrials)
		}
		b.Run("mechanic="+m.ID, func(b *testing.B) {
			var ds []time.Duration
			for b.Loop() {
				start := time.Now()
				resp, err := client.Post(base+"/api/run", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || n == 0 {
					b.Fatalf("%s: %d, %d bytes, %v", m.ID, resp.StatusCode, n, err)
				}
				ds = append(ds, time.Since(start))
			}
			slices.Sort(ds)
			b.ReportMetric(percentile(ds, 0.5), "p50-ms")
			b.ReportMetric(percentile(ds, 0.95), "p95-ms")
			b.ReportMetric(0, "ns/op") // the percentiles say it
		})
	}
}

// BenchmarkServeIdleMemory is the memory of an idle server: the heap in
// use after a collection and what the process holds from the system, once
// the server has started and once it has answered the mechanics list, a
// page and a run of every mechanic.
func BenchmarkServeIdleMemory(b *testing.B) {
	base := startServer(b)
	measure := func(what string) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), what+"-heap-MB")
		b.ReportMetric(float64(ms.Sys)/(1<<20), what+"-sys-MB")
	}
	for b.Loop() {
	}
	measure("idle")
	for _, path := range []string{"/", "/api/mechanics"} {
		resp, err := http.Get(base + path)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for _, m := range systems.Default.All() {
		body := fmt.Sprintf(`{"mechanic": %q}`, m.ID)
		if m.MCOnly {
			body = fmt.Sprintf(`{"mechanic": %q, "engine": "sim", "trials": %d}`, m.ID, serveTrials)
		}
		resp, err := http.Post(base+"/api/run", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	measure("used")
	b.ReportMetric(0, "ns/op")
}
