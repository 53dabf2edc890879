# SPDX-License-Identifier: GPL-2.0
# checks: 19
# Mainline cramfs.ko on the same block devices as 25-media.sh: the same
# entries (host manifest) and the same listing as cramfs_xip gave there.
# One known difference: mainline (6.1, 6.12) reads the last page of a file of
# whole uncompressed direct pages (the XIP image's data/xip-exact.bin) as
# zeros, on every medium: its length is taken as offset_in_page(i_size), 0.
# That file's line is left out of mainline's manifest comparison; cramfs_xip
# reads it as the host wrote it (25-media.sh, 10-mount.sh).

check "cramfs_xip unloads" rmmod cramfs_xip
check "mainline cramfs.ko loads" insmod /lib/modules/cramfs.ko

# mainline_on LABEL SOURCE LISTING MANIFEST: mainline reads SOURCE as cramfs_xip did.
mainline_on() {
	check "$1: mainline mounts $2" mount -t cramfs "$2" /mnt
	grep -v ' ./data/xip-exact.bin$' "/images/$4.manifest" > /tmp/mainline-want.manifest
	/tests/manifest.sh /mnt 255 | grep -v ' ./data/xip-exact.bin$' > /tmp/mainline-got.manifest
	check "$1: mainline reads the host manifest" \
		diff /tmp/mainline-want.manifest /tmp/mainline-got.manifest
	ls -lanR /mnt > /tmp/mainline-media.ls 2>&1
	check "$1: mainline and cramfs_xip list identically (ls -lanR)" \
		cmp "/tmp/media-$3.ls" /tmp/mainline-media.ls
	umount /mnt
}

for img in tiny types big; do
	losetup -r /dev/loop0 /images/$img.img
	mainline_on "loop device, $img image" /dev/loop0 loop-$img $img
	losetup -d /dev/loop0
done
losetup -r /dev/loop0 /images/xip.img
mainline_on "loop device, XIP image" /dev/loop0 loop xip
losetup -d /dev/loop0
mainline_on "SD card" /dev/mmcblk0 sd xip

check "mainline cramfs unloads" rmmod cramfs
check "cramfs_xip loads again" insmod /lib/modules/cramfs_xip.ko
