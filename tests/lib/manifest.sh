#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print a manifest of a tree: one line per entry, sorted, path last:
#   TYPE MODE UID GID SIZE|DEV|- MD5|TARGET|- PATH
# Runs the same under bash + GNU coreutils on the host and BusyBox in a guest,
# so the two outputs can be compared byte for byte. Directory sizes and times
# are left out: cramfs stores neither the way the host does.
#   manifest.sh DIR [GID_MASK]
# GID_MASK (e.g. 255) folds group ids the way the format's 8-bit field does.
set -e
dir=$1
gidmask=${2:-4294967295}
cd "$dir"
export LC_ALL=C
find . | sort | while IFS= read -r p; do
	set -- $(stat -c '%f %u %g %s %t %T' "$p")
	mode=$((0x$1))
	uid=$2
	gid=$(($3 & gidmask))
	perm=$(printf '%o' $((mode & 07777)))
	case $((mode & 0170000)) in
	$((0100000))) echo "f $perm $uid $gid $4 $(md5sum < "$p" | cut -c1-32) $p" ;;
	$((0040000))) echo "d $perm $uid $gid - - $p" ;;
	$((0120000))) echo "l $perm $uid $gid $4 $(readlink "$p") $p" ;;
	$((0020000))) echo "c $perm $uid $gid $((0x$5)):$((0x$6)) - $p" ;;
	$((0060000))) echo "b $perm $uid $gid $((0x$5)):$((0x$6)) - $p" ;;
	$((0010000))) echo "p $perm $uid $gid - - $p" ;;
	$((0140000))) echo "s $perm $uid $gid - - $p" ;;
	*) echo "? $perm $uid $gid - - $p" ;;
	esac
done
