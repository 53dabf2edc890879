# SPDX-License-Identifier: GPL-2.0
# Applets the profile workload (profile-workload.sh) does not run: after the
# round trip most of their code is compressed in the image, and they must
# still run right, from the page cache. Run as profile-workload.sh is.
b=${BB-/mnt/bin/busybox}
d=${DIR:-/mnt}
$b sha256sum < "$d/etc/numbers.txt"
$b tr 0-9 a-j < "$d/etc/numbers.txt" | $b tail -n 3
$b expr 6 '*' 7
$b cut -c 2- "$d/etc/numbers.txt" | $b uniq | $b tail -n 2
$b basename /a/b/c.txt .txt
$b cmp "$d/etc/numbers.txt" "$d/etc/numbers.txt" && $b echo same
