# SPDX-License-Identifier: GPL-2.0
# checks: 13
# FIEMAP: e2fsprogs' filefrag -v lists each file's extents, and they agree,
# page by page, with cramfsck --layout of the same image on the host
# (tests/lib/layout-pages.py): where each block lies in the medium, and
# whether it is compressed (encoded), plain but never mapped in place
# (not_aligned: also every plain block of a mount that maps nothing in
# place), or mappable in place (no flag); a hole has no extent.

PSRAM=$(mtdnum 48000000.psram)

# fiemap_pages DIR: every regular file's FIEMAP as layout-pages.py lists the layout.
fiemap_pages() {
	find "$1" -type f | while read -r f; do
		filefrag -v -b1 "$f" | awk -v p="${f#$1}" '
			/^ *[0-9]+: / {
				n = split($0, F, ":")
				split(F[2], L, "[.][.]")
				split(F[3], P, "[.][.]")
				k = F[n] ~ /encoded/ ? "encoded" : F[n] ~ /not_aligned/ ? "unaligned" : "inplace"
				for (pg = int(L[1] / 4096); pg <= int(L[2] / 4096); pg++)
					printf "%s %d %s %d\n", p, pg, k, k == "encoded" ? P[1] : P[1] + pg * 4096 - L[1]
				ext++
			}
			END { if (ext) printf "%s extents %d\n", p, ext }'
	done | sort > /tmp/fiemap.pages
}

# same_layout LABEL IMAGE [SED]: the mount on /mnt against the host's list
# for IMAGE (edited by the sed script SED).
same_layout() {
	sed "${3:-s/^//}" /images/$2.pages > /tmp/want.pages
	fiemap_pages /mnt
	check "$1: filefrag -v of every file agrees with cramfsck --layout, page by page ($(grep -vc extents /tmp/fiemap.pages) pages)" \
		cmp /tmp/want.pages /tmp/fiemap.pages
	diff /tmp/want.pages /tmp/fiemap.pages 2>&1 | head -n 5 | sed 's/^/    | /'
}

mount -t cramfs mtd:fs_partition /mnt
same_layout "NOR (XIP image)" xip
check "NOR: BusyBox's text is one extent of over 300 pages, in place (no flags)" sh -c \
	"filefrag -v -b1 /mnt/bin/busybox | awk -F: '\$1 ~ /^ *0\$/ { split(\$2, L, \"[.][.]\");
		if (L[1] == 0 && L[2] + 1 >= 300 * 4096 && \$NF !~ /[a-z]/) ok = 1 } END { exit !ok }'"
check "NOR: the compressed file's extents are all encoded" sh -c \
	"[ \$(filefrag -v /mnt/data/compressed.txt | grep -c '^ *[0-9]*:.*encoded') -gt 10 ] &&
	 ! filefrag -v /mnt/data/compressed.txt | grep '^ *[0-9]*:' | grep -qv encoded"
# Directories share the files' inode operations: their FIEMAP says unsupported
# instead of reading directory entries as block pointers.
mark
check "NOR: a directory has no extents" sh -c "! filefrag -v /mnt/bin 2>&1 | grep -q '^ *[0-9]*:'"
check "... and asking for them reads nothing of the image (no message)" no_klog "cramfs_xip"
umount /mnt

losetup -r /dev/loop0 /images/xip.img
mount -t cramfs /dev/loop0 /mnt
# A block device maps nothing in place: FIEMAP says so of every plain block.
same_layout "loop device (XIP image): no page in place, plain ones not_aligned" xip \
	's/ inplace / unaligned /' 
umount /mnt
losetup -d /dev/loop0

# Plain blocks off a page boundary and outside direct pointers (not_aligned).
cat /images/smallxip.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
same_layout "small XIP image (unaligned and plain blocks)" smallxip
check "small XIP image: a plain block off a page boundary is not_aligned" sh -c \
	"filefrag -v /mnt/bin/tiny | grep -q not_aligned"
umount /mnt

# A plain block stored shorter than its part of the file (crafted): an
# extent of its own, none overlapping, the last reaching the file's end.
cat /images/crafted/short-plain.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
size=$(stat -c %s /mnt/bin/tiny)
filefrag -v -b1 /mnt/bin/tiny > /tmp/fiemap.out 2>&1
check "short plain block: /bin/tiny's extents do not overlap and reach its end ($size bytes)" \
	awk -F: -v size="$size" '/^ *[0-9]+: / { split($2, L, "[.][.]")
		if (L[1] + 0 < end) bad = 1; end = L[2] + 1 } END { exit bad || end != size }' \
	/tmp/fiemap.out
sed 's/^/    | /' /tmp/fiemap.out | head -n 8
umount /mnt

# Holes and files that share their data.
cat /images/shared.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
same_layout "image with holes and shared data" shared
umount /mnt

# A bad block pointer: FIEMAP fails with the image's error, as read() does
# (filefrag then tries FIBMAP, which cramfs has not, and says "unsupported").
cat /images/crafted/direct-past-end.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
mark
check "bad block pointer: filefrag lists no extent of it" sh -c \
	"! filefrag -v /mnt/data/xip-partial.bin 2>&1 | grep -q '^ *[0-9]*:'"
check "bad block pointer: the kernel names it" klog_has "bad block pointer"
umount /mnt
check "nothing left mounted" sh -c '! grep -q " cramfs " /proc/mounts'
