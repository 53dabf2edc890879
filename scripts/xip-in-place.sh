#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What runs in place now from a cramfs_xip mount, worked out in user space
# (the module keeps no account of live mappings): for each process's
# mapping of a file on MOUNT, the pages of its range that the image stores
# in place (FIEMAP: plain extents, neither encoded nor not_aligned, which
# cramfs_xip maps from flash), then the RAM they save: each image page once,
# however many mappings share it, as the page cache would have held it.
# Writable mappings count none (cramfs_xip maps them from the page cache),
# nor would a process's that was being traced when it mapped its files.
#   xip-in-place.sh MOUNT
# Prints a line per mapping, "PID PERMS FILE PAGES-IN-PLACE of PAGES", then
# "pages_in_place N" (summed over the mappings) and "saved_kb N". MOUNT (or
# a directory under it) must be on a cramfs_xip mount: elsewhere FIEMAP's
# plain extents are no pages in place. Runs under BusyBox sh; needs filefrag
# (e2fsprogs) and, for other users' processes, root.
set -u
mounts=/proc/mounts
module_sysfs=/sys/fs/cramfs_xip
usage="usage: xip-in-place.sh MOUNT"
case ${1-} in
-h | --help)
	echo "$usage"
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
	exit 0
	;;
esac
[ $# -eq 1 ] || { printf '%s\n(xip-in-place.sh --help says more)\n' "$usage" >&2; exit 2; }
fail() { echo "xip-in-place.sh: $1: $2" >&2; exit 1; }
[ -e "$1" ] || fail "$1" "no such file or directory"
[ -d "$1" ] || fail "$1" "not a directory: give the mount point"
mnt=$(cd "$1" && pwd -P) || fail "$1" "cannot enter it"
# The filesystem it is on: the longest mount point it lies under, the last
# mounted there (mount points in $mounts escape a space as \040 and so on).
fstype=$(awk -v p="$mnt" '{
		m = $2
		gsub(/\\040/, " ", m); gsub(/\\011/, "\t", m); gsub(/\\012/, "\n", m)
		gsub(/\\134/, "\\", m)
	}
	(m == "/" || m == p || index(p, m "/") == 1) && length(m) >= best { best = length(m); t = $3 }
	END { print t }' "$mounts")
[ "$fstype" = cramfs ] || fail "$1" "on ${fstype:-no mount listed in $mounts}, not on a cramfs_xip mount"
# Mainline cramfs is "cramfs" too; the module's directory is only there while it is loaded.
[ -d "$module_sysfs" ] || fail "$1" "on a cramfs mount, but not cramfs_xip's (no $module_sysfs)"
mnt=${mnt%/}
tmp=${TMPDIR:-/tmp}/xip-in-place.$$
trap 'rm -f "$tmp".*' EXIT
: > "$tmp.maps"
# Each mapping of a file under MOUNT: "PID FILE FIRST-PAGE PAGES PERMS".
for m in /proc/[0-9]*/maps; do
	pid=${m#/proc/}
	pid=${pid%/maps}
	awk -v pid="$pid" -v mnt="$mnt/" 'index($6, mnt) == 1 && NF == 6 {
		split($1, a, "-")
		printf "%s %s %d %d %s\n", pid, $6, ("0x" $3) / 4096, (("0x" a[2]) - ("0x" a[1])) / 4096, $2
	}' "$m" 2> /dev/null >> "$tmp.maps"
done
# Each file's extents in place: "FILE FIRST-PAGE LAST-PAGE FIRST-IMAGE-PAGE".
: > "$tmp.ext"
for f in $(cut -d' ' -f2 "$tmp.maps" | sort -u); do
	filefrag -v -b4096 "$f" 2> /dev/null | awk -v f="$f" '
		$1 ~ /^[0-9]+:$/ && $0 !~ /encoded|not_aligned|unknown|delalloc/ {
			gsub(/[:.]+/, " ")
			print f, $2, $3, $4
		}' >> "$tmp.ext"
done
awk 'FILENAME == ARGV[1] { n[$1]++; f[$1, n[$1]] = $2; l[$1, n[$1]] = $3; p[$1, n[$1]] = $4; next }
	{
		in_place = 0
		# A writable mapping (the data of a program) comes from the page cache.
		for (i = 1; substr($5, 2, 1) != "w" && i <= n[$2]; i++) {
			a = f[$2, i] > $3 ? f[$2, i] : $3
			b = l[$2, i] < $3 + $4 - 1 ? l[$2, i] : $3 + $4 - 1
			for (j = a; j <= b; j++) {
				in_place++
				saved[p[$2, i] + j - f[$2, i]] = 1
			}
		}
		total += in_place
		printf "%s %s %s %d of %d\n", $1, $5, $2, in_place, $4
	}
	END {
		for (k in saved)
			kb += 4
		printf "pages_in_place %d\nsaved_kb %d\n", total, kb
	}' "$tmp.ext" "$tmp.maps"
