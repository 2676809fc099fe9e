#!/bin/sh
# SPDX-License-Identifier: MIT
# run_kselftest.sh [OPTIONS]: the kernel's own runner, installed beside this
# script as run_kselftest.kernel.sh by `make kselftest-install`, with an exit
# status that says how the run went. The kernel's runner (5.10 to 6.12)
# prints KTAP and exits 0 even when a test fails; this wrapper passes the
# options and the output through unchanged and exits 1 when any test
# reported "not ok" (or the runner itself failed).
# The board's acceptance run: NPUKIT_REQUIRE_DEVICE=1 ./run_kselftest.sh,
# where a test that would SKIP for want of an NpuKit node fails instead.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
rcfile=$(mktemp "${TMPDIR:-/tmp}/run_kselftest.XXXXXX") || exit 1
trap 'rm -f "$rcfile"' EXIT
{
	"$here/run_kselftest.kernel.sh" "$@"
	echo $? >"$rcfile"
} | awk '{ print; fflush() } /^not ok [0-9]+ selftests: / { bad++ } END { exit (bad ? 1 : 0) }'
failed=$?
rc=$(cat "$rcfile")
if [ "$rc" != 0 ]; then
	echo "run_kselftest.sh: the kernel's runner exited $rc" >&2
	exit "$rc"
fi
if [ "$failed" != 0 ]; then
	echo "run_kselftest.sh: some tests failed (the \"not ok\" lines above)" >&2
	exit 1
fi
exit 0
