# SPDX-License-Identifier: GPL-2.0-only
# Summarize "job=J side=ours|lio run=N iops=I cpu_us_per_io=C" lines: per
# job the mean IOPS and CPU per I/O of each side, their coefficient of
# variation, and the ratio ours/LIO. -v a=SIDE -v b=SIDE name other sides
# (bench-disk: pt and blockio).
BEGIN {
	if (a == "")
		a = "ours"
	if (b == "")
		b = "lio"
	bl = b == "lio" ? "LIO" : b
}

{
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	key = f["job"] SUBSEP f["side"]
	if (!(f["job"] in seen)) {
		seen[f["job"]] = 1
		order[++njobs] = f["job"]
	}
	n[key]++
	s[key] += f["iops"]
	ss[key] += f["iops"] * f["iops"]
	c[key] += f["cpu_us_per_io"]
}

function mean(k) { return n[k] ? s[k] / n[k] : 0 }
function cv(k,   m, v) {
	m = mean(k)
	if (n[k] < 2 || m == 0)
		return 0
	v = (ss[k] - n[k] * m * m) / (n[k] - 1)
	return v > 0 ? 100 * sqrt(v) / m : 0
}

END {
	printf "%-22s %9s %6s %9s %6s %7s %9s %9s %7s\n", "job", a, "cv%", \
	       bl, "cv%", "ratio", "us/io", bl " us/io", "cpu"
	for (j = 1; j <= njobs; j++) {
		ka = order[j] SUBSEP a
		kb = order[j] SUBSEP b
		ca = n[ka] ? c[ka] / n[ka] : 0
		cb = n[kb] ? c[kb] / n[kb] : 0
		printf "%-22s %9.0f %6.1f %9.0f %6.1f %7.2f %9.0f %9.0f %7.2f\n", \
		       order[j], mean(ka), cv(ka), mean(kb), cv(kb), \
		       mean(kb) ? mean(ka) / mean(kb) : 0, ca, cb, cb ? ca / cb : 0
	}
	printf "ratio: IOPS %s/%s; cpu: CPU per I/O %s/%s (lower is better)\n", \
	       a, bl, a, bl
}
