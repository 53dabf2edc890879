# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest runners: wait for a QEMU guest whose console goes to a
# file. The boot ends when QEMU exits, when the console shows END_PATTERN
# (grep -E; default: the guest's GUEST-DONE, after which it may hang on its way
# down), or at the timeout (a guest that hangs); QEMU is stopped then.
#   guest_wait QEMU_PID CONSOLE TIMEOUT_S [END_PATTERN]

guest_wait() {
	local pid=$1 console=$2 t=$3 end=${4:-^GUEST-DONE} deadline=$((SECONDS + $3))

	while kill -0 "$pid" 2>/dev/null; do
		grep -Eq "$end" "$console" 2>/dev/null && { sleep 1; break; }
		[ $SECONDS -lt $deadline ] || { log "guest timed out after ${t}s: $console"; break; }
		sleep 1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
