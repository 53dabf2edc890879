# SPDX-License-Identifier: GPL-2.0
# checks: 3
# Stress: readers, mappers, forkers and BusyBox runs over the same files at once,
# with the page cache dropped under them; contents verified throughout.
STRESS_SECONDS=${STRESS_SECONDS:-10}
mount -t cramfs mtd:fs_partition /mnt
rm -f /tmp/stress.fail /tmp/stress.count /tmp/stress.ends
end=$(($(cut -d. -f1 /proc/uptime) + STRESS_SECONDS))
alive() { [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; }
worker() {	# worker NAME CMD...: run CMD until time is up; note each failure
	n=0
	while alive; do
		"$@" > /dev/null 2>&1 || echo "$1 $2 $3" >> /tmp/stress.fail
		n=$((n + 1))
	done
	echo "$n" >> /tmp/stress.count
	echo "$(cut -d' ' -f1 /proc/uptime) $n $1 $2 $3" >> /tmp/stress.ends
}
pids=
# xiptest cmp reads each file with read() and with mmap() and compares both
# with the reference (BusyBox's cmp, a byte at a time, took a minute for
# BusyBox with the others running: the stress's tail, not more stress).
for f in data/xip-partial.bin bin/busybox data/compressed.txt bin/xiptest; do
	worker xiptest cmp /mnt/$f /images/xip-ref/$f &
	pids="$pids $!"
done
worker xiptest fork /mnt/bin/busybox &
pids="$pids $!"
worker xiptest cow /mnt/data/xip-partial.bin &
pids="$pids $!"
worker /mnt/bin/busybox true &
pids="$pids $!"
# A file held open all along: the unmounts below must be refused, whatever
# the workers are doing at that moment.
exec 3< /mnt/data/compressed.txt
busy_refused=1
while alive; do
	echo 3 > /proc/sys/vm/drop_caches
	umount /mnt 2> /dev/null && busy_refused=0
	sleep 1
done
wait $pids
exec 3<&-
runs=$(awk '{ s += $1 } END { print s }' /tmp/stress.count)
check "stress: $runs operations by $(wc -l < /tmp/stress.count) workers in ${STRESS_SECONDS}s, none failed" \
	test ! -s /tmp/stress.fail
[ -s /tmp/stress.fail ] && sort /tmp/stress.fail | uniq -c | head -n 5 | sed 's/^/    | /'
# When each worker ended (seconds since boot; time was up at $end), and how many runs.
echo "stress: time up at $end; workers ended:"
sort -n /tmp/stress.ends | sed 's/^/    | /'
check "stress: unmount refused while busy" test $busy_refused = 1
check "stress: unmount once idle" umount /mnt
