# SPDX-License-Identifier: GPL-2.0
# The workload of the XIP profile round trip (tests/guest-profile.sh): a
# shell and a fixed set of BusyBox applets over the image's own files. It
# lies in the image as /etc/workload.sh; the guest sources it from the
# image's shell. The host runs it with its own tools for the expected output.
#   BB: how to run an applet (default the image's BusyBox); DIR: the image
b=${BB-/mnt/bin/busybox}
d=${DIR:-/mnt}
$b echo workload
$b ls "$d/etc"
$b wc -l < "$d/etc/numbers.txt"
$b sort -rn "$d/etc/numbers.txt" | $b head -n 2
$b grep -c 7 "$d/etc/numbers.txt"
$b md5sum < "$d/etc/numbers.txt"
$b awk '{ s += $1 } END { print s }' "$d/etc/numbers.txt"
$b sed -n 's/^1\(2*\)3$/\1/p' "$d/etc/numbers.txt" | $b tail -n 1
