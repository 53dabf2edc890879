# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest runners: wait for a QEMU guest whose console goes to a
# file. The boot ends when QEMU exits, when the console shows END_PATTERN
# (grep -E; default: the guest's GUEST-DONE, after which it may hang on its way
# down), or at the timeout (a guest that hangs); QEMU is stopped then.
#   guest_wait QEMU_PID CONSOLE TIMEOUT_S [END_PATTERN]
# A runner stopped while it waits (Ctrl-C, kill, a closed terminal) stops its
# QEMU too: a guest that halts instead of powering off would run on forever.

_guest_qemu=
trap '[ -z "$_guest_qemu" ] || kill "$_guest_qemu" 2>/dev/null' EXIT

guest_wait() {
	local pid=$1 console=$2 t=$3 end=${4:-^GUEST-DONE} deadline=$((SECONDS + $3))

	_guest_qemu=$pid
	while kill -0 "$pid" 2>/dev/null; do
		grep -Eq "$end" "$console" 2>/dev/null && { sleep 1; break; }
		[ $SECONDS -lt $deadline ] || { log "guest timed out after ${t}s: $console"; break; }
		sleep 1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	_guest_qemu=
}
