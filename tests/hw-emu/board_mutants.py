#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""board_mutants.py - deliberate bugs in the driver's hardware branch, one
at a time (tests/hw-emu/run-board-mutants).

  board_mutants.py list              one line per mutant: NAME:FILE
  board_mutants.py make NAME OUT     FILE with NAME's bug, written to OUT
  board_mutants.py what NAME         the bug, in words

Each is an exact text replaced in one file of driver/ (the text must be
there once: a driver that changed under the table fails loudly instead
of testing nothing). They are the board path's own steps, each of which
a driver could plausibly get wrong and the simulated instance would
never show: the accessors' offsets and mappings, the barrier of the
ordering read, the clock, the resources, the interrupt request and
handler, the PL reset line, the wait for the DMA's reset.
"""
import sys

READ_NPU = "\t\tval = readl_relaxed(nd->npu + off);\n"
WRITE_DMA = "\t\twritel_relaxed(val, nd->dma + off);\n"
BARRIER = ("\t\t(void)readl_relaxed(nd->npu + off);\n"
           "\t\t/* the read before any later access to another slave: above */\n"
           "\t\tmb();\n")
REQUEST = ("\t\tret = devm_request_irq(nd->dev, irq, npukit_irq_handler,\n"
           "\t\t\t\t       IRQF_SHARED, dev_name(nd->dev), line);\n")
DMA_RESET = ("\tseq = npukit_dma_write(nd, NPUKIT_MM2S_DMACR, NPUKIT_DMACR_RESET);\n"
             "\tt0 = npukit_now_ns(nd);\n"
             "\tfor (;;) {\n")

# name: (file, text, replacement, what)
MUTANTS = {
    "npu-read-offset": (
        "driver/npukit_dev.h", READ_NPU, READ_NPU.replace("off)", "off + 4)"),
        "npukit_io_read() reads the NPU one register further on"),
    "dma-write-mapping": (
        "driver/npukit_dev.h", WRITE_DMA, WRITE_DMA.replace("nd->dma", "nd->npu"),
        "npukit_io_write() writes the DMA's registers through the NPU's mapping"),
    "ordering-read-no-barrier": (
        "driver/npukit_dev.h", BARRIER, BARRIER.split("\t\t/*")[0],
        "npukit_npu_read_wait() without its mb(): a relaxed read the CPU does not wait for"),
    "clock-not-enabled": (
        "driver/npukit_drv.c", "\treturn devm_clk_get_optional_enabled(dev, id);\n",
        "\treturn devm_clk_get_optional(dev, id);\n",
        "the fabric clock is got but not enabled"),
    "npu-resource-index": (
        "driver/npukit_drv.c", "\tnd->npu = devm_platform_ioremap_resource(pdev, 0);\n",
        "\tnd->npu = devm_platform_ioremap_resource(pdev, 1);\n",
        "the NPU's registers mapped from reg[1]"),
    "dma-resource-index": (
        "driver/npukit_drv.c", "\tnd->dma = devm_platform_ioremap_resource(pdev, 1);\n",
        "\tnd->dma = devm_platform_ioremap_resource(pdev, 0);\n",
        "the DMA's registers mapped from reg[0]"),
    "irq-lookup-error-ignored": (
        "driver/npukit_irq.c", "\t\tif (irq == -ENXIO)\n", "\t\tif (irq < 0)\n",
        "an interrupt whose lookup failed (-EPROBE_DEFER) is taken as none"),
    "irq-not-requested": (
        "driver/npukit_irq.c", REQUEST, "\t\tret = 0;\n",
        "the interrupt is counted as the driver's but never requested"),
    "irq-not-shared": (
        "driver/npukit_irq.c", REQUEST, REQUEST.replace("IRQF_SHARED", "0"),
        "the interrupt requested without IRQF_SHARED"),
    "irq-not-acked": (
        "driver/npukit_irq.c", "\t\tnpukit_irq_wr(nd, off, ack);\n", "",
        "the handler claims the interrupt without acking DMASR"),
    "irq-ack-not-pushed": (
        "driver/npukit_irq.c", "\tnpukit_irq_rd(nd, last);\n", "",
        "the handler returns before its posted ack has reached the DMA"),
    "reset-not-asserted": (
        "driver/npukit_recover.c", "\t\tret = reset_control_assert(nd->pl_reset);\n",
        "\t\tret = 0;\n", "recovery's PL reset never asserts the line"),
    "reset-not-deasserted": (
        "driver/npukit_recover.c", "\t\tret = reset_control_deassert(nd->pl_reset);\n",
        "\t\tret = 0;\n", "recovery's PL reset leaves the line asserted"),
    "dma-reset-not-awaited": (
        "driver/npukit_hw_setup.c", DMA_RESET, DMA_RESET.replace("for (;;)", "for (; 0;)"),
        "npukit_dma_reset() sets RS without waiting for the reset to end"),
}


def main():
    args = sys.argv[1:]
    if args == ["list"]:
        for name, (path, _, _, _) in MUTANTS.items():
            print("%s:%s" % (name, path))
        return 0
    if len(args) == 2 and args[0] == "what" and args[1] in MUTANTS:
        print(MUTANTS[args[1]][3])
        return 0
    if len(args) == 3 and args[0] == "make" and args[1] in MUTANTS:
        path, old, new, _ = MUTANTS[args[1]]
        text = open(path).read()
        if text.count(old) != 1:
            sys.exit("board_mutants.py: %s: the text of %s is there %d times, not once"
                     % (path, args[1], text.count(old)))
        open(args[2], "w").write(text.replace(old, new))
        return 0
    sys.exit(__doc__)


sys.exit(main())
