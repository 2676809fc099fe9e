# SPDX-License-Identifier: MIT
"""board_model: bench-board's figures on the board-time model
(Documentation/npukit/board-time.rst), from what run-bench-board counted
and simulated: milliseconds, the kernel's share, end to end on two cores,
a stream of requests, the start-up, the calibrated readings. Arithmetic
only: nothing here runs anything.

Host instructions are what the A9 retires; milliseconds are at the
board-time model's rate, 0.75 instructions a cycle at 650 MHz (487.5 M/s),
and at 0.5 and 1.0 (Documentation/npukit/board-time.rst).

The kernel. qemu-arm's strace log gives every system call of the request
(qtrace_count counts them in the request they fall in) and the bytes
write() returned; a request's line is read() once whatever read brings
its last bytes, so its length is taken. The kernel's share is 1.5 us a
system call and 0.5 ns a byte copied (0.25-1.5: the model's cpu_syscall_ps
and cpu_copy_ps, board-time.rst, "The CPU's share"); it is on the main
thread's path (the read before the parse, the write after the run). The
stand-in's ioctl() is no system call: the SUBMITs' are the driver's, in D.
Page faults and the kernel's zeroing of new pages are not in it.

End to end is the critical path of Documentation/npukit/board-time.rst
("Two cores"): qemu-arm runs each thread as its own guest CPU, so every
instruction is charged to the main thread or the run's worker thread.
With S the main thread's instructions outside the range checks, W the
worker's (the engine's stage work: packing, SUBMITs, the software
engine's products), R the range checks' on both threads (the host
chains' fused replays, shared through one index), D and B the driver's
and the bus's model time, K the kernel's: S + W + R + D + B + K - R_w / 2
- O. Both terms come from the program's structure, not from the order
qemu happened to run the threads in (qtrace_count): each pthread_create()
of the main thread opens a window that its next pthread_join() closes.
R_w is the replays inside windows where any replay ran (the main
thread's inside the window and the thread's own): two cores share those
through one index, so half is taken off; replays before a thread starts
or after its join are serial and count in full. O adds, for every other
window, min(M, W) with M the main thread's instructions in the window
and W the thread's own, since two cores do M and W in max(M, W); the
software engine shares a stage's products that way, and the NpuKit
engine packs a chunk beside the SUBMIT of the one before, taken off only
up to the worker's own instructions, never against D + B, which count in
full. Each stage takes at most its engine work plus half its replays, so
the sum over stages bounds the request's. Never below D + B + K.
"""
from phase_table import DEVICE, INPUTS, RANGE

A9_HZ = 650e6
# The kernel's share of a request's own system calls (read() of its line,
# write() of its response, the threads' futex and clone calls), at the
# board model's constants (Documentation/npukit/board-time.rst, "The CPU's
# share": cpu_syscall_ps 1.5 us; cpu_copy_ps 0.5 ns a byte, 0.25-1.5).
SYSCALL_US = 1.5
COPY_NS, COPY_NS_LOW, COPY_NS_HIGH = 0.5, 0.25, 1.5
# The model's calibration against NpuKit's one board measurement
# (board-time.rst, "Calibration"): every figure x2.37, or 5.8 us more a
# system call.
CAL_X, CAL_SYSCALL_US = 2.37, 5.8
IPC, IPC_LOW, IPC_HIGH = 0.75, 0.5, 1.0


def ms(instr, ipc=IPC):
    return instr / (ipc * A9_HZ) * 1e3


def host(counts):
    return sum(counts) - counts[DEVICE - 1]


def split(si):
    """(S, W, R) of a request @si: the main thread's instructions outside
    the range checks (and --serve's reader thread's, when it ran: a lone
    request's line is read and parsed before its run can start), the
    worker thread's outside them, the range checks' on both (the device's
    own left out)."""
    main, worker, reader = si['threads']
    r = main[RANGE - 1] + worker[RANGE - 1]
    s = host(main) - main[RANGE - 1] + host(reader)
    w = host(worker) - worker[RANGE - 1]
    return s, w, r


def kernel_bytes(res, si):
    """Bytes a request moves through read() and write(): its response as
    written (counted), its line as read (the line's length: --serve reads
    in chunks, so which request's read() brings a line's last bytes is
    the buffer's business, while every byte of it is read once)."""
    return si['writebytes'] + res['line_bytes']


def kernel_ms(res, si, copy_ns=COPY_NS):
    """The kernel's share of a request's own system calls, modelled."""
    return (si['syscalls'] * SYSCALL_US * 1e3 + kernel_bytes(res, si) * copy_ns) / 1e6


def e2e(res, engine, si=None):
    """The critical path of Documentation/npukit/board-time.rst, "Two
    cores", plus the kernel's share of the request's system calls, which
    are on the main thread's path (the line's read() before the parse,
    the response's write() after the run). Everything in series, less
    what two cores did side by side inside a pthread_create() to
    pthread_join() window (qtrace_count): half of the replays shared
    through one index in a window where any ran (the serial ones before
    a thread starts and after its join are taken in full), and min(M, W)
    of every other window. Never less than D + B + the kernel's share."""
    si = si or res[engine]
    s, w, r = split(si)
    dev = res['driver_ms'] + res['bus_ms'] if engine == 'npukit' else 0
    k = kernel_ms(res, si)
    return max(ms(s) + ms(w) + ms(r) - ms(si['shared']) / 2 - ms(si['overlap']) + dev + k,
               dev + k)


def e2e_stream(res, engine, si=None):
    """A served request's share of a steady stream (Documentation/npukit/
    board-time.rst, "A stream of requests"): --serve parses the next
    request on a third thread while one runs, so its inputs I leave the
    critical path, which becomes E - I; the two cores must still do all
    of the request's host work, the driver's CPU work and the kernel's,
    (H + D + K) / 2; and the reader must parse each request, I. The
    largest of the three, with the reader taking what the run leaves of
    the two cores."""
    si = si or res[engine]
    i = ms(si['threads'][0][INPUTS - 1] + si['threads'][2][INPUTS - 1])
    d = res['driver_ms'] if engine == 'npukit' else 0
    return max(e2e(res, engine, si) - i, (ms(host(si['counts'])) + d + kernel_ms(res, si)) / 2, i)


def startup_host(si):
    """The start-up's instructions: every phase's, the C library's own
    before main() (unphased) included, the stand-in device's left out."""
    return sum(si['counts']) + si['unphased'] - si['counts'][DEVICE - 1]


def startup_ms(res, engine):
    """--serve's start-up on the model: one thread (loading, opening the
    engine and ttpu_program_prepare() start no other), so its counted
    instructions at the model's rate and the kernel's share of its system
    calls and of the bytes they read and wrote, in series."""
    si = res[engine + '-startup']
    k = (si['syscalls'] * SYSCALL_US * 1e3
         + (si['readbytes'] + si['writebytes']) * COPY_NS) / 1e6
    return ms(startup_host(si)) + k


def calibrated(res, engine, si=None):
    """E read through the calibration: x2.37, and +5.8 us a system call
    (the request's own and the driver's SUBMITs)."""
    si = si or res[engine]
    calls = si['syscalls'] + (res['submits'] if engine == 'npukit' else 0)
    e = e2e(res, engine, si)
    return e * CAL_X, e + calls * CAL_SYSCALL_US / 1e3
