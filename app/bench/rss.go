package bench

import (
	"bufio"
	"bytes"
	"os"
	"sync"
	"time"
)

// procStatus reads one "Vm…: N kB" field of /proc/self/status, in bytes; 0 where there is no
// /proc (the figures then read "n/a").
func procStatus(field string) int64 { return procStatusOf("/proc/self/status", field) }

// RSS is the process's resident memory now, in bytes.
func RSS() int64 { return procStatus("VmRSS") }

// resetPeakRSS asks Linux to restart the VmHWM high-water mark (writing 5 to clear_refs), so a
// scenario's peak is its own and not an earlier one's. It reports whether that worked.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// rssSampler polls VmRSS while a run goes on and remembers the most it saw. Polling can miss a
// spike between samples, so where the kernel lets us restart VmHWM the peak is the larger of
// the two.
type rssSampler struct {
	hwm  bool
	done chan struct{}
	wg   sync.WaitGroup
	peak int64
}

const rssEvery = 20 * time.Millisecond

func startRSSSampler() *rssSampler {
	s := &rssSampler{hwm: resetPeakRSS(), done: make(chan struct{}), peak: RSS()}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tick := time.NewTicker(rssEvery)
		defer tick.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-tick.C:
				s.peak = max(s.peak, RSS())
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the peak in bytes.
func (s *rssSampler) stop() int64 {
	close(s.done)
	s.wg.Wait()
	peak := max(s.peak, RSS())
	if s.hwm {
		peak = max(peak, procStatus("VmHWM"))
	}
	return peak
}

// cpuModel is the processor's name from /proc/cpuinfo, recorded with every run so figures
// from different machines are not compared unawares; "unknown" where it cannot be read.
func cpuModel() string {
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		name, value, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if ok && string(bytes.TrimSpace(name)) == "model name" {
			return string(bytes.TrimSpace(value))
		}
	}
	return "unknown"
}
