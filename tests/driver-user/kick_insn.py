#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The driver's own instructions in a profile of kick_count.

kick_insn.py split ROOT PROFILE         one profile: JSON on stdout
kick_insn.py diff ROOT A B KICKS        (B - A) / KICKS of every figure
kick_insn.py ranges NM BINARY OBJ...    qemu's -dfilter for the driver's
                                        functions (those OBJ define)
kick_insn.py qemu ROOT ADDR2LINE BINARY LOG
                                        one qemu-arm log: JSON on stdout

PROFILE is callgrind's output of `kick_count run KRUN KICKS` with
--toggle-collect=npukit_ioctl --compress-strings=no --compress-pos=no, so
that it holds the SUBMIT ioctl and everything it calls. What is counted is
the code of the driver's functions (driver/*.c but npukit_sim*.c and
npukit_backend.c), with
whatever the compiler inlined into them: npukit_dev.h's accessors and the
kernel helpers the kernel inlines too (the shim's header). Left out are
the simulator (npukit_sim*.c, npukit_sim.ko, and npukit_backend.c, the
calls into it: hardware runs neither) and the kernel
services the driver calls out of line (the shim's .c: locks, clocks, user
copies, cache maintenance, and the C library under them); the calls into
both are counted, with their inclusive cost. Each counted instruction goes
to a group by the source line it comes from, whatever was inlined where:
ioctl entry and exit, checks, staging, protocol (npukit_hw.c and the
register accessors), chunk bookkeeping (the rest of npukit_job.c), inline
helpers, and the C tiles written from the RX buffer to their pinned slots
(npukit_job_deliver()), shown apart because the CPU account also charges
their bytes as a copy.

On armhf the count comes from qemu-arm instead, run with -d
in_asm,exec,nochain and -dfilter set to the driver's functions: every
execution of a translated block is logged, so each instruction of a block
counts once per execution; addr2line gives its source line, and the same
grouping applies. Calls are not counted there.
"""
import json
import os
import re
import subprocess
import sys

# Enclosing function of each line of a C source file: "name" from a
# definition's first line at column 0 up to the closing brace at column 0.
DEF_RE = re.compile(r'^[A-Za-z_].*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(')


def functions_of(path):
    owner = {}
    try:
        lines = open(path, encoding='utf-8').read().split('\n')
    except OSError:
        return owner
    name = None
    for no, text in enumerate(lines, 1):
        if name is None:
            m = DEF_RE.match(text)
            if m and not text.rstrip().endswith(';') and not text.startswith('#'):
                name = m.group(1)
        if name is not None:
            owner[no] = name
            if text.startswith('}'):
                name = None
    return owner


# Groups of driver functions; anything else in npukit_job.c is bookkeeping.
GROUPS = [
    ('ioctl', {'npukit_ioctl', 'npukit_ioctl_submit', 'npukit_copy_args',
               'npukit_account', 'npukit_pin', 'npukit_unpin'}),
    ('checks', {'npukit_submit_check', 'npukit_kicks_check',
                'npukit_kick_check'}),
    ('staging', {'npukit_job_stage', 'npukit_pinned_read'}),
    ('c_delivery', {'npukit_job_deliver', 'npukit_pinned_write'}),
]


class Split:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.owners = {}

    def rel(self, path):
        path = os.path.realpath(path) if path.startswith('/') else path
        if path.startswith(self.root + '/'):
            return path[len(self.root) + 1:]
        return path

    def owner(self, file, line):
        if file not in self.owners:
            self.owners[file] = functions_of(os.path.join(self.root, file))
        return self.owners[file].get(line, '?')

    def kind(self, fl):
        """What the function whose code this is belongs to."""
        f = self.rel(fl)
        # npukit_backend.c: the calls into the simulator, not on hardware
        if f.startswith('driver/npukit_sim') or f == 'driver/npukit_backend.c':
            return 'simulator'
        if f.startswith('driver/'):
            return 'driver'
        return 'services'

    def group(self, file, line):
        if file == 'driver/npukit_hw.c' or file == 'driver/npukit_dev.h':
            return 'protocol'
        if not file.startswith('driver/'):
            return 'inline_helpers'
        fn = self.owner(file, line)
        for name, members in GROUPS:
            if fn in members:
                return name
        return 'bookkeeping'

    def parse(self, path):
        totals = {'driver': 0}
        groups = {}
        functions = {}
        calls = {}
        fl = fn_kind = cur = None
        callee = pending = cfl = None
        skip = False
        for text in open(path, encoding='utf-8', errors='replace'):
            text = text.rstrip('\n')
            if skip:
                # the call's position and inclusive cost
                if pending:
                    calls[pending]['ir'] += int(text.split()[1])
                skip = False
                pending = None
                continue
            if text.startswith('fl='):
                fl = cur = text[3:]
            elif text.startswith('fn='):
                cur = fl
                fn_kind = self.kind(fl)
            elif text.startswith('fi=') or text.startswith('fe='):
                cur = text[3:]
            elif text.startswith('cfi=') or text.startswith('cfl='):
                cfl = text[4:]
            elif text.startswith('cfn='):
                callee = re.sub(r'\.(constprop|isra|part)\.\d+', '', text[4:])
            elif text.startswith('calls='):
                if fn_kind == 'driver' and self.kind(cfl or fl) != 'driver':
                    calls.setdefault(callee, {'calls': 0, 'ir': 0})
                    calls[callee]['calls'] += int(text[6:].split()[0])
                    pending = callee
                cfl = None
                skip = True
            elif text[:1].isdigit() and fn_kind:
                line, cost = (int(x) for x in text.split()[:2])
                if fn_kind != 'driver':
                    continue
                totals['driver'] += cost
                file = self.rel(cur)
                g = self.group(file, line)
                groups[g] = groups.get(g, 0) + cost
                key = '%s:%s' % (os.path.basename(file), self.owner(file, line))
                functions[key] = functions.get(key, 0) + cost
        return {'totals': totals, 'groups': groups, 'functions': functions,
                'calls': calls}


def text_symbols(nm, path):
    """Function symbols of an object or binary: {name: (address, size)}."""
    out = subprocess.run([nm, '-S', '--defined-only', path], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.split('\n'):
        f = line.split()
        if len(f) == 4 and f[2] in 'tT':
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    return syms


def ranges(nm, binary, objs):
    names = set()
    for o in objs:
        names |= set(text_symbols(nm, o))
    syms = text_symbols(nm, binary)
    missing = names - set(syms)
    if missing:
        sys.exit('kick_insn.py: not in %s: %s' % (binary, ' '.join(sorted(missing))))
    return ','.join('0x%x+0x%x' % syms[n] for n in sorted(names))


# "0x00012344:  e5903000  ldr r3, [r0]" (in_asm) and
# "Trace 0: 0x7f... [00800480/00012344/...] symbol" (exec)
INSN_RE = re.compile(r'^0x([0-9a-f]+):')
EXEC_RE = re.compile(r'^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/')


def qemu(split, addr2line, binary, log):
    blocks = {}
    execs = {}
    block = None
    for text in open(log, encoding='utf-8', errors='replace'):
        if text.startswith('IN:'):
            block = []
            continue
        m = INSN_RE.match(text)
        if m and block is not None:
            if not block:
                blocks[int(m.group(1), 16)] = block
            block.append(int(m.group(1), 16))
            continue
        block = None
        m = EXEC_RE.match(text)
        if m:
            pc = int(m.group(1), 16)
            execs[pc] = execs.get(pc, 0) + 1
    count = {}
    for pc, n in execs.items():
        for addr in blocks.get(pc, ()):
            count[addr] = count.get(addr, 0) + n
    addrs = sorted(count)
    where = subprocess.run([addr2line, '-e', binary] + ['0x%x' % a for a in addrs],
                           check=True, capture_output=True, text=True).stdout.split('\n')
    totals = {'driver': 0}
    groups = {}
    functions = {}
    for addr, loc in zip(addrs, where):
        path, _, line = loc.rpartition(':')
        line = int(line.split()[0]) if line.split() and line.split()[0].isdigit() else 0
        file = split.rel(path)
        cost = count[addr]
        totals['driver'] += cost
        g = split.group(file, line)
        groups[g] = groups.get(g, 0) + cost
        key = '%s:%s' % (os.path.basename(file), split.owner(file, line))
        functions[key] = functions.get(key, 0) + cost
    return {'totals': totals, 'groups': groups, 'functions': functions}


def diff(a, b, kicks):
    out = {}
    for k in b:
        if isinstance(b[k], dict):
            out[k] = diff(a.get(k, {}), b[k], kicks)
        else:
            out[k] = (b[k] - a.get(k, 0)) / kicks
    return out


def main(argv):
    if len(argv) == 4 and argv[1] == 'split':
        print(json.dumps(Split(argv[2]).parse(argv[3]), indent=1, sort_keys=True))
    elif len(argv) == 6 and argv[1] == 'diff':
        s = Split(argv[2])
        d = diff(s.parse(argv[3]), s.parse(argv[4]), float(argv[5]))
        print(json.dumps(d, indent=1, sort_keys=True))
    elif len(argv) >= 5 and argv[1] == 'ranges':
        print(ranges(argv[2], argv[3], argv[4:]))
    elif len(argv) == 6 and argv[1] == 'qemu':
        d = qemu(Split(argv[2]), argv[3], argv[4], argv[5])
        print(json.dumps(d, indent=1, sort_keys=True))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
