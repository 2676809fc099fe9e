# SPDX-License-Identifier: MIT
"""run_or_die: how bench-board runs a tool, and how it stops when something
could not run (an answer that is wrong included): one line on stderr
naming it, exit status 1."""
import subprocess
import sys


def die(msg):
    sys.exit('bench-board: ' + msg)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode:
        sys.stderr.write(r.stderr.decode(errors='replace')[-2000:])
        die('failed: ' + ' '.join(cmd))
    return r
