# SPDX-License-Identifier: GPL-2.0
# checks: 36
# Mount images from flash through cramfs_xip and read them exactly as stored.

for m in /lib/modules/deps/*.ko; do [ -e "$m" ] && insmod "$m"; done
check "module loads" insmod /lib/modules/cramfs_xip.ko
check "cramfs is registered" grep -qw cramfs /proc/filesystems

FS=$(mtdnum fs_partition)
PSRAM=$(mtdnum 48000000.psram)
check "flash partitions found (fs_partition=mtd$FS, psram=mtd$PSRAM)" test -n "$FS" -a -n "$PSRAM"

check "mount -t cramfs mtd:fs_partition" mount -t cramfs -o ro mtd:fs_partition /mnt
check "mounted read-only as cramfs" grep -q "^mtd:fs_partition /mnt cramfs ro" /proc/mounts
check "XIP image in NOR flash: every entry matches the host manifest" \
	same_manifest /images/xip.manifest /mnt
ls -lanR /mnt > /tmp/ours-flash.ls 2>&1
check "write to a file is refused" sh -c '! echo x > /mnt/data/compressed.txt'
check "unmount" umount /mnt

SPARE=$(mtdnum spare)
check "mount by number: mtd$SPARE (spare partition, types image)" mount -t cramfs mtd$SPARE /mnt
check "types image in NOR flash: every entry matches the host manifest" \
	same_manifest /images/types.manifest /mnt
check "unmount mtd$SPARE" umount /mnt

# The psram is writable RAM with point: every image can be tried in one boot.
for img in tiny types big shared; do
	cat /images/$img.img > /dev/mtd$PSRAM
	check "$img image: mount from psram" mount -t cramfs mtd$PSRAM /mnt
	check "$img image: every entry matches the host manifest" same_manifest /images/$img.manifest /mnt
	ls -lanR /mnt > /tmp/ours-$img.ls 2>&1
	# Read every file twice more, in parallel: page cache and decompression under contention.
	# Each reader's status and the checksum of what it read.
	reader() { find /mnt -type f -exec cat {} + > /tmp/par$1.out && md5sum < /tmp/par$1.out > /tmp/par$1.sum; r=$?; rm -f /tmp/par$1.out; return $r; }
	reader 1 &
	p1=$!
	reader 2
	r2=$?
	wait $p1
	r1=$?
	reader 0
	check "$img image: two parallel readers of every file both succeed, with the same bytes" \
		sh -c "[ $r1 = 0 ] && [ $r2 = 0 ] && cmp /tmp/par0.sum /tmp/par1.sum && cmp /tmp/par0.sum /tmp/par2.sum"
	check "$img image: unmount" umount /mnt
done

# Images made with Buildroot's command lines (mkcramfs -L, -L -X -X): they
# mount, BusyBox runs from them, in place from the -X -X one.
for img in buildroot buildroot-xip; do
	cat /images/$img.img > /dev/mtd$PSRAM
	check "$img image (mkcramfs -L${img#buildroot}): mount from psram" mount -t cramfs mtd$PSRAM /mnt
	check "$img image: every entry matches the host manifest" \
		same_manifest /images/buildroot.manifest /mnt
	/mnt/bin/busybox sleep 5 &
	pid=$!
	sleep 1
	phys=$(page_phys $pid "$(grep ' r-xp .*/mnt/bin/busybox$' /proc/$pid/maps | cut -d- -f1)")
	kill $pid
	wait $pid 2> /dev/null
	# "none" (no page there) is -1, not an arithmetic error that ends init.
	n=-1
	[ "$phys" = none ] || n=$((0x$phys))
	if [ $img = buildroot-xip ]; then
		check "$img image: BusyBox's text runs in place, from the psram ($phys)" \
			[ $n -ge $((0x48000000)) -a $n -lt $((0x4a000000)) ]
	else
		check "$img image: BusyBox runs, its text from RAM ($phys)" [ $n -ge $((0x60000000)) ]
	fi
	umount /mnt
done

cat /images/types.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
exec 3< /mnt/sizes/file-4096
check "unmount refused while a file is open" sh -c '! umount /mnt'
exec 3<&-
check "unmount once it is closed" umount /mnt
check "statfs reports cramfs" sh -c "mount -t cramfs mtd$PSRAM /mnt && stat -f -c %t /mnt | grep -qi 28cd3d45"
umount /mnt 2>/dev/null
