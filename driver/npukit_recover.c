// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_recover.c - after a fault: prove the device clean, or fail it
 *
 * A batch that stopped on a fault (DMA error, hang, deadline, signal) can
 * leave the NpuKit in a state no register says anything about: a run
 * still going, a C stream half sent (hardware.rst 8.5: only a PL reset
 * clears it), a tile half loaded. Resetting the DMA and hoping is not
 * enough: a stale C stream answers the next batch's read-back with the
 * previous batch's tile, and the next batch "succeeds" with wrong numbers.
 *
 * So after every failed batch npukit_recover() resets the DMA, drains a C
 * stream it knows was started, and then runs one known-answer kick
 * (npukit_self_test()) whose C tile is compared bit for bit with what the
 * CPU computes. Only a device that passes it runs the next batch. A try
 * that fails is repeated, after a PL reset when the device tree gives the
 * NPU's reset line (the "resets" property: on the Zynq-7000 an FCLK reset
 * of the SLCR, served by drivers/reset/reset-zynq.c), or on the simulator,
 * whose model has one. When every try fails the device is marked failed:
 * every SUBMIT then fails with -EIO and %NPUKIT_STATUS_DEVICE_FAILED
 * without touching the hardware, until a recovery proves it clean again.
 *
 * A board owner gets the device back three ways. The driver retries the
 * recovery on its own, from a delayed work, after 100 ms and then twice as
 * long each time up to 30 s, %NPUKIT_RETRY_TRIES times (about 80 s in
 * all): a fault that goes away, a run that ends late, is then cleared
 * without anybody acting, and a device that stays failed stops being
 * pulled at. Root writes 1 to sysfs "reset" (or debugfs "reset"), which
 * recovers at once and says whether the device is now proven clean; or
 * unbinds and binds the driver (without a reset line, with the bitstream
 * reloaded in between). A KOBJ_CHANGE uevent with NPUKIT_STATE=failed
 * announces the failed state, and one with NPUKIT_STATE=ok its end.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/reset.h>
#include <linux/workqueue.h>

#include "npukit_dev.h"

/*
 * Tries of one recovery; every try after the first begins with a PL reset
 * when there is a line. Without one a later try still helps: a failed
 * known-answer kick has taken a stale C stream (TLAST ends it), so the
 * next one starts clean.
 */
#define NPUKIT_RECOVER_TRIES	3
/* FCLK resets are synchronous to the 100 MHz fabric clock: a few cycles */
#define NPUKIT_PL_RESET_US	1
/*
 * Automatic retries of a failed device: 100 ms, doubling up to 30 s, ten
 * of them (0.1 + 0.2 + ... + 25.6 + 30 s: about 80 s). Each runs the same
 * recovery a reset does, PL resets included; past the last one only root
 * (sysfs "reset") or a rebind brings the device back.
 */
#define NPUKIT_RETRY_FIRST_MS	100
#define NPUKIT_RETRY_MAX_MS	30000
#define NPUKIT_RETRY_TRIES	10

static bool npukit_has_pl_reset(struct npukit_device *nd)
{
	if (nd->backend)
		return nd->backend->has_reset_line(nd->backend_priv);
	return !!nd->pl_reset;
}

/* Reset the programmable logic: the NPU and its DMA, streams included. */
static int npukit_pl_reset(struct npukit_device *nd)
{
	int ret;

	if (nd->backend) {
		nd->backend->pl_reset(nd->backend_priv);
	} else {
		ret = reset_control_assert(nd->pl_reset);
		if (ret)
			return ret;
		udelay(NPUKIT_PL_RESET_US);
		ret = reset_control_deassert(nd->pl_reset);
		if (ret)
			return ret;
	}
	atomic64_inc(&nd->stats.pl_resets);
	/* nothing the protocol had started survives it */
	nd->hw.tx_pending = false;
	return 0;
}

/*
 * The known-answer kick: A from @seed, B a diagonal of small non-zero
 * weights, so C[i][j] = A[i][j] * d[j] is computed without a GEMM. A
 * different @seed each time: a stale stream from an earlier self-test can
 * never pass for this one's answer.
 */
static void npukit_self_test_tiles(u32 seed, s8 *a, s8 *b, s8 *d)
{
	unsigned int i, j;

	for (j = 0; j < NPUKIT_TILE_N; j++)
		d[j] = (s8)(((seed + j) % 7 + 1) * (j & 1 ? -1 : 1));
	for (i = 0; i < NPUKIT_TILE_ELEMS; i++)
		a[i] = (s8)((seed * 2654435761U + i * 97) >> 8);
	memset(b, 0, NPUKIT_TILE_ELEMS);
	for (j = 0; j < NPUKIT_TILE_N; j++)
		b[NPUKIT_TILE_N * j + j] = d[j];
}

/**
 * npukit_self_test - run one known-answer kick and check its C tile
 * @nd: the device, locked, with nothing of a batch in flight
 *
 * Uses the first tile of the TX buffer and the first C slot of the RX
 * buffer, which no batch needs between its chunks. The slot is poisoned
 * first, so a read-back that wrote nothing or only part of it fails.
 *
 * Return: 0 when the tile is exact; -EIO when it is not, or the errno of
 * the failed kick.
 */
int npukit_self_test(struct npukit_device *nd)
{
	static const struct npukit_hw_kick kick = {
		.ctrl = NPUKIT_CTRL_START | NPUKIT_CTRL_CLEAR,
		.read_c = true,
	};
	struct npukit_batch b = { .deadline_ns = U64_MAX, .recovery = true };
	u32 seed = (u32)(atomic64_read(&nd->stats.recoveries) +
			 atomic64_read(&nd->stats.self_test_failures));
	s8 *a = nd->tx, d[NPUKIT_TILE_N];
	const __le32 *c = nd->rx;
	unsigned int i;
	int ret;

	npukit_self_test_tiles(seed, a, a + NPUKIT_TILE_BYTES, d);
	memset(nd->rx, 0xa5, NPUKIT_C_BYTES);
	dma_sync_single_for_device(nd->dev, nd->tx_dma, NPUKIT_AB_BYTES,
				   DMA_TO_DEVICE);
	dma_sync_single_for_device(nd->dev, nd->rx_dma, NPUKIT_C_BYTES,
				   DMA_BIDIRECTIONAL);
	/* tile and poison are in memory before the writes start the DMA */
	wmb();
	ret = npukit_hw_run_chunk(nd, &b, &kick, 1);
	if (!ret)
		ret = npukit_hw_finish(nd, &b);
	if (ret) {
		dev_err_ratelimited(nd->dev, "self-test kick failed (%d, status %u)\n",
				    ret, b.status);
		goto fail;
	}
	/* the (relaxed) status read that saw S2MM finish comes first */
	rmb();
	dma_sync_single_for_cpu(nd->dev, nd->rx_dma, NPUKIT_C_BYTES,
				DMA_BIDIRECTIONAL);
	for (i = 0; i < NPUKIT_TILE_ELEMS; i++) {
		s32 want = a[i] * d[i % NPUKIT_TILE_N];

		if ((s32)le32_to_cpu(c[i]) != want) {
			dev_err_ratelimited(nd->dev, "self-test C[%u][%u] is %d, not %d\n",
					    i / NPUKIT_TILE_N, i % NPUKIT_TILE_N,
					    (s32)le32_to_cpu(c[i]), want);
			ret = -EIO;
			goto fail;
		}
	}
	return 0;
fail:
	atomic64_inc(&nd->stats.self_test_failures);
	return ret;
}

static int npukit_recover_try(struct npukit_device *nd, bool pl_reset)
{
	int ret;

	if (pl_reset) {
		ret = npukit_pl_reset(nd);
		if (ret) {
			dev_err(nd->dev, "PL reset failed: %d\n", ret);
			return ret;
		}
	}
	ret = npukit_dma_reset(nd);
	if (ret)
		return ret;
	if (nd->hw.tx_pending) {
		ret = npukit_drain_c(nd);
		if (ret) {
			dev_err_ratelimited(nd->dev, "C stream could not be drained\n");
			return ret;
		}
	}
	npukit_hw_restart(nd);
	ret = npukit_self_test(nd);
	if (ret)
		/* no state of the failed kick may leak into the next try */
		npukit_dma_reset(nd);
	return ret;
}

/* A KOBJ_CHANGE uevent on the node: NPUKIT_STATE=@state. Device locked. */
static void npukit_announce(struct npukit_device *nd, const char *state)
{
	char env[32];
	char *envp[2];

	if (!nd->announce)
		return;
	snprintf(env, sizeof(env), "NPUKIT_STATE=%s", state);
	envp[0] = env;
	envp[1] = NULL;
	kobject_uevent_env(&nd->misc.this_device->kobj, KOBJ_CHANGE, envp);
}

/* The wait before automatic retry @retries + 1 */
static unsigned long npukit_retry_delay(unsigned int retries)
{
	/* from the tenth on (100 ms << 9) it is the cap anyway */
	if (retries >= 9)
		return msecs_to_jiffies(NPUKIT_RETRY_MAX_MS);
	return msecs_to_jiffies(min(NPUKIT_RETRY_FIRST_MS << retries,
				    NPUKIT_RETRY_MAX_MS));
}

/* Enter or leave the failed state; device locked. */
static void npukit_set_failed(struct npukit_device *nd, bool failed)
{
	if (failed == nd->failed)
		return;
	WRITE_ONCE(nd->failed, failed);
	npukit_announce(nd, failed ? "failed" : "ok");
	if (!failed)
		return;
	/* not once the node is on its way out: nothing may queue it then */
	nd->retries = 0;
	if (!READ_ONCE(nd->gone))
		mod_delayed_work(system_wq, &nd->retry_work,
				 npukit_retry_delay(0));
}

/**
 * npukit_recover - bring the device back to a proven clean state
 * @nd: the device, locked
 *
 * After a failed batch, for a reset that root asks for (sysfs or debugfs
 * "reset"), and for the automatic retries of a failed device. Up to
 * %NPUKIT_RECOVER_TRIES tries; each after the first begins with a PL
 * reset, when there is a reset line. The accumulators are overwritten: no
 * batch's running sum survives a recovery.
 *
 * Return: 0 when the known-answer kick passed and @nd->failed was
 * cleared; -EIO when the device is now marked failed.
 */
int npukit_recover(struct npukit_device *nd)
{
	bool pl_reset = npukit_has_pl_reset(nd);
	unsigned int try;
	int ret = -EIO;

	atomic64_inc(&nd->stats.recoveries);
	for (try = 0; try < NPUKIT_RECOVER_TRIES; try++) {
		ret = npukit_recover_try(nd, try && pl_reset);
		if (!ret)
			break;
	}
	npukit_hw_restart(nd);
	if (!ret) {
		if (nd->failed)
			dev_info(nd->dev, "recovered: the known-answer kick passed, device usable again\n");
		npukit_set_failed(nd, false);
		return 0;
	}
	if (!nd->failed)
		dev_err(nd->dev, "device failed: recovery could not prove it clean; SUBMITs fail with EIO until a retry of the driver's, a write of 1 to sysfs \"reset\" or unbind/bind succeeds%s\n",
			pl_reset ? "" : " (no PL reset line: it may need the bitstream reloaded)");
	npukit_set_failed(nd, true);
	return -EIO;
}

/**
 * npukit_reset - recover on request (sysfs and debugfs "reset")
 * @nd: the device, unlocked
 *
 * Return: 0 when the device is proven clean, -EIO when it is failed,
 * -ENODEV when it was unbound, -EINTR when a signal came while waiting
 * for the device.
 */
int npukit_reset(struct npukit_device *nd)
{
	int ret;

	if (npukit_lock_interruptible(nd))
		return -EINTR;
	ret = READ_ONCE(nd->gone) ? -ENODEV : npukit_recover(nd);
	npukit_io_publish(nd);
	npukit_unlock_device(nd);
	return ret;
}

/*
 * An automatic retry. A kworker gets no signal, so the killable wait is
 * as long as the holder keeps the device: one sum of a batch, or a
 * recovery; a batch meets the failed state at its first chunk and lets
 * go at once.
 */
static void npukit_retry(struct work_struct *work)
{
	struct npukit_device *nd = container_of(to_delayed_work(work),
						struct npukit_device,
						retry_work);

	if (npukit_lock_killable(nd))
		return;
	if (READ_ONCE(nd->gone) || !nd->failed || !READ_ONCE(nd->auto_recover))
		goto unlock;
	nd->retries++;
	atomic64_inc(&nd->stats.recovery_retries);
	if (!npukit_recover(nd))
		goto unlock;
	if (nd->retries < NPUKIT_RETRY_TRIES)
		mod_delayed_work(system_wq, &nd->retry_work,
				 npukit_retry_delay(nd->retries));
	else
		dev_err(nd->dev, "still failed after %u automatic recoveries: write 1 to sysfs \"reset\" to try again\n",
			nd->retries);
unlock:
	npukit_io_publish(nd);
	npukit_unlock_device(nd);
}

static void npukit_stop_retries(void *data)
{
	struct npukit_device *nd = data;

	cancel_delayed_work_sync(&nd->retry_work);
}

/**
 * npukit_recover_init - set up the automatic retries, at probe
 * @nd: the device, with everything a recovery uses set up
 *
 * Before the first recovery can run: the retries are cancelled by a devm
 * action, so before any resource a retry uses is released, on unbind and
 * on a probe that fails after this.
 *
 * Return: 0, or -ENOMEM.
 */
int npukit_recover_init(struct npukit_device *nd)
{
	nd->auto_recover = true;
	INIT_DELAYED_WORK(&nd->retry_work, npukit_retry);
	return devm_add_action_or_reset(nd->dev, npukit_stop_retries, nd);
}

/**
 * npukit_announce_start - uevents from now on, at probe
 * @nd: the device, its node registered
 *
 * A device registered failed announces it at once, after the node's "add".
 */
void npukit_announce_start(struct npukit_device *nd)
{
	npukit_lock_device(nd);
	nd->announce = true;
	if (nd->failed)
		npukit_announce(nd, "failed");
	npukit_unlock_device(nd);
}

/**
 * npukit_announce_stop - no uevent, and no retry queued, from now on
 * @nd: the device, marked gone, its node about to be removed
 *
 * Waits for the holder of the device, if any: a batch's chunk on the
 * hardware, a recovery. Every later holder sees @nd->gone.
 */
void npukit_announce_stop(struct npukit_device *nd)
{
	npukit_lock_device(nd);
	nd->announce = false;
	npukit_unlock_device(nd);
}

/**
 * npukit_check_idle - the end-of-SUBMIT invariant: nothing in flight
 * @nd: the device, locked, about to be unlocked by a batch
 *
 * Every path of a batch confirms or recovers what it started before it
 * lets go of the device. Should one ever not, that is a driver bug: warn
 * once, and recover so that the next batch starts from a proven state.
 */
void npukit_check_idle(struct npukit_device *nd)
{
	if (WARN_ON_ONCE(!npukit_hw_idle(nd)))
		npukit_recover(nd);
}

/**
 * npukit_get_pl_reset - the optional PL reset line, at probe
 * @nd: the device
 *
 * Return: 0 (also without a line), or an errno such as -EPROBE_DEFER.
 */
int npukit_get_pl_reset(struct npukit_device *nd)
{
	nd->pl_reset = devm_reset_control_get_optional_exclusive(nd->dev, NULL);
	if (IS_ERR(nd->pl_reset))
		return dev_err_probe(nd->dev, PTR_ERR(nd->pl_reset),
				     "cannot get the PL reset line\n");
	return 0;
}
