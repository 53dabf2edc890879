# SPDX-License-Identifier: GPL-2.0
# Shared settings for the build and test scripts (sourced, not run).

CRAMFS_XIP_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything slow to make (kernel trees, guest packages) lives outside the checkout,
# so a fresh clone on a warm machine reuses it.
CRAMFS_XIP_CACHE=${CRAMFS_XIP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cramfs-xip}
KVER_DEFAULT=6.1
CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabi-}
JOBS=${JOBS:-$(nproc)}
export CRAMFS_XIP_TOP CRAMFS_XIP_CACHE CROSS_COMPILE

# built_against KBUILD NAME: where NAME (this checkout's module, a test
# module) is built against the kernel build KBUILD: in the cache beside the
# kernel builds, so that a fresh clone rebuilds only what it changed.
built_against() { echo "$CRAMFS_XIP_CACHE/module-builds/${1##*/}/$2"; }

# check_args USAGE MIN MAX "$@": a script's arguments, before it does anything.
# -h or --help: "usage: NAME USAGE" and the script's header comment on stdout,
# exit 0; fewer than MIN or more than MAX arguments (MAX empty: any number):
# the usage on stderr, exit 2.
check_args() {
	local usage="usage: ${0##*/}${1:+ $1}" min=$2 max=$3 a
	shift 3
	for a in "$@"; do
		case $a in
		-h | --help)
			echo "$usage"
			awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
			exit 0
			;;
		esac
	done
	if [ $# -lt "$min" ] || { [ -n "$max" ] && [ $# -gt "$max" ]; }; then
		printf '%s\n(%s --help says more)\n' "$usage" "${0##*/}" >&2
		exit 2
	fi
}

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# kernel_tarball VERSION: the linux-source tarball of VERSION, from Debian's
# package under /usr/src or fetched by scripts/setup-host.sh from a newer suite.
kernel_tarball() {
	local f
	for f in "/usr/src/linux-source-$1.tar.xz" \
		"$CRAMFS_XIP_CACHE/kernel-sources/linux-source-$1.tar.xz"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# fix_mainline_cramfs DIR: apply scripts/patches/mainline-cramfs/ to the
# mainline cramfs sources in DIR (inode.c), the patch that matches their
# code (6.1's page-based read, or 7.3's folio-based one); nothing if it is
# applied already.
fix_mainline_cramfs() {
	local dir=$1 p
	for p in "$CRAMFS_XIP_TOP"/scripts/patches/mainline-cramfs/*.patch; do
		if patch -s -p3 -R --dry-run -d "$dir" < "$p" > /dev/null 2>&1; then
			return 0
		fi
		if patch -s -p3 --dry-run -d "$dir" < "$p" > /dev/null 2>&1; then
			patch -s -p3 -d "$dir" < "$p"
			log "applied $(basename "$p") to $dir"
			return 0
		fi
	done
	log "no patch in scripts/patches/mainline-cramfs/ fits $dir/inode.c"
	return 1
}
