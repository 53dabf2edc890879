#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/setup-host.sh against a made-up apt: an 'apt-get update' that
# reports an index it could not fetch (exit 100, as a mirror in the middle
# of a sync makes it) must not stop the setup when the packages still
# install; it is retried, then taken as a warning. A package that does not
# install stops it with a message that says so. The kernel sources of a
# newer suite come through a private apt configuration.
# checks: 8
. "$(dirname "$0")/lib.sh"
d=$WORK/setup-host
rm -rf "$d"
mkdir -p "$d/bin" "$d/cache"
# The fakes log each call; their behaviour comes from the environment:
# FAKE_UPDATE_FAILS (how many updates exit 100 before one works),
# FAKE_INSTALL (exit status of install).
cat > "$d/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >> "$FAKE_LOG"
for a in "$@"; do last=$a; done
for a in "$@"; do
	case $a in
	update)
		n=$(grep -c ' update' "$FAKE_LOG")
		[ "$n" -gt "${FAKE_UPDATE_FAILS:-0}" ] || exit 100
		exit 0 ;;
	install) exit "${FAKE_INSTALL:-0}" ;;
	download) echo "a kernel tarball" > "${last}_1_all.deb"; exit 0 ;;
	esac
done
exit 0
EOF
cat > "$d/bin/dpkg-query" <<'EOF'
#!/bin/sh
# Every package installed but one, bc.
for a in "$@"; do last=$a; done
[ "$last" = bc ] && exit 1
printf 'install ok installed'
EOF
cat > "$d/bin/dpkg" <<'EOF'
#!/bin/sh
echo "dpkg $*" >> "$FAKE_LOG"
case $1 in
--print-foreign-architectures) echo armhf ;;
-x)
	mkdir -p "$3"
	case $2 in
	*linux-source-*)
		v=${2##*linux-source-}
		mkdir -p "$3/usr/src" && cp "$2" "$3/usr/src/linux-source-${v%%_*}.tar.xz" ;;
	esac ;;
esac
EOF
chmod +x "$d/bin"/*
# The guest packages are already unpacked, armhf and arm64 (their stamps
# match). pkgs VAR: the assignment of VAR in setup-host.sh, to its closing quote.
pkgs() { awk -v v="$1" '$0 ~ "^" v "=\"" { on = 1 } on { print } on && /"$/ { exit }' \
	"$TOP/scripts/setup-host.sh"; }
eval "$(pkgs GUEST_PKGS)"
eval "$(pkgs GUEST_PKGS_ARM64)"
mkdir -p "$d/cache/guest-debs" "$d/cache/guest-debs-arm64"
touch "$d/cache/guest-debs/.unpacked-$(echo "$GUEST_PKGS" | md5sum | cut -c1-8)"
touch "$d/cache/guest-debs-arm64/.unpacked-$(echo "$GUEST_PKGS_ARM64" | md5sum | cut -c1-8)"

setup() {	# setup VAR=VALUE...: run setup-host.sh with the fakes; its output in $d/out
	: > "$d/log"
	env PATH="$d/bin:$PATH" FAKE_LOG="$d/log" CRAMFS_XIP_CACHE="$d/cache" APT_RETRY_DELAY=0 \
		EXTRA_KERNELS= "$@" bash "$TOP/scripts/setup-host.sh" > "$d/out" 2>&1
}
says() { grep -q -- "$1" "$d/out" || { echo "output lacks '$1':"; cat "$d/out"; return 1; }; }

updates() { [ "$(grep -c ' update' "$d/log")" = "$1" ]; }
check "an update that fails every time does not stop the setup when the install works" \
	setup FAKE_UPDATE_FAILS=99
check "... it was tried 3 times, then the install ran" sh -c \
	"[ \$(grep -c ' update' '$d/log') = 3 ] && grep -q 'install -y -q --no-install-recommends  *bc' '$d/log'"
check "... and the setup says it went on with the lists it had" says 'going on with the package lists'
check "an update that fails once is retried, and runs no more once it works" sh -c \
	"$(declare -f setup updates); d='$d'; setup FAKE_UPDATE_FAILS=1 && updates 2"
if setup FAKE_UPDATE_FAILS=99 FAKE_INSTALL=100; then
	fail "an install that fails stops the setup: it exited 0"
else
	pass "an install that fails stops the setup (exit $?)"
fi
check "... with a message that names the packages and the archive" \
	says 'installing bc failed: the packages above could not be had'
# A newer suite's kernel source: the private configuration, nothing else.
setup EXTRA_KERNELS="9.9 trixie-backports"
check "linux-source of a newer suite is fetched with a private apt configuration" sh -c \
	"grep -q 'Dir::Etc::sourcelist=$d/cache/apt-trixie-backports/sources.list.*download -q linux-source-9.9' '$d/log' &&
	 grep -q 'trixie-backports main' '$d/cache/apt-trixie-backports/sources.list' &&
	 [ -f '$d/cache/kernel-sources/linux-source-9.9.tar.xz' ]"
# A fresh machine: no arm64 architecture yet, nothing unpacked. arm64 is
# added, the lists updated before its BusyBox is downloaded, and both sets of
# guest packages unpacked (their stamps written).
rm -rf "$d/cache/guest-debs" "$d/cache/guest-debs-arm64"
check "a fresh machine: arm64 added, an update, then arm64's BusyBox; both stamps" sh -c \
	"$(declare -f setup); d='$d'; setup &&
	 grep -q '^dpkg --add-architecture arm64' '$d/log' &&
	 awk '/ update/ { u = 1 } / download -q busybox-static:arm64/ { exit !u }' '$d/log' &&
	 grep -q 'download -q busybox-static:arm64' '$d/log' &&
	 ls '$d'/cache/guest-debs/.unpacked-* '$d'/cache/guest-debs-arm64/.unpacked-* > /dev/null"
