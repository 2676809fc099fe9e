# SPDX-License-Identifier: MIT
"""phase_table: which phase of a served request each instruction of the
armhf ttpu-run is charged to, as the table qtrace_count reads (one row
"START END PHASE" in hex, hex, decimal): by the object file a function
comes from (the link map), a few functions by name, static helpers by
the innermost function of their inline chain (addr2line). C library code
is charged to the phase of the block before it (INHERIT). Phases:

  inputs        the request's line read and its inputs parsed and freed
                (cli/serve*.c, program_inputs.c, request.c, text_*.c,
                json-c)
  range checks  run_range.c, run_replay*.c (the host chains' products
                fused with their checks), the reference link product, the
                runner's range bounds (run_host.c's window maxima)
  kick grouping the NpuKit engine's grouping of a stage's jobs into kicks
  packing       operands into kicks and results out of them (NpuKit);
                the operand copies (software engine)
  run           everything else of ttpu_run(): the plan's walk, the
                software engine's products, the acc and epilogue adds,
                the SUBMIT calls
  response      the response rendered and written
  program code  the loader's and the program's own functions
  device        the stand-in's ioctl(): the device's share, not the host's
"""
import os
import re

from run_or_die import die, run

PHASES = ('inputs', 'range checks', 'kick grouping', 'packing', 'run',
          'response', 'device', 'program code')
INHERIT = 0
INPUTS, RANGE, GROUPING, PACKING, RUN, RESPONSE, DEVICE, LOAD = range(1, 9)
# qtrace_count.c knows two of them by number (SHARED_PHASE, DEVICE_PHASE).
assert (RANGE, DEVICE) == (2, 7)
INPUT_OBJS = {'serve.o', 'serve_reader.o', 'program_inputs.o', 'request.o', 'text_json_stream.o',
              'text_json_int_list.o', 'text_json_int_list_direct.o', 'text_utf8.o',
              'text_read.o'}
RANGE_OBJS = {'run_range.o', 'run_range_neon.o', 'run_replay.o', 'run_replay_neon.o',
              'engine_link_product.o', 'run_split.o'}
RESPONSE_OBJS = {'response.o', 'response_passes.o', 'sink.o', 'report.o'}
RUN_OBJS = {'run.o', 'run_host.o', 'run_prepare.o', 'engine.o', 'engine_npukit.o',
            'engine_software.o', 'engine_software_neon.o', 'engine_software_walks.o',
            'engine_npukit_worker.o', 'plan.o', 'util.o'}
GROUPING_OBJS = {'engine_npukit_groups.o'}
PACKING_OBJS = {'engine_npukit_pack.o'}
# Functions of a file that are another phase than the file's.
FUNCTION_PHASE = {
    'run_host.o': {'ttpu_host_window_maxabs': RANGE},
    'engine_npukit.o': {'collect': PACKING},
    'engine_software.o': {'pack': PACKING},
}


def object_of(path):
    m = re.search(r'\(([^)]+)\)$', path)
    return m.group(1) if m else os.path.basename(path)


def text_ranges(map_path):
    """[(start, end, object basename)] of every .text input section."""
    out = []
    pending = None
    for line in open(map_path, encoding='utf-8', errors='replace'):
        f = line.split()
        if pending and len(f) == 3 and f[0].startswith('0x'):
            f = [pending] + f
        pending = None
        if len(f) == 1 and f[0].startswith('.text'):
            pending = f[0]
            continue
        if len(f) == 4 and f[0].startswith('.text') and f[1].startswith('0x') \
                and f[2].startswith('0x'):
            start, size = int(f[1], 16), int(f[2], 16)
            if size:
                out.append((start, start + size, object_of(f[3])))
    out.sort()
    return out


def inlined_phases(binary, start, end, obj, phase):
    """Rows for function [start, end) of @obj, each halfword address charged
    to the innermost function of its inline chain that FUNCTION_PHASE
    names (static helpers are inlined into their callers)."""
    addrs = ['0x%x' % a for a in range(start, end, 2)]
    out = run(['arm-linux-gnueabihf-addr2line', '-a', '-f', '-i', '-e', binary] + addrs,
              ).stdout.decode().split('\n')
    names = {}
    cur = None
    for line in out:
        if re.fullmatch(r'0x[0-9a-f]+', line):
            cur = int(line, 16)
            names[cur] = []
        elif cur is not None and line and not line.startswith(('/', '??:')) and ':' not in line:
            names[cur].append(line.split('.')[0])
    rows, run_start, run_phase = [], start, None
    for a in range(start, end, 2):
        ph = phase
        for fn in names.get(a, []):
            if fn in FUNCTION_PHASE[obj]:
                ph = FUNCTION_PHASE[obj][fn]
                break
        if ph != run_phase:
            if run_phase is not None:
                rows.append('%x %x %d\n' % (run_start, a, run_phase))
            run_start, run_phase = a, ph
    rows.append('%x %x %d\n' % (run_start, end, run_phase))
    return rows


def phase_table(binary, path):
    """Write QTRACE's table; return ((boundary address, the C library's
    start_thread, pthread_create and pthread_join), device range)."""
    ranges = text_ranges(binary + '.map')
    nm = run(['arm-linux-gnueabihf-nm', '-S', '--defined-only', binary]).stdout.decode()
    rows, boundary, device, threads = [], None, [], {}
    for line in nm.split('\n'):
        f = line.split()
        if len(f) != 4 or f[2] not in 'tTwW':
            continue
        start, size, name = int(f[0], 16) & ~1, int(f[1], 16), f[3].split('.')[0]
        if not size:
            continue
        obj = None
        for s, e, o in ranges:
            if s <= start < e:
                obj = o
                break
        if name == 'serve_reader_next':
            boundary = start
        if name in ('start_thread', 'pthread_create', 'pthread_join'):
            threads[name] = start
        if obj == 'standin_device.o':
            device.append((start, start + size))
        phase = FUNCTION_PHASE.get(obj, {}).get(name)
        if phase is None:
            if obj in INPUT_OBJS or (obj or '').startswith(('json_', 'arraylist', 'linkhash',
                                                             'printbuf', 'random_seed',
                                                             'strerror_override', 'debug.o')):
                phase = INPUTS
            elif obj in RANGE_OBJS:
                phase = RANGE
            elif obj in RESPONSE_OBJS:
                phase = RESPONSE
            elif obj in RUN_OBJS:
                phase = RUN
            elif obj in GROUPING_OBJS:
                phase = GROUPING
            elif obj in PACKING_OBJS:
                phase = PACKING
            elif obj == 'standin_device.o':
                phase = DEVICE
            elif obj and obj.startswith(('program', 'plan')):
                phase = LOAD
            else:
                phase = INHERIT
        if obj in FUNCTION_PHASE:
            rows += inlined_phases(binary, start, start + size, obj, phase)
        else:
            rows.append('%x %x %d\n' % (start, start + size, phase))
    if boundary is None or not device or len(threads) != 3:
        die('%s: no serve_reader_next, stand-in device, start_thread, pthread_create '
            'or pthread_join' % binary)
    with open(path, 'w', encoding='utf-8') as f:
        f.writelines(rows)
    return (boundary, '%x,%x,%x' % (threads['start_thread'], threads['pthread_create'],
                                    threads['pthread_join'])), device
