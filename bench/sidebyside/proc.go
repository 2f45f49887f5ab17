package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// cpuTicks is a process's user and system CPU time so far, in clock ticks, from
// /proc/PID/stat: fields 14 and 15, counted after the command name, which is in parentheses
// and may itself hold spaces and parentheses.
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatTicks(b)
}

func parseStatTicks(b []byte) (int64, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("stat %q: no command name", b)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state), so field n is f[n-3].
	if len(f) < 13 {
		return 0, fmt.Errorf("stat %q: too few fields", b)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("stat %q: utime %q, stime %q", b, f[11], f[12])
	}
	return utime + stime, nil
}

// memKiB reads VmRSS (resident now) and VmHWM (the peak resident so far) from
// /proc/PID/status, in KiB.
func memKiB(pid int) (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	return parseStatusMem(b)
}

func parseStatusMem(b []byte) (rss, peak int64, err error) {
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("status: %s is %q", name, rest)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("status: %s is %q", name, rest)
		}
		if name == "VmRSS" {
			rss = n
		} else {
			peak = n
		}
		found++
	}
	if found != 2 {
		return 0, 0, fmt.Errorf("status: no VmRSS and VmHWM (a kernel thread, or not Linux)")
	}
	return rss, peak, nil
}

// machineTicks is the whole machine's CPU time from the first line of /proc/stat: all of it,
// the idle part and the part idle waiting for I/O, in clock ticks.
type machineTicks struct{ total, idle, iowait int64 }

func readMachine() (machineTicks, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTicks{}, err
	}
	return parseMachine(b)
}

func parseMachine(b []byte) (machineTicks, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 6 || f[0] != "cpu" {
		return machineTicks{}, fmt.Errorf("/proc/stat: first line %q", line)
	}
	var m machineTicks
	// user nice system idle iowait irq softirq steal; guest times are inside user and nice.
	for i, s := range f[1:min(len(f), 9)] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return machineTicks{}, fmt.Errorf("/proc/stat: %q", line)
		}
		m.total += n
		switch i {
		case 3:
			m.idle = n
		case 4:
			m.iowait = n
		}
	}
	return m, nil
}
