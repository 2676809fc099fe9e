# SPDX-License-Identifier: MIT
"""qemu_count: one run of the armhf ttpu-run --serve under qemu-arm, every
executed block and system call logged into a FIFO that qtrace_count reads
with phase_table's table, and its counts read back by request (segment),
thread and phase."""
import json
import os
import subprocess
import sys
import threading

from phase_table import INHERIT, PHASES
from run_or_die import die

# qtrace_count's figures of a segment besides its counts.
SEGMENT_FIGURES = ('overlap', 'shared', 'syscalls', 'readbytes', 'writebytes')


def count_request(arm_run, qtrace, table, boundary, kick_loop, ttpb, request, engine,
                  device, work, passes='full', reader=None):
    """The served request's figures (segment()), the first's, the
    start-up's (everything before the first) and the response, with the
    response's passes in @passes (ttpu-run --passes).
    With @reader (the addresses of ttpu_run() and serve_reader_next()),
    --serve as it runs by default, its reader thread on: three requests,
    each counted from its ttpu_run() on the main thread and from its
    serve_reader_next() on the reader's (qtrace_count's thread 2)."""
    fifo = os.path.join(work, 'trace.fifo')
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    out = os.path.join(work, 'armhf-%s-%s.json' % (engine, passes))
    result = {}

    qargs = [qtrace, table, '%x' % boundary[0], boundary[1]]
    if reader:
        qargs = [qtrace, table, '%x' % reader[0], boundary[1], '%x' % reader[1]]
    copies = 3 if reader else 2

    def count():
        with open(fifo, 'rb') as f:
            r = subprocess.run(qargs, stdin=f, capture_output=True)
        result['rc'], result['out'], result['err'] = r.returncode, r.stdout, r.stderr

    t = threading.Thread(target=count)
    t.start()
    # Leave out the stand-in's kick loop (submit_on_cpu): the device's work.
    s, e = kick_loop
    dfilter = '0x0..0x%x,0x%x..0xffffffff' % (s - 1, e)
    # The request twice: the second is the one counted (what a server
    # pays per request once the program has run), the first is reported.
    twice = os.path.join(work, 'request-twice.ndjson')
    with open(request, 'rb') as rq, open(twice, 'wb') as t2:
        line = rq.read()
        t2.write(line * copies)
    env = dict(os.environ, TTPU_SERVE_THREADS='1')
    if reader:
        del env['TTPU_SERVE_THREADS']
        out = out.replace('.json', '-reader.json')
    with open(twice, 'rb') as rq, open(out, 'wb') as o:
        q = subprocess.run(['qemu-arm-static', '-cpu', 'cortex-a9',
                            '-d', 'in_asm,exec,nochain,strace', '-dfilter',
                            dfilter, '-D', fifo, arm_run, '--serve', '--engine', engine]
                           + (['--device', device] if engine == 'npukit' else [])
                           + (['--passes', passes] if passes != 'full' else []) + [ttpb],
                           stdin=rq, stdout=o,
                           stderr=subprocess.PIPE,
                           # Each request read and parsed on the main thread,
                           # where it is counted, not on --serve's reader
                           # thread beside the run before it: a request's
                           # phases as they are (e2e_stream() takes the
                           # reader's overlap from the model), unless @reader.
                           env=env)
    t.join()
    os.unlink(fifo)
    if q.returncode:
        sys.stderr.write(q.stderr.decode(errors='replace')[-2000:])
        die('armhf ttpu-run --serve --engine %s failed' % engine)
    if result['rc']:
        sys.stderr.write(result['err'].decode(errors='replace'))
        die('qtrace_count failed')
    seg, by_thread, extra = {}, {}, {}
    for line in result['out'].decode().split('\n'):
        f = line.split()
        if len(f) == 3 and f[0] in SEGMENT_FIGURES:
            extra.setdefault(int(f[1]), {})[f[0]] = int(f[2])
        elif line:
            sg, th, ph, n = map(int, f)
            seg.setdefault(sg, [0] * (len(PHASES) + 1))[ph] += n
            by_thread.setdefault(sg, [[0] * (len(PHASES) + 1) for _ in range(3)])
            by_thread[sg][th][ph] += n
    if 2 not in seg:
        die('not two requests in the trace (%s)' % engine)
    # A request starts in serve_reader.c: C library code is always after
    # a block with a phase (of its own thread), and this stays 0.
    for sg in (1, 2):
        if seg[sg][INHERIT]:
            die('%d instructions of a request have no phase' % seg[sg][INHERIT])
    with open(out, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if len(lines) != copies + 1 or any(x != lines[0] for x in lines[:copies]):
        die('armhf %s engine: not %d identical responses (%s)' % (engine, copies, out))
    json.loads(lines[0])
    with open(out, 'w', encoding='utf-8') as f:
        f.write(lines[0] + '\n')

    def segment(sg):
        """A request's counts by phase, by thread, and qtrace_count's
        figures of it."""
        fig = {k: extra.get(sg, {}).get(k, 0) for k in SEGMENT_FIGURES}
        fig.update(counts=seg[sg][1:], threads=[t[1:] for t in by_thread[sg]],
                   unphased=seg[sg][INHERIT])
        return fig
    # The start-up begins with the C library's own code, before any block
    # with a phase: its instructions are counted, unphased.
    return segment(2), segment(1), segment(0), out
