#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sync_mutants.py - the driver's cache maintenance, one call at a time
mutated (tests/hw-emu/run-sync-mutants).

  sync_mutants.py list FILE...       one line per mutant: FILE:LINE:KIND:CALL
  sync_mutants.py make FILE LINE KIND OUT
                                     FILE with that call deleted (KIND
                                     "delete") or its direction turned
                                     (KIND "flip"), written to OUT

The calls: every dma_sync_single_for_device()/_for_cpu() (in npukit_job.c
the ones inside its wrappers npukit_sync_for_device()/_for_cpu(), whose
deletion deletes every call site's at once) and every call of those
wrappers. A flip turns TO_DEVICE into FROM_DEVICE and FROM_DEVICE or
BIDIRECTIONAL into TO_DEVICE, the wrong direction for the buffer either
way; a call whose direction is not written at the call (the wrappers'
inner calls pass theirs on) has no flip.
"""
import re
import sys

CALL = re.compile(r"\b(dma_sync_single_for_(?:device|cpu)|npukit_sync_for_(?:device|cpu))\s*\(")
FLIP = {"DMA_TO_DEVICE": "DMA_FROM_DEVICE", "DMA_FROM_DEVICE": "DMA_TO_DEVICE",
        "DMA_BIDIRECTIONAL": "DMA_TO_DEVICE"}


def calls(text):
    """(offset of the name, offset past the closing parenthesis, name, line)"""
    out = []
    for m in CALL.finditer(text):
        # a definition or declaration, not a call
        head = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if re.search(r"\b(void|static)\b", head):
            continue
        depth, i = 0, m.end() - 1
        while True:
            c = text[i]
            depth += c == "("
            depth -= c == ")"
            i += 1
            if not depth:
                break
        out.append((m.start(), i, m.group(1), text.count("\n", 0, m.start()) + 1))
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        for path in sys.argv[2:]:
            text = open(path).read()
            for start, end, name, line in calls(text):
                print("%s:%d:delete:%s" % (path, line, name))
                if len(re.findall(r"DMA_(?:TO_DEVICE|FROM_DEVICE|BIDIRECTIONAL)",
                                  text[start:end])) == 1:
                    print("%s:%d:flip:%s" % (path, line, name))
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "make":
        path, line, kind, out = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
        text = open(path).read()
        hit = [c for c in calls(text) if c[3] == line]
        if len(hit) != 1:
            sys.exit("sync_mutants.py: no one call at %s:%d" % (path, line))
        start, end, name, _ = hit[0]
        call = text[start:end]
        if kind == "delete":
            new = "((void)0)"
        else:
            dirs = re.findall(r"DMA_(?:TO_DEVICE|FROM_DEVICE|BIDIRECTIONAL)", call)
            if len(dirs) != 1:
                sys.exit("sync_mutants.py: %s:%d: no one direction to flip" % (path, line))
            new = call.replace(dirs[0], FLIP[dirs[0]])
        open(out, "w").write(text[:start] + new + text[end:])
        return 0
    sys.exit(__doc__)


sys.exit(main())
