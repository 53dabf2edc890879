# SPDX-License-Identifier: GPL-2.0
# Helpers of both profile boots (tests/guest/profile-*/): in the guest as
# /images/profile/lib.sh.

# The workload from the image's shell, then the smaps of that shell and of
# one of its applets (cat), for text_rss.
workload() {
	/mnt/bin/busybox sh -c '. /mnt/etc/workload.sh
		/mnt/bin/busybox cat /proc/$$/smaps > /tmp/sh.smaps
		/mnt/bin/busybox cat /proc/self/smaps > /tmp/cat.smaps' > /tmp/workload.out 2>&1
}

# text_rss SMAPS: kB of the image's BusyBox text in RAM in that process.
text_rss() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { on = $2 ~ /x/ && $6 == "/mnt/bin/busybox" }
		on && /^Rss:/ { s += $2 } END { print s + 0 }' "$1"
}
