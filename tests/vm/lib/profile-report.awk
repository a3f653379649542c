# SPDX-License-Identifier: GPL-2.0-only
# The "PROFILE:" lines of one side of a profile (lib/profile.sh) from
# "perf report --no-children --sort comm,dso,sym -n -q -t '|'" (fields:
# overhead | samples | comm | dso | [k] or [.] symbol): the total, the
# share of every module, of the rest of the kernel, of the idle loop and of
# user space, the MODTOP symbols of each module of MODS that was sampled
# (but the RAM disks null_blk and brd), then the TOP symbols of all, by
# samples (summed over the commands). MODS (space-separated, such as
# "scst.ko scst_vdisk.ko scst_local.ko target_core_mod.ko ...") are
# listed first and always, any other module sampled after them. Shares
# are of all samples and of the busy ones (all but the idle loop).
# Variables: side, top, modtop, mods. Plain POSIX awk: the guest's is
# busybox's.

function trim(s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	return s
}

# the kernel's idle loop: where a halted vCPU is sampled
function is_idle(sym) {
	return sym ~ /safe_halt/ || sym ~ /^(default_idle|default_idle_call|native_safe_halt|pv_native_safe_halt|arch_safe_halt|acpi_safe_halt|acpi_idle_do_entry|acpi_idle_enter|mwait_idle_with_hints|intel_idle|intel_idle_irq|poll_idle|cpu_idle_poll|do_idle|cpuidle_enter_state|cpuidle_idle_call)$/
}

function share(n, of) {
	return of ? 100 * n / of : 0
}

# the share of the busy samples, "-" for the idle loop's
function busy_share(n, idle) {
	return idle ? "     -" : sprintf("%5.2f%%", share(n, busy))
}

function line(name, n) {
	printf "PROFILE: side=%s module %-22s %6.2f%% of all %7s of busy %8d samples\n",
		side, name, share(n, total), busy_share(n, name == "idle"), n
}

{
	n = trim($2) + 0
	comm = trim($3)
	dso = trim($4)
	s = trim($5)
	kind = substr(s, 1, 3)
	sym = trim(substr(s, 4))
	if (n <= 0 || sym == "")
		next
	total += n
	if (kind == "[k]") {
		if (dso ~ /^\[.*\]$/)
			mod = substr(dso, 2, length(dso) - 2)
		else
			mod = dso
		sub(/.*\//, "", mod)
		sub(/\.ko(\.[a-z]+)?$/, "", mod)
		if (mod == "kernel.kallsyms" || mod == "unknown" || mod == "")
			cat = is_idle(sym) ? "idle" : "kernel"
		else
			cat = mod ".ko"
		if (sym ~ /^0x[0-9a-f]+$/) {
			unresolved += n
			unres[cat] += n
		}
	} else if (comm == "fio") {
		cat = "fio (user)"
	} else if (comm == "perf") {
		cat = "perf (user)"
	} else {
		cat = "other user"
	}
	cats[cat] += n
	if (cat != "idle")
		busy += n
	key = dso SUBSEP kind " " sym
	if (!(key in syms)) {
		keys[++nkeys] = key
		keycat[nkeys] = cat
	}
	syms[key] += n
}

END {
	printf "PROFILE: side=%s samples=%d busy=%d idle=%d unresolved=%d\n",
		side, total, busy, cats["idle"], unresolved
	for (c in unres)
		printf "PROFILE: side=%s unresolved %-22s %8d samples\n", side, c, unres[c]
	nfixed = split(mods, fixed, " ")
	for (i = 1; i <= nfixed; i++) {
		line(fixed[i], cats[fixed[i]] + 0)
		done[fixed[i]] = 1
	}
	done["kernel"] = done["idle"] = done["fio (user)"] = 1
	done["perf (user)"] = done["other user"] = 1
	# the other modules, most samples first
	for (;;) {
		best = ""
		for (c in cats)
			if (!(c in done) && (best == "" || cats[c] > cats[best]))
				best = c
		if (best == "")
			break
		line(best, cats[best])
		done[best] = 1
	}
	line("kernel", cats["kernel"] + 0)
	line("idle", cats["idle"] + 0)
	line("fio (user)", cats["fio (user)"] + 0)
	line("perf (user)", cats["perf (user)"] + 0)
	line("other user", cats["other user"] + 0)
	# the top symbols of the targets' modules, then of everything
	for (i = 1; i <= nfixed; i++)
		if (cats[fixed[i]] > 0 && fixed[i] != "null_blk.ko" &&
		    fixed[i] != "brd.ko")
			toplist(fixed[i], fixed[i], modtop)
	toplist("all", "", top)
}

# toplist GROUP CAT N: "top GROUP" lines of the N symbols with most
# samples (of category CAT, or all when CAT is empty), most first; a
# selection, N x nkeys steps
function toplist(group, cat, n,    r, b, i, kv, idle, taken) {
	for (r = 1; r <= n; r++) {
		b = 0
		for (i = 1; i <= nkeys; i++)
			if (!(i in taken) && (cat == "" || keycat[i] == cat) &&
			    (b == 0 || syms[keys[i]] > syms[keys[b]]))
				b = i
		if (b == 0)
			break
		taken[b] = 1
		split(keys[b], kv, SUBSEP)
		idle = keycat[b] == "idle"
		printf "PROFILE: side=%s top %-22s %2d %6.2f%% of all %7s of busy %8d  %-20s %s\n",
			side, group, r, share(syms[keys[b]], total),
			busy_share(syms[keys[b]], idle), syms[keys[b]], kv[1], kv[2]
	}
}
