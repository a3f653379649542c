# SPDX-License-Identifier: GPL-2.0-only
# Summarize a benchmark's log lines (tests/vm/lib/fio.sh, bench.sh):
#   BENCH: job=J side=ours|lio run=N bs=BYTES iops=I cpu_us_per_io=C
#          cpu_busy=B p50_us=P p99_us=Q probe_ms=T
#   BENCH-PROBE: probe_ms=T
#   CEILING: test=ib_write_bw msg=4096 mps=M mib_s=W probe_ms=T
# A BENCH line of side "direct" is the job run on the device the sides
# stand on without a target (tests/vm/lib/fio.sh, BENCH_DIRECT_DISK):
# the job's ceiling on the device side. Where a job has one, each side's
# share of it ("of direct") and its CPU per I/O less the direct path's
# ("target µs/IO": what the target itself costs per I/O) are shown, beside
# the share of the link's CEILING ("of ceiling") where there is one.
# Per job and side: the number of runs, mean, min and max IOPS, their
# coefficient of variation, the mean p50 and p99 latency (submission to
# completion), guest CPU busy % and CPU per I/O; per job the ratios A/B
# of IOPS and of CPU per I/O (mean over mean, and the range of the
# per-run ratios, run i of A against run i of B, which ran next to each
# other); where the log has a CEILING line, each side's share of it, and
# where the job has a direct side, its share of that.
# probe_ms (tests/vm/lib/bench.sh, bench_probe) is how long the guest took
# for a fixed amount of CPU work just before the run, BENCH-PROBE a probe
# after a job's last run: a run whose probes before and after it both
# took more than hostmax % (default 10) longer than the fastest probe of
# the boot ran on a host that stayed busy through it, and its side gets
# the note "host +N%" (N for its slowest run). Both, because one slow
# probe may be a hiccup of a second that a 10 s run hardly notices. A
# CEILING line's probe comes before its test; the ceiling gets the same
# note.
#
# -v fmt=txt (default) the terminal table, md a Markdown table, csv one
#    line per job and side (-v pre="date,rev,kernel,vcpus,runs,secs,test"
#    prepended, -v header=1 for the header line), dat the chart's data
#    (label, IOPS ratio, min, max, CPU ratio, min, max; -v tag=PREFIX of
#    the labels)
# -v a=SIDE -v b=SIDE the sides (default ours and lio; bench-disk: pt and
#    blockio)
# -v ceiling=TEST the CEILING line the shares are of (default ib_write_bw,
#    the verb of SRP's read data): IOPS over its messages/s where the block
#    is no larger than its message, else bandwidth over its MiB/s
# -v cvmax=PCT the variation above which a side is marked (default 10)
BEGIN {
	if (a == "")
		a = "ours"
	if (b == "")
		b = "lio"
	if (fmt == "")
		fmt = "txt"
	if (ceiling == "")
		ceiling = "ib_write_bw"
	if (cvmax == "")
		cvmax = 10
	if (hostmax == "")
		hostmax = 10
	direct = "direct"
	al = label(a)
	bl = label(b)
}

function label(s) { return s == "lio" ? "LIO" : s }

$1 == "BENCH-ENV:" { next }

# the probes in log order; a run's are its own and the next one
function probe(   t) {
	t = f["probe_ms"]
	if (t !~ /^[0-9]+$/ || !t)
		return 0
	probes[++nprobes] = t
	if (!fastest || t + 0 < fastest)
		fastest = t + 0
	return nprobes
}

$1 == "BENCH-PROBE:" {
	delete f
	parse(2)
	probe()
	next
}

$1 == "CEILING:" {
	delete f
	parse(2)
	if (f["test"] != "") {
		ctests[++nct] = f["test"]
		cmsg[f["test"]] = f["msg"]
		cmps[f["test"]] = f["mps"]
		cmib[f["test"]] = f["mib_s"]
		cprobe[f["test"]] = probe()
	}
	next
}

{
	delete f
	parse($1 == "BENCH:" ? 2 : 1)
	# a line the console broke (kernel messages interleaved) is dropped
	if (f["job"] == "" || f["side"] == "" || f["iops"] !~ /^[0-9]+$/)
		next
	j = f["job"]
	k = j SUBSEP f["side"]
	if (!(j in seen)) {
		seen[j] = 1
		order[++njobs] = j
	}
	bs[j] = f["bs"]
	if (f["side"] == direct)
		anydirect = 1
	n[k]++
	s[k] += f["iops"]
	ss[k] += f["iops"] * f["iops"]
	if (n[k] == 1 || f["iops"] < lo[k])
		lo[k] = f["iops"]
	if (n[k] == 1 || f["iops"] > hi[k])
		hi[k] = f["iops"]
	c[k] += f["cpu_us_per_io"]
	busy[k] += f["cpu_busy"]
	p50[k] += f["p50_us"]
	p99[k] += f["p99_us"]
	runiops[k, f["run"]] = f["iops"]
	runcpu[k, f["run"]] = f["cpu_us_per_io"]
	q = probe()
	if (q)
		runprobe[k, ++nrunprobe[k]] = q
	if (!((j, f["run"]) in hasrun)) {
		hasrun[j, f["run"]] = 1
		runs[j, ++nruns[j]] = f["run"]
	}
}

function parse(from,   i, kv) {
	for (i = from; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
}

function avg(sum, k) { return n[k] ? sum / n[k] : 0 }
function cv(k,   m, v) {
	m = avg(s[k], k)
	if (n[k] < 2 || m == 0)
		return 0
	v = (ss[k] - n[k] * m * m) / (n[k] - 1)
	return v > 0 ? 100 * sqrt(v) / m : 0
}

# ratios J: IOPS and CPU-per-I/O ratios A/B of job J into r[] (mean, min,
# max of the per-run ratios; 0 where a side has no number)
function ratios(j,   ka, kb, i, run, x, y, first) {
	ka = j SUBSEP a
	kb = j SUBSEP b
	r["iops"] = avg(s[kb], kb) ? avg(s[ka], ka) / avg(s[kb], kb) : 0
	r["cpu"] = avg(c[kb], kb) ? avg(c[ka], ka) / avg(c[kb], kb) : 0
	r["iops_lo"] = r["iops_hi"] = r["iops"]
	r["cpu_lo"] = r["cpu_hi"] = r["cpu"]
	first = 1
	for (i = 1; i <= nruns[j]; i++) {
		run = runs[j, i]
		if (!((ka, run) in runiops) || !((kb, run) in runiops) ||
		    !runiops[kb, run] || !runcpu[kb, run])
			continue
		x = runiops[ka, run] / runiops[kb, run]
		y = runcpu[ka, run] / runcpu[kb, run]
		if (first || x < r["iops_lo"])
			r["iops_lo"] = x
		if (first || x > r["iops_hi"])
			r["iops_hi"] = x
		if (first || y < r["cpu_lo"])
			r["cpu_lo"] = y
		if (first || y > r["cpu_hi"])
			r["cpu_hi"] = y
		first = 0
	}
}

# dshare J K: side K's share of job J's direct side's IOPS (fraction; -1
# without one)
function dshare(j, k,   kd) {
	kd = j SUBSEP direct
	if (!n[kd] || !n[k] || !avg(s[kd], kd))
		return -1
	return avg(s[k], k) / avg(s[kd], kd)
}

# share J K: side K's share of the link's ceiling, the CEILING line's
# test (fraction; -1 without one), and in sharekind "" (messages) or "bw"
function share(j, k,   iops) {
	sharekind = ""
	if (!(ceiling in cmps) || !n[k])
		return -1
	iops = avg(s[k], k)
	if (bs[j] != "" && bs[j] + 0 > cmsg[ceiling] + 0) {
		sharekind = "bw"
		return cmib[ceiling] ? iops * bs[j] / 1048576 / cmib[ceiling] : -1
	}
	return cmps[ceiling] ? iops / cmps[ceiling] : -1
}

# overhead J K: side K's CPU µs per I/O less the direct path's (the
# target's own cost); "" where job J has no direct side or K is it
function overhead(j, k,   kd) {
	kd = j SUBSEP direct
	if (!n[kd] || !n[k] || k == kd)
		return ""
	return sprintf("%.0f", avg(c[k], k) - avg(c[kd], kd))
}

function rfmt(x, lo, hi) {
	return x ? sprintf("%.2f (%.2f-%.2f)", x, lo, hi) : "-"
}

# slowpct Q: how much slower (%) than the boot's fastest probe the host
# stayed through what probe Q preceded: the faster of probe Q and the one
# after it (0 without probes)
function slowpct(q,   t) {
	if (!q || !fastest)
		return 0
	t = probes[q]
	if (q < nprobes && probes[q + 1] < t)
		t = probes[q + 1]
	return 100 * (t / fastest - 1)
}

# hostslow K: slowpct of side K's slowest run
function hostslow(k,   i, t, worst) {
	worst = 0
	for (i = 1; i <= nrunprobe[k]; i++) {
		t = slowpct(runprobe[k, i])
		if (t > worst)
			worst = t
	}
	return worst
}

function note(k,   v, h) {
	v = cv(k) > cvmax ? "cv>" cvmax "%" : ""
	h = hostslow(k)
	if (h > hostmax)
		v = v (v != "" ? ", " : "") sprintf("host +%.0f%%", h)
	return v
}

# One row of the txt or md table: the same fields, each format's layout
# (md: the cells and " bw" after a bandwidth share).
function row(j, sd, first, md,   k, sh) {
	k = j SUBSEP sd
	sh = share(j, k)
	printf md ? "| %s | %s | %d | %.0f | %.0f | %.0f | %.1f | %.0f | %.0f " \
		    "| %.1f | %.0f |" : \
	       "%-20s %-7s %4d %8.0f %8.0f %8.0f %5.1f %7.0f %7.0f %5.1f %6.0f", \
	       first ? j : "", label(sd), n[k], avg(s[k], k), \
	       lo[k], hi[k], cv(k), avg(p50[k], k), avg(p99[k], k), \
	       avg(busy[k], k), avg(c[k], k)
	if (nct)
		printf md ? " %s |" : " %6s", sh < 0 ? "-" : \
		       sprintf("%.0f%%%s", 100 * sh, \
			       sharekind == "bw" ? (md ? " bw" : "bw") : "")
	if (anydirect) {
		sh = dshare(j, k)
		printf md ? " %s | %s |" : " %6s %6s", \
		       sh < 0 ? "-" : sprintf("%.0f%%", 100 * sh), \
		       overhead(j, k) == "" ? "-" : overhead(j, k)
	}
	printf md ? " %s | %s | %s |\n" : " %-17s %-17s %s\n", \
	       first ? rfmt(r["iops"], r["iops_lo"], r["iops_hi"]) : "", \
	       first ? rfmt(r["cpu"], r["cpu_lo"], r["cpu_hi"]) : "", note(k)
}

function csvrow(j, sd,   k, sh) {
	k = j SUBSEP sd
	sh = share(j, k)
	printf "%s,%s,%s,%s,%d,%.0f,%.0f,%.0f,%.1f,%.0f,%.0f,%.1f,%.0f,%s," \
	       "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%s,%s\n", pre, j, sd, \
	       bs[j], n[k], avg(s[k], k), lo[k], hi[k], cv(k), avg(p50[k], k), \
	       avg(p99[k], k), avg(busy[k], k), avg(c[k], k), \
	       sh < 0 ? "" : sprintf("%.3f", sh), r["iops"], r["iops_lo"], \
	       r["iops_hi"], r["cpu"], r["cpu_lo"], r["cpu_hi"], hostslow(k), \
	       dshare(j, k) < 0 ? "" : sprintf("%.3f", dshare(j, k)), \
	       overhead(j, k)
}

END {
	if (fmt == "csv" && header)
		print "date,rev,kernel,vcpus,runs,secs,test,job,side,bs," \
		      "n,iops_mean,iops_min,iops_max,cv_pct,p50_us,p99_us," \
		      "cpu_busy_pct,cpu_us_per_io,ceiling_share," \
		      "iops_ratio,iops_ratio_min,iops_ratio_max," \
		      "cpu_ratio,cpu_ratio_min,cpu_ratio_max,host_slow_pct," \
		      "direct_share,target_us_per_io"
	if (fmt == "txt") {
		printf "%-20s %-7s %4s %8s %8s %8s %5s %7s %7s %5s %6s", "job", \
		       "side", "runs", "IOPS", "min", "max", "cv%", "p50us", "p99us", \
		       "busy%", "us/io"
		if (nct)
			printf " %6s", "ceil"
		if (anydirect)
			printf " %6s %6s", "direct", "tgt/io"
		printf " %-17s %-17s %s\n", "IOPS " al "/" bl, \
		       "CPU/io " al "/" bl, "note"
	} else if (fmt == "md") {
		printf "| job | side | runs | IOPS | min | max | CV %% | p50 µs | " \
		       "p99 µs | CPU busy %% | CPU µs/IO |"
		if (nct)
			printf " of ceiling |"
		if (anydirect)
			printf " of direct | target µs/IO |"
		printf " IOPS %s/%s | CPU/IO %s/%s | note |\n", al, bl, al, bl
		printf "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
		if (nct)
			printf "--:|"
		if (anydirect)
			printf "--:|--:|"
		printf "--:|--:|---|\n"
	}
	for (i = 1; i <= njobs; i++) {
		j = order[i]
		ratios(j)
		if (fmt == "dat") {
			printf "%s%s%s %.3f %.3f %.3f %.3f %.3f %.3f\n", tag, \
			       tag != "" ? ":" : "", j, r["iops"], r["iops_lo"], \
			       r["iops_hi"], r["cpu"], r["cpu_lo"], r["cpu_hi"]
			continue
		}
		first = 1
		for (side = 1; side <= 3; side++) {
			sd = side == 1 ? a : side == 2 ? b : direct
			k = j SUBSEP sd
			if (!n[k])
				continue
			if (fmt == "txt" || fmt == "md")
				row(j, sd, first, fmt == "md")
			else if (fmt == "csv")
				csvrow(j, sd)
			first = 0
		}
	}
	if (fmt == "txt" || fmt == "md") {
		if (fmt == "md")
			print ""
		for (i = 1; i <= nct; i++) {
			t = ctests[i]
			h = slowpct(cprobe[t])
			printf "%sceiling: %s, %d-byte messages: %.0f msg/s, " \
			       "%.1f MiB/s%s%s\n", fmt == "md" ? "- " : "", t, \
			       cmsg[t], cmps[t], cmib[t], \
			       t == ceiling ? " (the \"ceil\" shares)" : "", \
			       (h > hostmax ? sprintf(", host +%.0f%%", h) : "")
		}
		if (anydirect)
			printf "%sdirect: fio on the device the sides stand on, " \
			       "without a target (the job's ceiling on the " \
			       "device side, the \"of direct\" shares); " \
			       "target µs/IO: the side's CPU µs per I/O less " \
			       "the direct path's\n", fmt == "md" ? "- " : ""
		printf "%sratios: %s/%s, mean over mean (range of the per-run " \
		       "ratios); CPU/io lower is better; cv>%s%%: run-to-run " \
		       "variation above %s%%\n", fmt == "md" ? "- " : "", al, bl, \
		       cvmax, cvmax
		if (fastest)
			printf "%shost +N%%: the CPU probes before and after " \
			       "one of the side's runs both took N%% or more " \
			       "longer than the boot's fastest (%d ms): the " \
			       "host gave the guest less CPU through that run\n", \
			       fmt == "md" ? "- " : "", fastest
	}
}
