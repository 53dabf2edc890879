#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: measure, in one run, and write Documentation/benchmarks.md with
# its plots: RAM and speed in the vexpress-a9 guest (cramfs_xip against
# mainline cramfs.ko on the same images), image sizes against the peers on
# the host, module footprint. Benchmarks report figures; they pass or fail on
# nothing but being able to measure.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
top=$CRAMFS_XIP_TOP
out=$top/build-tests/bench
rm -rf "$out"
mkdir -p "$out"
res=$out/bench.txt

# Image sizes: the BusyBox tree and Debian's armhf packages the guest uses
# (BusyBox, libc6, mtd-utils and their libraries), unpacked.
groot=$CRAMFS_XIP_CACHE/guest-debs/root
mkdir -p "$out/trees/busybox/bin"
cp "$groot/bin/busybox" "$out/trees/busybox/bin/"
cp -a "$groot" "$out/trees/debian-armhf"
for t in busybox debian-armhf; do
	d=$out/trees/$t
	echo "BENCH tree $t $(find "$d" -type f | wc -l) files, $(du -sb "$d" | cut -f1) bytes" >> "$res"
	i=$out/img-$t
	"$top/scripts/mkcramfs" -X "$d" "$i.cramfs-x" > /dev/null
	"$top/scripts/mkcramfs" "$d" "$i.cramfs" > /dev/null
	mkfs.cramfs "$d" "$i.mkfs-cramfs" > /dev/null
	mksquashfs "$d" "$i.sq-gzip" -noappend -comp gzip -quiet > /dev/null
	mksquashfs "$d" "$i.sq-xz" -noappend -comp xz -quiet > /dev/null
	mkfs.erofs -zlz4hc "$i.erofs" "$d" > /dev/null 2>&1
	for p in "mkcramfs-X cramfs-x" "mkcramfs cramfs" "mkfs.cramfs mkfs-cramfs" \
		"squashfs-gzip sq-gzip" "squashfs-xz sq-xz" "erofs-lz4hc erofs"; do
		set -- $p
		echo "BENCH size $t $1 $(stat -c %s "$i.$2")" >> "$res"
	done
done

# RAM, speed and per-mount footprint in the guest.
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} "$top/tests/guest-vexpress-a9.sh" --bench >> "$res"
# Speed: one boot per round, one module per boot, rounds A B B A B A A B
# (tests/guest/bench/20-speed.sh says why), QEMU counting instructions
# (-icount: guest time is 8 ns per instruction, idle time skipped), so that
# the host's load does not move the figures.
r=1
for m in cramfs_xip mainline mainline cramfs_xip mainline cramfs_xip cramfs_xip mainline; do
	GUEST_QEMU="-icount shift=3,sleep=off" GUEST_APPEND="bench_module=$m bench_round=$r" \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
		"$top/tests/guest-vexpress-a9.sh" --bench >> "$res"
	r=$((r + 1))
done
# The fault window (pages in place one fault inserts; 16 in the module):
# one round each of 1 and 64 pages, and of every page inserted at mmap (0),
# against the rounds above.
for w in 0 1 64; do
	GUEST_QEMU="-icount shift=3,sleep=off" GUEST_APPEND="bench_module=cramfs_xip-w$w bench_round=$r" \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
		"$top/tests/guest-vexpress-a9.sh" --bench >> "$res"
	r=$((r + 1))
done
# Verity: on 7.3 (its kernel has SHA-256, and MODULE_SIG's key), the module
# built with it and given the root hashes (verity-on) against the module
# without it (verity-off), on the same images made with --verity, rounds
# A B B A B A A B as above; the first read and exec after each mount too.
r=1
for m in verity-on verity-off verity-off verity-on verity-off verity-on verity-on verity-off; do
	GUEST_QEMU="-icount shift=3,sleep=off" GUEST_APPEND="bench_module=$m bench_round=$r" \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
		"$top/tests/guest-vexpress-a9.sh" --bench 7.3 >> "$res"
	r=$((r + 1))
done
# What the tree costs in flash: the BusyBox tree with -X, without and with --verity.
vt=$out/trees/busybox
"$top/scripts/mkcramfs" -X "$vt" "$out/verity-no.img" > /dev/null
"$top/scripts/mkcramfs" -X --verity "$vt" "$out/verity-yes.img" > /dev/null
echo "BENCH verity-size $(od -An -tu4 -j4 -N4 "$out/verity-no.img" | tr -d ' ') \
	$(stat -c %s "$out/verity-no.img") $(stat -c %s "$out/verity-yes.img")" >> "$res"

# Where the time goes (BENCH_TRACE=1): one more boot, of a kernel with
# ftrace's function_graph tracer (one more kernel build), under -icount.
if [ -n "${BENCH_TRACE:-}" ]; then
	GUEST_QEMU="-icount shift=3,sleep=off" GUEST_APPEND="bench_trace=1" \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
		"$top/tests/guest-vexpress-a9.sh" --bench --trace >> "$res"
fi
# need KIND...: each kind of figure is in the results, or the run failed.
need() {
	local k
	for k in "$@"; do
		grep -q "^BENCH $k " "$res" || die "no '$k' figures measured: see build-tests/"
	done
}
need ram speed footprint verity-size

# The no-MMU board: MemFree for K instances of a program run in place and
# compressed, the RAM each module holds, speed (under -icount, as above), the
# kernel with and without MTD.
# Its figures are kept when some of its checks fail, but they must be this
# run's: an older run's console log must not stand in for them.
m=$top/build-tests/mps2-an385-$KVER_DEFAULT
rm -f "$m/console.log" "$m/kernel-size.txt"
GUEST_QEMU="-icount shift=3,sleep=off" \
	"$top/tests/guest-mps2-an385.sh" > "$out/mps2.txt" 2> "$out/mps2.stderr" ||
	log "mps2-an385: some checks failed (figures kept): see $out/mps2.txt"
[ -f "$m/console.log" ] && [ -f "$m/kernel-size.txt" ] ||
	die "mps2-an385 left no console log or kernel sizes: see $out/mps2.stderr"
tr -d '\r' < "$m/console.log" | { grep '^BENCH nommu' || true; } >> "$res"
cat "$m/kernel-size.txt" >> "$res"
need nommu-ram nommu-footprint nommu-kernel-size nommu-speed

# The tiny system: the least mem= of four systems on the XIP kernel.
"$top/tests/guest-mps2-an385-tiny.sh" --bench >> "$res" 2> "$out/tiny.stderr" ||
	die "tests/guest-mps2-an385-tiny.sh --bench failed: see $out/tiny.stderr"
need tiny-least tiny-meminfo tiny-ram tiny-memblock
# The same XIP system on 7.3 (SLUB_TINY), for what holds its RAM against 6.1's.
"$top/tests/guest-mps2-an385-tiny.sh" --bench 7.3 >> "$res" 2> "$out/tiny-7.3.stderr" ||
	die "tests/guest-mps2-an385-tiny.sh --bench 7.3 failed: see $out/tiny-7.3.stderr"
need tiny-ram-7.3 tiny-memblock-7.3

# Profile-guided XIP (tests/guest-profile.sh): the BusyBox image all
# compressed, with -X and from the profile of a workload; the workload's
# text Rss and the page cache it leaves with the last two.
p=$top/build-tests/profile-vexpress-a9-$KVER_DEFAULT
PROFILE_BENCH=1 "$top/tests/guest-profile.sh" > "$out/profile.txt" 2> "$out/profile.stderr" ||
	die "tests/guest-profile.sh failed: see $out/profile.stderr"
! grep '^FAIL: ' "$out/profile.txt" || die "the profile round trip failed: see $out/profile.txt"
# Pages of BusyBox in place: in the profiled image, in the -X one; and all of them.
inplace() {
	"$top/scripts/cramfsck" --layout "$1" | awk '$1 == "/bin/busybox" && $4 == "xip" {
		sub(/,$/, "", $6); if ($6 % 4096 == 0) n++ } END { print n + 0 }'
}
echo "BENCH profile-pages $(inplace "$p/profiled.img") $(inplace "$p/x.img") \
	$((($(stat -c %s "$p/tree/bin/busybox") + 4095) / 4096))" >> "$res"
for i in zlib x profiled; do
	echo "BENCH profile-size $i $(stat -c %s "$p/$i.img")" >> "$res"
done
for i in profiled x; do
	c=$(tr -d '\r' < "$top/build-tests/profile-check-$i-vexpress-a9-$KVER_DEFAULT/console.log")
	echo "BENCH profile-ram $i $(printf '%s\n' "$c" | sed -n 's/^PROFILE-RAM .*: +\([0-9]*\) kB$/\1/p') \
		$(printf '%s\n' "$c" | sed -n "s/^RESULT PASS the workload's shell: text Rss 0 kB (got \([0-9]*\))$/\1/p")" >> "$res"
done
need profile-pages profile-size profile-ram

# Module sizes, same compiler and configuration.
kb=$("$top/scripts/build-kernel.sh" vexpress-a9)
for m in "cramfs_xip $(built_against "$kb" cramfs_xip)/fs/cramfs_xip/cramfs_xip.ko" \
	"mainline $kb/fs/cramfs/cramfs.ko"; do
	set -- $m
	[ -f "$2" ] || die "$2 missing: no module size to report"
	echo "BENCH kosize $1 $("${CROSS_COMPILE}size" "$2" | tail -n 1 | awk '{print $1, $2, $3}')" >> "$res"
	# Where size(1)'s text goes: code, message strings, other read-only
	# data, unwind tables, the rest (modinfo, notes); and the largest functions.
	"${CROSS_COMPILE}size" -A "$2" | awk -v m="$1" '
		$1 ~ /^\.(init\.|exit\.)?text$/ { c += $2; next }
		$1 ~ /^\.rodata\.str/ { s += $2; next }
		$1 == ".rodata" { r += $2; next }
		$1 ~ /^\.ARM\.(exidx|extab)/ { u += $2; next }
		$1 ~ /^\.(modinfo|note|plt|pv_table|init\.plt)/ || $1 ~ /^__/ { o += $2 }
		END { print "BENCH kosections", m, c + 0, s + 0, r + 0, u + 0, o + 0 }' >> "$res"
	"${CROSS_COMPILE}nm" -S --size-sort "$2" | awk '$3 ~ /^[tT]$/ { print $2, $4 }' |
		tail -n 12 | while read -r hex name; do
		echo "BENCH kofunc $1 $name $((16#$hex))"
	done >> "$res"
done

# The module with each medium left out (fs/cramfs_xip/Kconfig), and with all
# of them: memory-mapped MTDs only; and with verity added.
for v in "no-physaddr CONFIG_CRAMFS_XIP_PHYSADDR=n" "no-blockdev CONFIG_CRAMFS_XIP_BLOCKDEV=n" \
	"no-mtd-read CONFIG_CRAMFS_XIP_MTD_READ=n" \
	"mtd-only CONFIG_CRAMFS_XIP_PHYSADDR=n CONFIG_CRAMFS_XIP_BLOCKDEV=n CONFIG_CRAMFS_XIP_MTD_READ=n" \
	"verity CONFIG_CRAMFS_XIP_VERITY=y"; do
	set -- $v
	name=$1
	shift
	"$top/scripts/build-module.sh" "$kb" "$top/build-tests/module-size-$name" "$@" >&2
	echo "BENCH kovariant $name $("${CROSS_COMPILE}size" \
		"$top/build-tests/module-size-$name/fs/cramfs_xip/cramfs_xip.ko" | tail -n 1 |
		awk '{print $1}')" >> "$res"
done

/usr/bin/python3 "$top/tests/lib/bench-report.py" "$res" "$top/Documentation"
cat "$top/Documentation/benchmarks.md"
