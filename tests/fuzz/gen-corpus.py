#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# gen-corpus.py - write the seed corpora corpus/<harness>/ of the fuzzers:
# the valid inputs of the unit tests (tests/unit/test_*.c), laid out as
# each harness reads its input (see the comment at the top of fuzz_<h>.c).
# Re-run it after changing a harness's input format; libFuzzer finds the
# rest from these.
import os
import struct
import sys

top = os.path.dirname(os.path.abspath(__file__))
seeds = {}


def seed(harness, name, data):
    seeds.setdefault(harness, []).append((name, bytes(data)))


def be16(v):
    return struct.pack('>H', v)


def be32(v):
    return struct.pack('>I', v)


def be64(v):
    return struct.pack('>Q', v)


# ---- srp_login: form, min IU (2), max IU (4), rsp size, private data ----
def login_ib(it_iu_len, fmt, flags, imm_off):
    iu = bytes([0x00]) + bytes(7) + be64(0x1122334455667788)
    iu += be32(it_iu_len) + bytes(4) + be16(fmt) + bytes([flags, 0])
    iu += be16(imm_off) + bytes(2) + bytes(range(16)) + bytes(range(16, 32))
    return iu + bytes(28)            # IB CM private data is 92 bytes


def login_rdma(it_iu_len, fmt, flags, imm_off):
    iu = be64(0x1122334455667788) + be16(fmt) + bytes([flags, 0x00])
    iu += be32(it_iu_len) + bytes(range(16)) + bytes(range(16, 32))
    return iu + be16(imm_off) + bytes(6)


lhdr = bytes([0]) + be16(64) + be32(8192) + bytes([52])
rhdr = bytes([1]) + be16(64) + be32(8192) + bytes([52])
seed('srp_login', 'ib-plain', lhdr + login_ib(8192, 6, 0, 0))
seed('srp_login', 'ib-multi-imm', lhdr + login_ib(8260, 6, 0x81, 80))
seed('srp_login', 'ib-too-long', lhdr + login_ib(1 << 20, 2, 0, 0))
seed('srp_login', 'rdma-plain', rhdr + login_rdma(8192, 6, 0, 0))
seed('srp_login', 'rdma-imm', rhdr + login_rdma(8260, 6, 0x80, 80))


# ---- srp_cmd: imm offset (2), IU length (2), table mode, IU, table ----
def srp_cmd(fmt_byte, do_cnt, di_cnt, cdb, add_cdb=b'', tail=b''):
    # SRP r16a §6.8: ADDITIONAL CDB LENGTH (byte 31, bits 7-2) in dwords
    iu = bytes([0x02, 0]) + bytes(3) + bytes([fmt_byte, do_cnt, di_cnt])
    iu += be64(0xabcdef) + bytes(4) + bytes([0, 1]) + bytes(6)
    iu += bytes([0, 0, 0, len(add_cdb) & 0xfc])
    return iu + cdb.ljust(16, b'\0') + add_cdb + tail


def desc(va, key, ln):
    return be64(va) + be32(key) + be32(ln)


read10 = bytes([0x28, 0, 0, 0, 0, 0, 0, 0, 8, 0])
write10 = bytes([0x2a, 0, 0, 0, 0, 0, 0, 0, 8, 0])


def cmd_seed(name, imm_off, iu, table=b'', full=0):
    seed('srp_cmd', name, be16(imm_off) + be16(len(iu)) + bytes([full]) +
         iu + table)


cmd_seed('none', 0, srp_cmd(0, 0, 0, bytes(6)))
cmd_seed('direct-read', 0, srp_cmd(0x01, 0, 1, read10,
                                   tail=desc(0x1000, 7, 4096)))
cmd_seed('direct-write', 0, srp_cmd(0x10, 1, 0, write10,
                                    tail=desc(0x1000, 7, 4096)))
ind = desc(0x2000, 9, 32) + be32(8192) + desc(0x1000, 7, 4096) + \
    desc(0x3000, 7, 4096)
cmd_seed('indirect-in-iu', 0, srp_cmd(0x02, 0, 2, read10, tail=ind))
ext = desc(0x2000, 9, 48) + be32(12288) + desc(0x1000, 7, 4096)
table = desc(0x1000, 7, 4096) + desc(0x3000, 7, 4096) + \
    desc(0x5000, 7, 4096)
cmd_seed('indirect-external', 0, srp_cmd(0x20, 1, 0, write10, tail=ext),
         table, 1)
cmd_seed('immediate', 80, srp_cmd(0x30, 0, 0, write10,
                                  tail=be32(512) + bytes(12) + bytes(512)))
cmd_seed('add-cdb', 0, srp_cmd(0x01, 0, 1, bytes([0x88]) + bytes(15),
                               add_cdb=bytes(8),
                               tail=desc(0x1000, 7, 4096)))


# ---- srp_tsk_mgmt: rsp size (2), resid (8+8), mode, raw sense, IU ----
def tmf(func, task_tag):
    iu = bytes([0x01, 0]) + bytes(6) + be64(0x42) + bytes(4)
    iu += bytes([0, 1]) + bytes(6) + bytes(2) + bytes([func, 0])
    return iu + be64(task_tag) + bytes(8)


sense = bytes([0x70, 0, 5, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x24, 0, 0, 0, 0,
               0])
for func, nm in ((1, 'abort-task'), (2, 'abort-task-set'),
                 (4, 'clear-task-set'), (8, 'lun-reset'),
                 (0x40, 'clear-aca'), (0x80, 'unknown')):
    seed('srp_tsk_mgmt', nm, be16(260) + be64(0) + be64(0) + bytes([0]) +
         tmf(func, 0x41))
seed('srp_tsk_mgmt', 'raw-sense', be16(100) + be64(512) + be64(1 << 63) +
     bytes([(len(sense) // 5 + 1) << 2 | 2]) +
     sense.ljust((len(sense) // 5 + 1) * 5, b'\0') + tmf(8, 0))


# ---- srp_dm: MaxControllers, slot states, entries per slot, rsp size ----
def mad(method, attr_id, attr_mod, mgmt_class=0x06):
    hdr = bytes([1, mgmt_class, 1, method]) + bytes(4) + be64(0x1234)
    hdr += be16(attr_id) + bytes(2) + be32(attr_mod)
    return hdr + bytes(256 - 24)


dmhdr = bytes([2, 0x01, 0x00, 2, 0]) + be16(256)
for nm, m in (('class-port-info', mad(1, 0x0001, 0)),
              ('iou-info', mad(1, 0x0010, 0)),
              ('ioc-profile', mad(1, 0x0011, 1)),
              ('ioc-profile-empty', mad(1, 0x0011, 2)),
              ('svc-entries', mad(1, 0x0012, 1 << 16 | 1 << 8)),
              ('set', mad(2, 0x0010, 0)),
              ('bad-version', bytes([2]) + mad(1, 0x0010, 0)[1:]),
              ('other-class', mad(1, 0x0010, 0, 0x04))):
    seed('srp_dm', nm, dmhdr + m)


# ---- cdb: dev type selector, block shift, capacity (8), RSOC size (2) ----
import re


def c_int_list(text):
    return [int(x, 0) for x in re.findall(r'0x[0-9a-fA-F]+|\d+', text)]


src = open(os.path.join(top, '..', 'unit', 'test_cdb.c')).read()
shift_sel = {9: 0, 10: 1, 11: 2, 12: 3}
for i, m in enumerate(re.finditer(
        r'\{\s*"([^"]*)",\s*\{([^}]*)\}\s*,\s*(\d+)\s*,\s*(\d+)\s*,'
        r'\s*(\d+)', src)):
    cdb = bytes(c_int_list(m.group(2))).ljust(int(m.group(3)), b'\0')
    dev = int(m.group(4))
    sel = 0 if dev == 0 else 1 if dev == 5 else 0x80 | dev
    shift = int(m.group(5))
    shift = shift - 9 if 9 <= shift <= 16 else 0x80 | shift
    seed('cdb', 'unit-%03d' % i, bytes([sel, shift]) + be64(1 << 21) +
         be16(512) + cdb)

# ---- spc: command (0 inquiry, 1 mode, 2 unmap, 3 others), short size ----
inq_params = bytes([0, 0x3f]) + be64(0x1234567890) + be32(0x001405) + \
    be16(1) + be16(1) + bytes([4]) + be32(512) + be64(1 << 21) + \
    be32(2048) + be32(2048) + be16(8) + be32(1 << 20) + be32(16) + \
    be32(8) + be32(0) + be64(1 << 16) + bytes([1]) + be16(0x0940)
strs = b''.join(bytes([len(x)]) + x for x in
                (b'SCST_NG', b'fuzz disk', b'1.0', b'0123456789',
                 b'disk01', b'fe80::2:c903:e:ce61'))
for page in (None, 0x00, 0x80, 0x83, 0x86, 0xb0, 0xb1, 0xb2, 0x01):
    cdb = bytes([0x12, 0, 0, 0, 0xff, 0]) if page is None else \
        bytes([0x12, 1, page, 0, 0xff, 0])
    seed('spc', 'inquiry-%s' % ('std' if page is None else '%02x' % page),
         bytes([0]) + be16(36) + inq_params + strs + cdb)
mode_params = bytes([0x15, 0x02]) + be32(512) + be64(1 << 21)
for nm, cdb in (('sense6-all', bytes([0x1a, 0, 0x3f, 0, 0xff, 0])),
                ('sense10-caching', bytes([0x5a, 0x10, 0x08, 0, 0, 0, 0,
                                           0x10, 0, 0])),
                ('sense6-changeable', bytes([0x1a, 8, 0x7f, 0, 0xff, 0]))):
    seed('spc', 'mode-' + nm, bytes([1]) + be16(12) + mode_params +
         cdb.ljust(10, b'\0'))
caching = bytes([0x08, 0x12, 0x04]) + bytes(17)
seed('spc', 'mode-select6-caching', bytes([1]) + be16(0) + mode_params +
     bytes([0x15 | 0, 0x10, 0, 0, 4 + len(caching), 0, 0, 0, 0, 0]) +
     bytes([0, 0, 0, 0]) + caching)
control = bytes([0x0a, 0x0a, 0x04, 0x10]) + bytes(8)
seed('spc', 'mode-select10-control', bytes([1]) + be16(0) + mode_params +
     bytes([0x55, 0x10, 0, 0, 0, 0, 0, 0, 8 + 8 + len(control), 0]) +
     bytes(6) + be16(8) + be32(1 << 21) + bytes([0]) +
     struct.pack('>I', 512)[1:] + control)
seed('spc', 'unmap', bytes([2]) + be16(0) + be64(1 << 21) + bytes([16]) +
     be32(1 << 20) + be16(38) + be16(32) + bytes(4) +
     be64(0) + be32(8) + bytes(4) + be64(100) + be32(1) + bytes(4))
seed('spc', 'others', bytes([3]) + be16(20) + be32(512) + be64(1 << 21) +
     be16(3) + bytes([0]) + be16(0) + be16(1) + be16(300))

# ---- mgmt_parse: max_positional, line (the unit tests' lines) ----
src = open(os.path.join(top, '..', 'unit', 'test_mgmt_parse.c')).read()
for i, m in enumerate(re.finditer(
        r'\{\s*("(?:[^"\\]|\\.)*")\s*,\s*(\d+)\s*,', src)):
    line = m.group(1)[1:-1].encode().decode('unicode_escape')
    seed('mgmt_parse', 'unit-%02d' % i,
         bytes([int(m.group(2))]) + line.encode('latin-1'))

seed('mgmt_parse', 'too-many-params', bytes([2]) + b'add_device d ' +
     b';'.join(b'k%d=%d' % (i, i) for i in range(33)))
seed('mgmt_parse', 'too-long', bytes([2]) + b'add_device d filename=/' +
     b'x' * 4100)

# ---- wildcard: pattern length, pattern, name ----
src = open(os.path.join(top, '..', 'unit', 'test_wildcard.c')).read()
for i, m in enumerate(re.finditer(
        r'\{\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"', src)):
    pat, name = m.group(1).encode(), m.group(2).encode()
    seed('wildcard', 'unit-%02d' % i, bytes([len(pat)]) + pat + name)
seed('wildcard', 'negated', bytes([14]) + b'!0x0002c903*e?' +
     b'0x0002c903000e0001')


# ---- conf_parse, conf_diff: scst.conf texts of the scstadmin unit tests ----
def c_strings(path):
    """Every run of adjacent C string literals in @path, decoded."""
    import re
    src = open(path).read()
    lit = r'"(?:[^"\\\n]|\\.)*"'
    for m in re.finditer(r'(?:%s\s*)+' % lit, src):
        parts = re.findall(lit, m.group(0))
        text = ''.join(p[1:-1] for p in parts)
        yield text.encode().decode('unicode_escape').encode('latin-1')


confs = []
unit = os.path.join(top, '..', 'unit')
for f in sorted(os.listdir(unit)):
    if f.startswith('test_scstadmin') and f.endswith('.c') and \
       f != 'test_scstadmin_alua.c':
        for t in c_strings(os.path.join(unit, f)):
            if (b'HANDLER' in t or b'TARGET_DRIVER' in t) and \
               t not in confs:
                confs.append(t)
confs = confs[:40]
for i, t in enumerate(confs):
    seed('conf_parse', 'unit-%02d' % i, t)
# conf_diff: want length (2), flags (1), want, live
for i, t in enumerate(confs[:20]):
    live = confs[(i + 1) % len(confs)]
    seed('conf_diff', 'self-%02d' % i, be16(len(t)) + bytes([0xff]) + t + t)
    seed('conf_diff', 'pair-%02d' % i, be16(len(t)) + bytes([i]) + t + live)
# DEVICE_GROUP blocks (ALUA): the files of test_scstadmin_alua.c that
# parse, as seeds of their own so that the ones above stay as they were
alua = []
for t in c_strings(os.path.join(unit, 'test_scstadmin_alua.c')):
    if b'DEVICE_GROUP' in t and b'HANDLER' in t and t not in alua:
        alua.append(t)
# and what the unit file builds with macros, spelled out
H = b'HANDLER vdisk_nullio {\n DEVICE d1\n DEVICE d2\n}\n'
D = b'TARGET_DRIVER scst_local {\n TARGET t1\n TARGET t2\n}\n'
for body in [
        b'DEVICE_GROUP dg1 {\n\tDEVICE d1\n\tDEVICE d2\n\n'
        b'\tTARGET_GROUP local {\n\t\tgroup_id 1\n\t\tpreferred 1\n'
        b'\t\tstate active\n\n\t\tTARGET t1\n\t}\n'
        b'\tTARGET_GROUP remote {\n\t\tgroup_id 0x20\n\t\tstate standby\n'
        b'\t\tTARGET iqn.2026-01.org.example:peer {\n'
        b'\t\t\trel_tgt_id 5\n\t\t}\n\t\tTARGET t2\n\t}\n}\n',
        b'DEVICE_GROUP g {\n TARGET_GROUP a { state nonoptimized }\n'
        b' TARGET_GROUP b { state unavailable; group_id 0 }\n'
        b' TARGET_GROUP c { state offline; preferred 0 }\n'
        b' TARGET_GROUP e { state transitioning; group_id 65535 }\n'
        b' TARGET_GROUP f\n}\nDEVICE_GROUP empty {\n}\n',
        b'DEVICE_GROUP dg1 {\n DEVICE d1\n'
        b' TARGET_GROUP tg1 {\n  group_id 1\n  state active\n  TARGET t1\n }\n}\n',
        b'DEVICE_GROUP dg1 {\n TARGET_GROUP tg1 {\n  group_id 1\n }\n'
        b' TARGET_GROUP tg2 {\n  group_id 2\n  TARGET t1\n }\n}\n'
        b'DEVICE_GROUP dg2 {\n DEVICE d1\n}\n',
        b'DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP tg1 {\n'
        b'  group_id 0\n  TARGET t1 { rel_tgt_id 1 }\n'
        b'  TARGET peer { rel_tgt_id 4 }\n }\n}\n',
        b'DEVICE_GROUP dg {\n TARGET_GROUP tg {\n  state sleeping\n }\n}\n',
        b'DEVICE_GROUP dg {\n TARGET_GROUP a {\n  TARGET t1\n }\n'
        b' TARGET_GROUP b {\n  TARGET t1\n }\n}\n']:
    t = H + D + body
    if t not in alua:
        alua.append(t)
alua = alua[:24]
for i, t in enumerate(alua):
    seed('conf_parse', 'alua-%02d' % i, t)
for i, t in enumerate(alua[:12]):
    live = alua[(i + 1) % len(alua)]
    seed('conf_diff', 'alua-self-%02d' % i,
         be16(len(t)) + bytes([0xff]) + t + t)
    seed('conf_diff', 'alua-pair-%02d' % i,
         be16(len(t)) + bytes([i]) + t + live)


# ---- pr_out: PR OUT sequences (fuzz_pr_out.c's per-command layout) ----
def pr_cmd(nx, sa, cdb2, key, sa_key, byte20, mode=0, extra=b''):
    # key selectors: 0-3, or 0xff followed by 8 bytes
    c = bytes([nx, sa, cdb2, key, sa_key, byte20, mode]) + extra
    return c + bytes(16) + bytes([255])


REG, RES, REL, CLR, PRE, PAA, RIEK, RAM = range(8)
seed('pr_out', 'cluster-validation',
     pr_cmd(0, REG, 0, 0, 1, 0) + pr_cmd(4, REG, 0, 0, 2, 0) +
     pr_cmd(0, RES, 3, 1, 0, 0) + pr_cmd(4, PRE, 3, 2, 1, 0) +
     pr_cmd(4, REL, 3, 2, 0, 0) + pr_cmd(4, CLR, 0, 2, 0, 0))
seed('pr_out', 'fence-scsi',
     pr_cmd(0, RIEK, 0, 0, 1, 0) + pr_cmd(5, RIEK, 0, 0, 2, 0) +
     pr_cmd(0, RES, 5, 1, 0, 0) + pr_cmd(5, PAA, 5, 2, 1, 0))
seed('pr_out', 'all-registrants',
     pr_cmd(0, REG, 0, 0, 1, 0x04) + pr_cmd(3, REG, 0, 0, 2, 0x01) +
     pr_cmd(3, RES, 8, 2, 0, 0) + pr_cmd(0, PRE, 7, 1, 0, 0) +
     pr_cmd(0, REG, 0, 1, 0, 0))
seed('pr_out', 'spec-i-pt',
     pr_cmd(0, REG, 0, 0, 3, 0x08, 1, bytes([3, 2, 4, 6])) +
     pr_cmd(2, RES, 6, 3, 0, 0))
seed('pr_out', 'register-and-move',
     pr_cmd(0, REG, 0, 0, 1, 0) + pr_cmd(0, RES, 1, 1, 0, 0) +
     pr_cmd(0, RAM, 0, 1, 2, 0x30, 2, bytes([4 | 8])))
seed('pr_out', 'raw-list',
     pr_cmd(1, REG, 0, 0, 1, 0, 3, be16(24) + be64(0) + be64(5) +
            bytes(8)))

# ---- pr_file: the APTPL files of the unit tests, good and damaged ----
for i, t in enumerate(x for x in c_strings(os.path.join(
        top, '..', 'unit', 'test_pr_file.c')) if b'scst-ng-pr' in x):
    seed('pr_file', 'unit-%02d' % i, t)



# ---- pr_scst_file: SCST's binary APTPL files (scst_pr_scst_file.c) ----
def scst_hdr(aptpl, is_set, typ, scope=0):
    return struct.pack('<QQ', 0xBBEEEEAAEEBBDD77, 1) + \
        bytes([aptpl, is_set, typ, scope])


def scst_rec(holder, tid, key, rel):
    return bytes([holder]) + tid + be64(key) + struct.pack('<H', rel)


def scst_fixed(b0, off, ident):
    t = bytearray(24)
    t[0] = b0
    t[off:off + len(ident)] = ident
    return bytes(t)


def scst_iscsi(b0, s, addl=0):
    raw = s.encode()
    if not addl:
        addl = (len(raw) + 1 + 3) & ~3
    return bytes([b0, 0]) + be16(addl) + raw.ljust(addl, b'\0')


SRP_ID = bytes.fromhex('fe800000000000000002c903000e8acd')
# the worked example of scst_pr_scst_file.c's unit test (114 bytes)
seed('pr_scst_file', 'example',
     scst_hdr(1, 1, 5) + scst_rec(1, scst_fixed(4, 8, SRP_ID), 0xab, 1) +
     scst_rec(0, scst_iscsi(0x45, 'iqn.2001-04.com.example:h2,i,0x23d000000'),
              0xcd, 2))
seed('pr_scst_file', 'fc-sbp-sas',
     scst_hdr(1, 1, 3) +
     scst_rec(0, scst_fixed(0, 8, bytes.fromhex('21000024ff123456')), 1, 1) +
     scst_rec(0, scst_fixed(3, 8, bytes.fromhex('0011223344556677')), 2, 1) +
     scst_rec(1, scst_fixed(6, 4, bytes.fromhex('5feede400000e050')), 3, 9))
seed('pr_scst_file', 'ea-ar',
     scst_hdr(1, 1, 8) + scst_rec(0, scst_iscsi(5, 'iqn.a'), 7, 1) +
     scst_rec(0, scst_iscsi(0x45, 'iqn.a,i,0x1'), 8, 2))
seed('pr_scst_file', 'no-reservation',
     scst_hdr(1, 0, 0xff) + scst_rec(0, scst_iscsi(5, 'IQN.X', 6), 5, 3))
seed('pr_scst_file', 'empty', scst_hdr(1, 0, 0xff))
seed('pr_scst_file', 'unfinished',
     bytes(8) + scst_hdr(1, 0, 0xff)[8:] +
     scst_rec(0, scst_fixed(4, 8, SRP_ID), 1, 1))
seed('pr_scst_file', 'isid-merge',
     scst_hdr(1, 0, 0xff) +
     scst_rec(0, scst_iscsi(0x45, 'iqn.h,i,0x1'), 1, 1) +
     scst_rec(0, scst_iscsi(0x45, 'iqn.h,i,0x2'), 2, 1))
seed('pr_scst_file', 'scst-2.0',
     scst_hdr(1, 1, 1)[:16] + bytes([1, 1, 0]) +
     scst_rec(1, scst_fixed(4, 8, SRP_ID), 1, 1))

# ---- alua_stpg: groups, RTPG format and length, a CDB, an STPG list ----
def alua(groups, fmt, alloc, cdb, plen, lst):
    g = bytes([len(groups)])
    for gid, st, nports in groups:
        g += be16(gid) + bytes([st, nports])
    return (g + bytes([fmt]) + be16(alloc) + bytes(cdb).ljust(16, b'\0') +
            be16(plen) + bytes(lst))


TWO = [(1, 0, 1), (2, 2, 2)]
seed('alua_stpg', 'switch', alua(TWO, 0, 4096, [0x28], 12,
                                 [0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 2]))
seed('alua_stpg', 'extended-cut', alua(TWO, 1, 10, [0xa3, 0x0a], 8,
                                       [0, 0, 0, 0, 1, 0, 0, 2]))
seed('alua_stpg', 'offline-refused', alua(TWO, 0, 64, [0x00], 8,
                                          [0, 0, 0, 0, 0x0e, 0, 0, 2]))
seed('alua_stpg', 'unknown-group', alua(TWO, 0, 64, [0x12], 8,
                                        [0, 0, 0, 0, 0, 0, 0, 9]))
seed('alua_stpg', 'short-list', alua(TWO, 0, 64, [0xa4, 0x0a], 10,
                                     [0, 0, 0, 0, 0, 0, 0, 1, 0, 0]))
seed('alua_stpg', 'transitioning', alua([(1, 0x0f, 1), (2, 3, 0)], 0, 32,
                                        [0x3c, 0x0a], 8,
                                        [0, 0, 0, 0, 0, 0, 0, 1]))


# ---- pr_wire: count, header, notices, registrant blocks (scst_pr_wire.c) ----
LVB = 256


def fnv64(h, data):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def iscsi_tid(name):
    n = name.lower().encode() + b'\0'
    n += bytes(-len(n) % 4)
    n += bytes(max(0, 20 - len(n)))
    return bytes([0x05, 0]) + be16(len(n)) + n


def wire_reg(key, tid, rel, all_tg_pt):
    b = be32(0x53505252) + bytes([1, 1 if all_tg_pt else 0]) + be16(rel)
    b += be64(key) + be16(len(tid)) + tid
    return b + bytes(LVB - len(b))


def wire_state(regs, typ, holder, aptpl, gen, seq, node=1):
    blocks = [wire_reg(k, t, r, a) for k, t, r, a in regs]
    h = 0xcbf29ce484222325
    for b in blocks:
        h = fnv64(h, b)
    hdr = be32(0x53505253) + bytes([1, 1 if aptpl else 0, typ, 0])
    hdr += be16(holder) + be16(len(regs)) + be32(gen) + be64(seq)
    hdr += be64(h) + be32(node)
    return hdr + bytes(LVB - len(hdr)), blocks


def wire_notes(groups, seq, base_seq):
    b = be32(0x5350524e) + bytes([1, len(groups), 0, 0]) + be64(seq)
    b += be64(base_seq)
    for ua, abort, idxs in groups:
        bits = bytearray(16)
        for i in idxs:
            bits[i // 8] |= 1 << (i % 8)
        b += be32(ua) + bytes([1 if abort else 0]) + bytes(bits)
    return b + bytes(LVB - len(b))


def wire_seed(name, regs, typ, holder, aptpl, notes, nblocks=None):
    hdr, blocks = wire_state(regs, typ, holder, aptpl, 7, 5)
    n = len(regs) if nblocks is None else nblocks
    seed('pr_wire', name, bytes([n]) + hdr + notes + b''.join(blocks))


FENCE = [(0xa, iscsi_tid('iqn.x:a'), 1, False),
         (0xb, iscsi_tid('iqn.x:b'), 2, False),
         (0xc, iscsi_tid('iqn.x:c'), 1, True)]
wire_seed('empty', [], 0, 0, False, bytes(LVB))
wire_seed('fence-scsi', FENCE, 5, 0, True,
          wire_notes([(0x062a05, True, [1])], 6, 5))
wire_seed('all-registrants', FENCE, 8, 0xffff, False,
          wire_notes([(0x062a04, False, [1, 2]), (0x062a05, True, [0])],
                     6, 5))
wire_seed('short-read', FENCE, 5, 0, True, bytes(LVB), nblocks=2)


def main():
    for h, items in seeds.items():
        d = os.path.join(top, 'corpus', h)
        os.makedirs(d, exist_ok=True)
        for name, data in items:
            with open(os.path.join(d, name), 'wb') as f:
                f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main())
