package bench

import (
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"time"
)

// A sample is one measurement of a workload at one size: the median of a
// few runs, on both clocks, with what one run allocated.
type sample struct {
	N         int     `json:"n"`
	Runs      int     `json:"runs"`
	Wall      float64 `json:"wall_s"` // median wall-clock seconds per run
	CPU       float64 `json:"cpu_s"`  // median process CPU seconds per run
	Steps     int     `json:"steps,omitempty"`
	Alloc     uint64  `json:"alloc_bytes"` // bytes allocated by one run
	Peak      uint64  `json:"peak_bytes"`  // largest growth of the heap's objects during one run (sampled)
	FloorWall float64 `json:"floor_wall_s,omitempty"`
	FloorCPU  float64 `json:"floor_cpu_s,omitempty"`
	Note      string  `json:"note,omitempty"` // what the runs found (a campaign's counterexamples)
	// Traffic is what gpu-sim counted (a traffic row's).
	Traffic *Traffic `json:"traffic,omitempty"`
}

// one is one run's measurement.
type one struct {
	wall, cpu   float64
	steps       int
	alloc, peak uint64
	repetitions int
}

// minBatch is the shortest measurement we trust: a run shorter than this
// is repeated until the batch takes this long, and the batch's time
// divided by its count is the run's. getrusage's CPU time has a coarse
// grain on some kernels, and a Go loop over 10^5 ints takes microseconds.
const minBatch = 20 * time.Millisecond

var objectsMetric = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

func heapObjects() uint64 {
	s := slices.Clone(objectsMetric)
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// measureOnce runs f once, or in a batch when one run is shorter than
// minBatch. The collector runs first, so that garbage of an earlier run is
// not charged to this one; when peak is set, a goroutine samples the heap
// every few milliseconds for the peak (metrics.Read does not stop the
// world, unlike ReadMemStats). A run that keeps every core busy (the jobs
// rows) is measured without it: waking every 5 ms, it takes a core from
// one of the run's goroutines, and the others wait for it at the next
// barrier (about 10 ms of a 150 ms run on two cores).
func measureOnce(f func() (int, error), peak bool) (one, error) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0 := ms.TotalAlloc
	base := heapObjects()
	// most is the sampler's alone until it stops (<-stopped).
	var most uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	if !peak {
		close(stopped)
	} else {
		go func() {
			defer close(stopped)
			t := time.NewTicker(5 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					if h := heapObjects(); h > base {
						most = max(most, h-base)
					}
				}
			}
		}()
	}
	var o one
	w0, c0 := time.Now(), cpuTime()
	var err error
	for {
		var steps int
		steps, err = f()
		o.repetitions++
		o.steps = steps
		if err != nil || time.Since(w0) >= minBatch {
			break
		}
	}
	o.wall = time.Since(w0).Seconds() / float64(o.repetitions)
	o.cpu = (cpuTime() - c0).Seconds() / float64(o.repetitions)
	close(done)
	<-stopped
	if h := heapObjects(); h > base {
		most = max(most, h-base)
	}
	runtime.ReadMemStats(&ms)
	o.alloc = (ms.TotalAlloc - alloc0) / uint64(o.repetitions)
	o.peak = most
	return o, err
}

// median is the median of xs (the mean of the middle two for an even
// count); NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Growth fits log t = a + g·log n by least squares and returns g, the
// growth exponent (1 linear, 2 quadratic); NaN for fewer than two distinct
// sizes or a non-positive time.
func Growth(ns []int, ts []float64) float64 {
	var xs, ys []float64
	for i := range ns {
		if ns[i] <= 0 || !(ts[i] > 0) {
			return math.NaN()
		}
		xs = append(xs, math.Log(float64(ns[i])))
		ys = append(ys, math.Log(ts[i]))
	}
	if len(xs) < 2 {
		return math.NaN()
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return math.NaN()
	}
	return sxy / sxx
}
