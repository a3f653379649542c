# SPDX-License-Identifier: GPL-2.0-only
#
# User-facing targets (README.md, Documentation/testing.md; the layout:
# Documentation/design.md §1). Kernel modules are built out of tree
# against KDIR, in a per-kernel copy under build/kmod/<kernel release>/ so
# that modules for several kernels (6.1 and 6.12) can coexist.

SHELL := /bin/bash
PREFIX ?= /usr/local

# The running kernel of these machines has no headers: default to the
# newest installed Debian 6.1 headers. KERNEL=6.12 selects the 6.12 ones.
# KERNEL=debug: the KASAN + lockdep debug kernel (scripts/debug-kernel,
# cached outside the clone; make debug-kernel builds it).
KERNEL ?= 6.1
ifeq ($(KERNEL),debug)
KDIR ?= $(shell scripts/debug-kernel --kdir 2>/dev/null)
KREL := $(shell scripts/debug-kernel --release 2>/dev/null)
else
KDIR ?= $(lastword $(sort $(wildcard /usr/src/linux-headers-$(KERNEL).*-amd64)))
KREL := $(patsubst linux-headers-%,%,$(notdir $(KDIR)))
endif
KBUILD_OUT := $(CURDIR)/build/kmod/$(KREL)

# Module source trees copied for each kernel build.
KSRC := Kbuild scst_core scst_local dev_handlers srpt
TEST_KMOD_DIR := tests/vm/modules

.PHONY: all modules usr test-modules test-tools unit fuzz fuzz-check check \
	check-quick check-debug check-ha debug-kernel soak vm-test deps demo bench profile checkpatch install deb clean help

all: modules usr

help:
	@echo "make [all]           build the kernel modules (KDIR=$(KDIR)), scstadmin and scst-affinity"
	@echo "make install         install scstadmin, scst-affinity and their man pages, scst.conf.5 (DESTDIR, PREFIX)"
	@echo "make deb             Debian packages scst-ng-dkms and scst-ng-tools in build/deb/"
	@echo "make KERNEL=6.12     build against the installed 6.12 headers"
	@echo "make deps            install build/test dependencies (Debian)"
	@echo "make demo            SRP target from scst.conf, Linux initiator, I/O (VM)"
	@echo "make check           unit tests and VM tests (the full suite)"
	@echo "make check-debug     every VM test on the KASAN + lockdep + kmemleak debug kernel"
	@echo "                     (built once into /var/cache/scst-ng; make debug-kernel)"
	@echo "make check-ha        the HA tests of several guests: harness, PR, failover,"
	@echo "                     partition, split, four nodes (scripts/vm/multi; HA_TESTS=...;"
	@echo "                     make check runs ha-pr)"
	@echo "make soak [SOAK_MINUTES=30]  fio --verify under link flaps, resets, LUN"
	@echo "                     changes and re-logins on the debug kernel"
	@echo "make check-quick     builds (6.1, 6.12, usr), checkpatch, unit tests, fuzzers"
	@echo "                     briefly, VM tests modules-load, core-local,"
	@echo "                     scstadmin-local and srpt-login (6.1)"
	@echo "make unit            unit tests only"
	@echo "make fuzz [FUZZ_TIME=60]  build the libFuzzer harnesses, fuzz each FUZZ_TIME s"
	@echo "make fuzz-check      each harness briefly, and every saved regression input"
	@echo "make test-tools      userspace test tools for the VM (tests/tools: srp_hostile)"
	@echo "make vm-test T=name [KERNEL=6.12]  one VM test (tests/vm/NAME.sh)"
	@echo "make checkpatch      checkpatch.pl --strict on our sources"
	@echo "make bench           benchmarks against LIO in the VM (ratios; tables, CSV,"
	@echo "                     chart in bench/results/; scripts/bench --help)"
	@echo "make profile         perf profile of one bench-local row in the VM, ours and"
	@echo "                     LIO's: top symbols and module shares (build/profile/);"
	@echo "                     PROFILE_ARGS=--srp a bench-srp row, --srp2 a bench-srp2 one (scripts/profile --help)"

modules:
	@test -d "$(KDIR)" || { echo "KDIR '$(KDIR)' not found; run 'make deps'" \
		"(KERNEL=debug: make debug-kernel)" >&2; exit 1; }
	@mkdir -p $(KBUILD_OUT)
	@# scst_local.ko was built in scst_core/ before it had its own
	@# directory: a stale copy there would be packed into the VM too
	@rm -f $(KBUILD_OUT)/scst_core/scst_local.*
	@tar -c $(KSRC) | tar -x -C $(KBUILD_OUT)
	$(MAKE) -C $(KDIR) M=$(KBUILD_OUT) W=1 modules
	@echo "modules for $(KREL) are in $(KBUILD_OUT)"

usr:
	$(MAKE) -C usr

test-tools:
	$(MAKE) -C tests/tools

test-modules:
	@mkdir -p $(KBUILD_OUT)/test-modules
	@tar -c -C $(TEST_KMOD_DIR) . | tar -x -C $(KBUILD_OUT)/test-modules
	$(MAKE) -C $(KDIR) M=$(KBUILD_OUT)/test-modules W=1 modules

unit:
	$(MAKE) -C tests/unit run

# libFuzzer harnesses of the pure-logic files (tests/fuzz/, clang).
FUZZ_TIME ?= 60
fuzz:
	$(MAKE) -C tests/fuzz run FUZZ_TIME=$(FUZZ_TIME)

fuzz-check:
	$(MAKE) -C tests/fuzz check

check:
	scripts/check

check-quick:
	scripts/check --quick

# The debug lane alone: every VM test on the debug kernel (built first,
# once, when the cache lacks it).
check-debug:
	scripts/check --debug-only

# The HA cluster: two target nodes and an initiator (ha-scale: four target
# nodes), each its own guest (scripts/vm/multi), one test after the other;
# make check runs ha-pr.
HA_TESTS ?= ha-cluster ha-pr ha-failover ha-partition ha-split ha-scale
check-ha: modules test-modules usr
	@rc=0; for t in $(HA_TESTS); do \
		scripts/vm/multi --kernel $(KERNEL) $$t || rc=1; \
	done; exit $$rc

debug-kernel: deps
	scripts/debug-kernel build

SOAK_MINUTES ?= 30
soak: deps
	scripts/soak --minutes $(SOAK_MINUTES)

bench: deps
	scripts/bench

profile: deps
	scripts/profile $(PROFILE_ARGS)

vm-test: modules test-modules
	scripts/vm/run --kernel $(KERNEL) $(T)

deps:
	scripts/install-deps

demo: deps
	$(MAKE) all test-modules
	scripts/demo

checkpatch:
	scripts/checkpatch

install: usr
	$(MAKE) -C usr install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

# Debian packages (dpkg-buildpackage on a copy of the tree, in build/deb/)
deb:
	scripts/make-deb

clean:
	rm -rf build
	$(MAKE) -C usr clean
	$(MAKE) -C tests/tools clean
	$(MAKE) -C tests/unit clean 2>/dev/null || true
	$(MAKE) -C tests/fuzz clean 2>/dev/null || true
