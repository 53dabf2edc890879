# SPDX-License-Identifier: GPL-2.0
# Where the time goes: the speed rows again, each module in turn, with
# ftrace's function_graph tracer on the filesystem's own functions (every
# cramfs_xip_* or cramfs_* function is a graph root, so a function's time
# includes what it calls in the rest of the kernel: zlib, the MTD, page
# tables). Run only by a boot of the tracing kernel (tests/bench.sh with
# BENCH_TRACE=1: bench_trace=1 on the command line) under QEMU -icount, where
# the durations count instructions. Tracing adds its own cost to each call,
# the same for both modules. Prints, per module and measurement, the
# functions with the most inclusive time:
# BENCH trace MODULE WHAT FUNCTION calls=N total_us=T
[ -n "${bench_trace:-}" ] || return 0
T=/sys/kernel/tracing
mount -t tracefs tracefs $T 2> /dev/null
[ -w $T/current_tracer ] || { echo "BENCH trace-missing no tracefs at $T"; return 0; }
echo 1 > /proc/sys/kernel/printk
trace_op() {	# trace_op MODULE WHAT 'GLOB...' CMD...: trace CMD, report the GLOBs' functions
	m=$1 what=$2 pat=$3
	shift 3
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo > $T/trace
	echo 16384 > $T/buffer_size_kb
	echo "$pat" > $T/set_graph_function
	echo function_graph > $T/current_tracer
	echo funcgraph-tail > $T/trace_options
	echo 1 > $T/tracing_on
	"$@" > /dev/null 2>&1
	echo 0 > $T/tracing_on
	# A full ring buffer drops the oldest events: say so beside the figures.
	lost=$(sed -n 's/^overrun: *//p' $T/per_cpu/cpu0/stats)
	[ "${lost:-0}" = 0 ] || echo "BENCH trace-overrun $m $what $lost events lost"
	# "dur us |  func();" (a leaf) or "dur us |  } /* func */" (a return).
	awk -v m="$m" -v w="$what" -v pat="^($(echo "$pat" | sed 's/\*//g; s/ /|/g'))" '
		/ us +\|/ {
			d = $0; sub(/ us.*/, "", d); sub(/.*[ !+#*@$]/, "", d)
			f = $0; sub(/.*\|[ ]*/, "", f)
			if (f ~ /^} \/\* /) { sub(/^} \/\* /, "", f); sub(/ \*\/.*/, "", f) }
			else { sub(/\(\);.*/, "", f) }
			sub(/ \[.*/, "", f)
			if (f !~ pat) next
			n[f]++; t[f] += d
		}
		END { for (f in t) printf "BENCH trace %s %s %s calls=%d total_us=%.1f\n", m, w, f, n[f], t[f] }' \
		$T/trace | sort -t= -k3 -rn | head -n 8
	echo nop > $T/current_tracer
}
trace_module() {	# trace_module MODULE KO NAME PATTERN
	insmod "$2" || return
	set -- "$1" "$3" "$4"
	trace_op "$1" mount "$3" sh -c 'for i in 1 2 3 4 5; do mount -t cramfs mtd:fs_partition /mnt && umount /mnt; done'
	mount -t cramfs mtd:fs_partition /mnt
	trace_op "$1" readall-xip "$3" sh -c 'find /mnt -type f -exec cat {} +'
	trace_op "$1" fault-xip "filemap_fault $3" benchtool fault "$1" 1 /mnt/bin/busybox
	trace_op "$1" exec-xip "$3" sh -c 'for i in 1 2 3 4 5; do /mnt/bin/busybox true; done'
	umount /mnt
	mount -t cramfs mtd:spare /mnt
	trace_op "$1" readall-zlib "$3" sh -c 'find /mnt -type f -exec cat {} +'
	trace_op "$1" exec-zlib "$3" sh -c 'for i in 1 2 3 4 5; do /mnt/bin/busybox true; done'
	umount /mnt
	rmmod "$2"
}
trace_module cramfs_xip /lib/modules/cramfs_xip.ko cramfs_xip 'cramfs_xip_*'
trace_module mainline /lib/modules/cramfs.ko cramfs 'cramfs_*'
