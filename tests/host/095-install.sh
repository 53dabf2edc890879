#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make install (the module) and make tools_install into a DESTDIR, and dkms
# build with our dkms.conf, against the vexpress-a9 6.1 kernel tree that make
# check builds into the cache (the module is cross-built for ARM; nothing is
# loaded). Without that tree: SKIP.
# checks: 11
. "$(dirname "$0")/lib.sh"
kb=$(prepared_kernel)
[ -n "$kb" ] || skip_all "no prepared vexpress-a9 6.1 kernel tree (make check builds one)"
cross=${CROSS_COMPILE:-arm-linux-gnueabi-}
command -v "${cross}gcc" > /dev/null || skip_all "${cross}gcc not installed (scripts/setup-host.sh)"
krel=$(cat "$kb/include/config/kernel.release")
# The vermagic every module of that kernel carries.
vermagic=$(modinfo -F vermagic "$kb/fs/cramfs/cramfs.ko" | sed "s/ *$//")

d=$WORK/install
root=$d/root
rm -rf "$d"
mkdir -p "$d"
# A copy of the sources, so that no object lands in the checkout.
copy_sources() {
	mkdir -p "$1"
	cp -r "$TOP/Kbuild" "$TOP/Makefile" "$TOP/VERSION" "$TOP/dkms.conf" "$TOP/fs" "$TOP/scripts" \
		"$TOP/Documentation" "$1/"
	find "$1" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name 'modules.order' -o -name 'Module.symvers' \) -delete
	rm -f "$1/scripts/mkcramfs" "$1/scripts/cramfsck"
}
copy_sources "$d/src"
kmake() { make -C "$d/src" KDIR="$kb" ARCH=arm CROSS_COMPILE="$cross" "$@"; }
ko=$d/src/fs/cramfs_xip/cramfs_xip.ko
built() { kmake && [ -f "$ko" ]; }
check "make builds cramfs_xip.ko against $krel" built

# A broken install could write to this machine's /lib/modules/$krel: noted
# before, checked and removed after.
host_mods=/lib/modules/$krel
[ -e "$host_mods" ] && host_had=1 || host_had=0
{ kmake install DESTDIR="$root" && kmake tools_install DESTDIR="$root"; } > "$d/install.log" 2>&1
install_status=$?
installed_tools() {
	cat "$d/install.log"
	[ $install_status = 0 ] || return 1
	local t
	for t in mkcramfs cramfsck; do
		[ -x "$root/usr/local/bin/$t" ] && cmp "$d/src/scripts/$t" "$root/usr/local/bin/$t" || return 1
	done
}
check "make install, make tools_install DESTDIR: exit 0, mkcramfs and cramfsck in /usr/local/bin" installed_tools
man_pages() {
	cmp "$TOP/Documentation/mkcramfs.8" "$root/usr/local/share/man/man8/mkcramfs.8" &&
		cmp "$TOP/Documentation/cramfsck.8" "$root/usr/local/share/man/man8/cramfsck.8"
}
check "make tools_install DESTDIR: manual pages in /usr/local/share/man/man8" man_pages
# modprobe resolves the name through modules.dep as it would on the target.
where=$d/modprobe.out
modprobe_finds() {
	modprobe -d "$root" -S "$krel" --show-depends cramfs_xip > "$where" || return 1
	cat "$where"
	grep -q "^insmod $root/lib/modules/$krel/.*/cramfs_xip.ko" "$where"
}
check "make install DESTDIR: modprobe finds cramfs_xip under DESTDIR/lib/modules/$krel" modprobe_finds
installed_ko=$(sed -n 's/^insmod \([^ ]*\).*/\1/p' "$where")
check "the installed module is the one built" cmp "$ko" "$installed_ko"
check "the installed module's vermagic is the kernel's ($vermagic)" \
	test "$(modinfo -F vermagic "$installed_ko" | sed 's/ *$//')" = "$vermagic"
outside() {
	if [ $host_had = 1 ] || [ ! -e "$host_mods" ]; then
		return 0
	fi
	echo "make install wrote $host_mods (removed)"
	find "$host_mods"
	rm -rf "$host_mods"
	rmdir /lib/modules 2> /dev/null
	return 1
}
check "make install DESTDIR: nothing written to /lib/modules/$krel" outside
own_root() {
	kmake modules_install INSTALL_MOD_PATH="$d/modroot" DESTDIR="$root-unused" &&
		cmp "$ko" "$(find "$d/modroot/lib/modules/$krel" -name cramfs_xip.ko)" &&
		[ ! -e "$root-unused" ]
}
check "INSTALL_MOD_PATH puts the module under another root than DESTDIR" own_root

# DKMS: our dkms.conf as the user guide says to use it, with trees of its own.
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")
dk=$d/dkms
if command -v dkms > /dev/null; then
	copy_sources "$dk/src/cramfs-xip-$ver"
	mkdir -p "$dk/tree"
	dkms_built() {
		# dkms passes no ARCH to make: the environment does. Its strip -g of
		# an ARM module fails on this host, harmlessly.
		ARCH=arm CROSS_COMPILE=$cross dkms build -m cramfs-xip -v "$ver" -k "$krel" -a arm \
			--kernelsourcedir "$kb" --dkmstree "$dk/tree" --sourcetree "$dk/src"
	}
	dko=$dk/tree/cramfs-xip/$ver/$krel/arm/module/cramfs_xip.ko
	dkms_made_ko() { dkms_built && [ -f "$dko" ]; }
	check "dkms build cramfs-xip/$ver for $krel: exit 0, cramfs_xip.ko made" dkms_made_ko
	check "the DKMS module is cramfs_xip with the kernel's vermagic" \
		test "$(modinfo -F name "$dko" 2> /dev/null):$(modinfo -F vermagic "$dko" 2> /dev/null | sed 's/ *$//')" = \
		"cramfs_xip:$vermagic"
	dkms_status() {
		dkms status -m cramfs-xip -v "$ver" -k "$krel" -a arm --dkmstree "$dk/tree" \
			--sourcetree "$dk/src" > "$dk/status" || return 1
		cat "$dk/status"
		grep -q "^cramfs-xip/$ver, $krel, arm: built" "$dk/status"
	}
	check "dkms status: cramfs-xip/$ver built for $krel" dkms_status
else
	skip "dkms build: dkms not installed (scripts/setup-host.sh)"
	skip "the DKMS module's vermagic: dkms not installed"
	skip "dkms status: dkms not installed"
fi
