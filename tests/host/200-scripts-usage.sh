#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The scripts users run answer --help with their usage and missing arguments
# with it too, never a shell error; xip-in-place.sh refuses a path that does
# not exist or is not on a cramfs_xip mount, where it would count an ext4
# file's extents as pages in place.
# checks: 6
. "$(dirname "$0")/lib.sh"
d=$WORK/scripts-usage
rm -rf "$d"
mkdir -p "$d"
s=$TOP/scripts
# setup-host.sh run by mistake installs nothing here: apt is false, no kernel to fetch.
export APT_GET=false EXTRA_KERNELS=
scripts="add-to-kernel.sh build-dtb.sh build-kernel.sh build-module.sh compile-test.sh
	setup-host.sh xip-in-place.sh elf2flt.py"
shell_error='unbound variable|parameter null|not set|line [0-9]+:|No such file'

helps() {
	local f
	for f in $scripts; do
		"$s/$f" --help > "$d/out" 2> "$d/err" || { echo "$f --help: exit $?"; cat "$d/err"; return 1; }
		head -n 1 "$d/out" | grep -q "^usage: $f" || { echo "$f --help:"; cat "$d/out"; return 1; }
		[ ! -s "$d/err" ] || { echo "$f --help wrote to stderr:"; cat "$d/err"; return 1; }
	done
}
check "--help: usage on stdout, exit 0 ($(echo $scripts | wc -w) scripts)" helps

# No arguments where some are required; setup-host.sh takes none, so one too many.
missing() {
	local f args
	for f in $scripts; do
		args=()
		[ "$f" != setup-host.sh ] || args=(extra)
		"$s/$f" "${args[@]}" > /dev/null 2> "$d/err"
		local rc=$?
		[ $rc -ne 0 ] || { echo "$f ${args[*]}: exit 0"; return 1; }
		grep -q "^usage: $f" "$d/err" || { echo "$f ${args[*]}: no usage"; cat "$d/err"; return 1; }
		! grep -Eq "$shell_error" "$d/err" || { echo "$f ${args[*]}:"; cat "$d/err"; return 1; }
	done
}
check "missing arguments: usage on stderr, non-zero exit, no shell error" missing

check "xip-in-place.sh: a path that does not exist: refused, non-zero" \
	status_and_says 1 "$d/nonexistent: no such file or directory" "$s/xip-in-place.sh" "$d/nonexistent"
# This process maps a program from $d, on the host's disk: FIEMAP shows its
# extents plain, which used to be counted as pages in place.
cp /bin/sleep "$d/sleep"
sync "$d/sleep"
"$d/sleep" 30 &
sleeper=$!
check "xip-in-place.sh: a directory not on cramfs (a program running from it): refused, non-zero" \
	status_and_says 1 "not on a cramfs_xip mount" "$s/xip-in-place.sh" "$d"
# A cramfs mount while the module is loaded, as the script reads them: a copy
# that reads a made-up mount table and module directory.
mkdir -p "$d/module"
printf '/dev/root / ext4 rw 0 0\nmtd:fs %s cramfs ro 0 0\n' "$d" > "$d/mounts"
sed -e "s|^mounts=.*|mounts=$d/mounts|" -e "s|^module_sysfs=.*|module_sysfs=$d/module|" \
	"$s/xip-in-place.sh" > "$d/xip-in-place.sh"
# Without filefrag on the PATH no file has an extent in place: the mappings
# are listed all the same, with none (they once vanished from the output).
accepted() {
	sh "$d/xip-in-place.sh" "$d/" > "$d/out" || return 1
	env PATH=/bin sh "$d/xip-in-place.sh" "$d/" > "$d/none.out" || return 1
	cat "$d/out" "$d/none.out"
	grep -Eq "^$sleeper r-xp $d/sleep [1-9][0-9]* of " "$d/out" &&
		grep -Eq '^pages_in_place [1-9]' "$d/out" &&
		grep -q "^$sleeper r-xp $d/sleep 0 of " "$d/none.out"
}
check "xip-in-place.sh: a cramfs mount while cramfs_xip is loaded: accepted, the program's pages counted" \
	accepted
rmdir "$d/module"
check "xip-in-place.sh: a cramfs mount without cramfs_xip (mainline cramfs): refused, non-zero" \
	status_and_says 1 "not cramfs_xip's" sh "$d/xip-in-place.sh" "$d"
kill "$sleeper"
wait "$sleeper" 2> /dev/null || :	# killed: status 143
