# SPDX-License-Identifier: GPL-2.0
# checks: 12
# The root filesystem is ours, from flash, read-only, and init runs in place.
# /tests/env (written by the host) gives ROOT_IMAGE_START/END, the physical
# range of the image in flash.

# RAM as /tests/run found it when it started (BOOT_MEMINFO).
echo "BENCH root-meminfo $(echo "$BOOT_MEMINFO" | tr -s ' ' | tr '\n' ' ')"
echo "BENCH root-init-maps $(grep ' r-xp .* /bin/busybox$' /proc/1/maps | head -n 1)"
# The reference boot (mainline cramfs built in: ROOTFS_IMPL=mainline on the
# kernel command line) only reports its figures, which the host compares.
[ "${ROOTFS_IMPL:-}" = mainline ] && return

rootdev=$(sed -n 's/.*root=\([^ ]*\).*/\1/p' /proc/cmdline)
rootline=$(awk '$2 == "/" && $3 == "cramfs"' /proc/mounts)
echo "  root: $rootline"
# An MTD root is mounted by its name; a block device one as /dev/root (the
# kernel's node for it), and the log names the device.
case $rootdev in
/dev/*) source=/dev/root sid=${rootdev#/dev/} ;;
*) source=$rootdev sid=mtd:fs_partition ;;
esac
check "/ is cramfs from $rootdev" [ "${rootline%% *}" = "$source" ]
check "/ is mounted read-only" sh -c "echo '$rootline' | grep -q ' ro[ ,]'"
check "the root was mounted by cramfs_xip" sh -c "dmesg | grep -q 'cramfs_xip: ($sid): mounted'"
case $rootdev in
mtd[0-9]*) check "$rootdev is fs_partition" grep -q "^${rootdev}: .*\"fs_partition\"" /proc/mtd ;;
esac
check "writing to / is refused" sh -c '! touch /newfile 2>/dev/null && ! mkdir /newdir 2>/dev/null'

# What shutdown and boot scripts do to the root.
check "mount -o remount,ro /" mount -o remount,ro /
refuse "remount of / adding crc is refused" "remount cannot add crc" mount -o remount,ro,crc /
check "mount -o remount,rw /: stays read-only" sh -c \
	'mount -o remount,rw / 2>/dev/null; ! touch /newfile 2>/dev/null'
check "/ is still cramfs, read-only, after the remounts" sh -c \
	"awk '\$2 == \"/\" && \$3 == \"cramfs\"' /proc/mounts | grep -q ' ro[ ,]'"

# The tree as the host made it (a plain bind mount shows the root without
# what is mounted over it). The manifest cannot contain its own checksum.
mount --bind / /mnt
check "every file of / matches the host's manifest" sh -c \
	"/tests/manifest.sh /mnt 255 | grep -v ' ./tests/root.manifest\$' | diff /tests/root.manifest -"
umount /mnt

# init is BusyBox from the image: its text is mapped from flash (the page
# table maps the flash itself: /proc/1/pagemap); from an SD card it comes
# from the page cache, in RAM.
line=$(grep ' r-xp .* /bin/busybox$' /proc/1/maps | head -n 1)
phys=$(page_phys 1 "${line%%-*}")
echo "  /proc/1/maps: $line (first page at $phys)"
# "none" (no page there) is -1, not an arithmetic error that ends init.
n=-1
[ "$phys" = none ] || n=$((0x$phys))
case $rootdev in
/dev/*)
	check "init's text comes from the page cache, not in place ($phys)" \
		[ $n -lt $((ROOT_IMAGE_START)) -o $n -ge $((ROOT_IMAGE_END)) ]
	;;
*)
	check "init's text is mapped from flash ($phys)" \
		[ $n -ge $((ROOT_IMAGE_START)) -a $n -lt $((ROOT_IMAGE_END)) ]
	;;
esac
check "init is /bin/busybox, 1 text mapping" [ "$(grep -c ' r-xp .* /bin/busybox$' /proc/1/maps)" = 1 ]
check "a BusyBox applet runs from the root" sh -c '/bin/busybox true'
