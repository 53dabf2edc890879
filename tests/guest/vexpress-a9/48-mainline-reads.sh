# SPDX-License-Identifier: GPL-2.0
# checks: 54
# Reads through cramfs_xip, mainline cramfs and mainline cramfs with its fix
# (scripts/patches/mainline-cramfs/), compared with the host's files: files
# stored in place of whole pages and not, an ELF file whose last page is
# text, a file of holes, a compressed one; read() and mmap(). cramfs_xip and
# the fixed mainline read every page right. Mainline differs only where it
# is known to (/images/reads.misread: whole pages, the last stored plain
# behind a direct pointer), and only so: the last page reads as zeros, the
# rest right, the mapping right.

PSRAM=$(mtdnum 48000000.psram)
cat /images/reads.img > /dev/mtd$PSRAM
F="sticky-64k sticky-65000 sticky-8k sticky-4k sticky-4097 elf-text holes compressed-8k"
misread() { grep -qx "$1" /images/reads.misread; }
# known_defect FILE: FILE's last page reads as zeros and the rest as the host's.
head -c 4096 /dev/zero > /tmp/zero-page
known_defect() {
	n=$(stat -c %s "/images/reads-ref/$1")
	cat "/mnt/$1" > /tmp/read.out
	head -c $((n - 4096)) /tmp/read.out > /tmp/read.head
	head -c $((n - 4096)) "/images/reads-ref/$1" > /tmp/ref.head
	tail -c 4096 /tmp/read.out > /tmp/read.tail
	[ "$(stat -c %s /tmp/read.out)" = "$n" ] && cmp -s /tmp/read.head /tmp/ref.head &&
		cmp -s /tmp/read.tail /tmp/zero-page && ! cmp -s /tmp/read.out "/images/reads-ref/$1"
}

# reads LABEL MODULE: mount the image with MODULE loaded, check every file.
reads() {
	L=$1
	check "$L: mount the image" mount -t cramfs mtd$PSRAM /mnt
	for f in $F; do
		if [ "$L" = mainline ] && misread $f; then
			check "$L: $f: read() gives its last page as zeros, the rest right (the known defect)" \
				known_defect $f
		else
			check "$L: $f: read() gives the host's bytes" cmp "/mnt/$f" "/images/reads-ref/$f"
		fi
		check "$L: $f: mmap() gives the host's bytes" xiptest mapcmp "/mnt/$f" "/images/reads-ref/$f"
	done
	umount /mnt
}

check "the image has files mainline misreads: $(cat /images/reads.misread | tr '\n' ' ')" \
	sh -c '[ $(wc -l < /images/reads.misread) = 4 ]'
reads cramfs_xip
rmmod cramfs_xip
insmod /lib/modules/cramfs.ko
reads mainline
rmmod cramfs
check "mainline with the fix loads" insmod /lib/modules/fixed/cramfs.ko
reads "mainline fixed"
rmmod cramfs
check "cramfs_xip loads again" insmod /lib/modules/cramfs_xip.ko
