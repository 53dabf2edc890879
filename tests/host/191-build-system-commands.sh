#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Buildroot's and Yocto's own commands, with their variables and exported
# environment, against the vexpress-a9 6.1 kernel make check boots (the
# module is cross-built for ARM; nothing is loaded), and the layers in
# contrib/ run as far as a machine without those build systems can. No
# network: the command lines are copied here from
#
# Buildroot (github.com/buildroot/buildroot, e991fa0716, 2026-08-22):
#  - package/pkg-kernel-module.mk, <PKG>_KERNEL_MODULES_BUILD and _INSTALL:
#      $(LINUX_MAKE_ENV) $(BR2_MAKE) -C $(LINUX_DIR) $(LINUX_MAKE_FLAGS)
#        $(<PKG>_MODULE_MAKE_OPTS) PWD=$(@D)/. M=$(@D)/. modules   (then modules_install)
#  - linux/linux.mk: LINUX_MAKE_FLAGS = HOSTCC="$(HOSTCC) $(HOST_CFLAGS) $(HOST_LDFLAGS)"
#      ARCH=$(KERNEL_ARCH) KCFLAGS="$(LINUX_CFLAGS)" INSTALL_MOD_PATH=$(TARGET_DIR)
#      CROSS_COMPILE="$(TARGET_CROSS)" WERROR=0 REGENERATE_PARSERS=1 DEPMOD=true
#      (LINUX_CFLAGS += -Wno-attribute-alias with gcc 8+); LINUX_MAKE_ENV =
#      $(HOST_MAKE_ENV) BR_BINARIES_DIR=$(BINARIES_DIR)
#  - package/Makefile.in: HOST_MAKE_ENV = GIT_DIR=. PATH=... PKG_CONFIG...;
#      HOST_CONFIGURE_OPTS = $(HOST_MAKE_ENV) ... CC="$(HOSTCC)" CPPFLAGS="$(HOST_CPPFLAGS)"
#      CFLAGS="$(HOST_CFLAGS)" LDFLAGS="$(HOST_LDFLAGS)" (HOST_CPPFLAGS = -I$(HOST_DIR)/include,
#      HOST_CFLAGS = -O2 $(HOST_CPPFLAGS), HOST_LDFLAGS = -L$(HOST_DIR)/lib -Wl,-rpath,...);
#      the top Makefile exports HOSTCC and unexports CC, CFLAGS, ARCH, CROSS_COMPILE.
#  - fs/cramfs/cramfs.mk: $(HOST_DIR)/bin/mkcramfs $(CRAMFS_OPTS) $(TARGET_DIR) $@
# OE-core (github.com/openembedded/openembedded-core, 35a2c6ed79, 2026-08-22):
#  - meta/classes-recipe/module.bbclass: EXTRA_OEMAKE += "KERNEL_SRC=${STAGING_KERNEL_DIR}";
#      module_do_compile: unset CFLAGS CPPFLAGS CXXFLAGS LDFLAGS; oe_runmake
#        KERNEL_PATH=${STAGING_KERNEL_DIR} KERNEL_VERSION=${KERNEL_VERSION} CC="${KERNEL_CC}"
#        LD="${KERNEL_LD}" AR="${KERNEL_AR}" OBJCOPY="${KERNEL_OBJCOPY}" STRIP="${KERNEL_STRIP}"
#        O=${STAGING_KERNEL_BUILDDIR} KBUILD_EXTRA_SYMBOLS="..." ${MAKE_TARGETS} (none)
#      module_do_install: the same unset; oe_runmake DEPMOD=echo
#        MODLIB="${D}${nonarch_base_libdir}/modules/${KERNEL_VERSION}"
#        INSTALL_FW_PATH="${D}${firmwaredir}" CC= LD= OBJCOPY= STRIP= O= KBUILD_EXTRA_SYMBOLS=
#        modules_install; then it copies ${B}/Module.symvers
#  - module-base.bbclass: export ARCH, OS, CROSS_COMPILE, KBUILD_OUTPUT=${STAGING_KERNEL_BUILDDIR},
#      KERNEL_VERSION, LOCALVERSION
#  - conf/bitbake.conf: EXTRA_OEMAKE = "", oe_runmake is make ${EXTRA_OEMAKE}; CC, CPPFLAGS,
#      CFLAGS and LDFLAGS exported, which native.bbclass sets to the BUILD_* values
#  - image_types.bbclass: IMAGE_CMD:cramfs = "mkfs.cramfs ..." (util-linux-native)
# checks: 16
. "$(dirname "$0")/lib.sh"
d=$WORK/build-system-commands
rm -rf "$d"
mkdir -p "$d"
ver=$(cat "$TOP/VERSION")
# A copy of the sources, so that no object lands in the checkout.
copy_sources() {
	mkdir -p "$1"
	(cd "$TOP" && cp -r Kbuild Makefile VERSION LICENSE fs scripts Documentation contrib "$1/")
	find "$1" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name 'modules.order' -o -name 'Module.symvers' \) -delete
	rm -f "$1/scripts/mkcramfs" "$1/scripts/cramfsck"
}

# The host tools. A compiler that logs its arguments: the CC given is the
# one that compiles and links, with each flag given.
cat > "$d/logcc" <<EOF
#!/bin/sh
echo "\$*" >> "$d/cc.log"
exec cc "\$@"
EOF
chmod +x "$d/logcc"
# compiled_with LOG FLAG: every compiler run of both tools had FLAG.
compiled_with() {
	cat "$1"
	[ "$(grep -c -- ' -o scripts/\(mkcramfs\|cramfsck\) ' "$1")" = 2 ] || return 1
	[ "$(grep -- ' -o scripts/\(mkcramfs\|cramfsck\) ' "$1" | grep -c -- "$2")" = 2 ]
}
# Buildroot's host package (contrib/buildroot/package/cramfs-xip/cramfs-xip.mk):
# $(HOST_MAKE_ENV) $(MAKE) $(HOST_CONFIGURE_OPTS) -C $(@D) tools, with HOSTCC
# exported by Buildroot's Makefile (the same compiler).
br=$d/buildroot
hostdir=$br/host
copy_sources "$br/src"
: > "$d/cc.log"
id=0xfeedc0defeedc0de
env HOSTCC="$d/logcc" GIT_DIR=. PATH="$PATH" make -C "$br/src" CC="$d/logcc" \
	CPPFLAGS="-I$hostdir/include -DBR_CPPFLAGS_SEEN" \
	CFLAGS="-O2 -I$hostdir/include -DBR_CFLAGS_SEEN" \
	LDFLAGS="-L$hostdir/lib -Wl,-rpath,$hostdir/lib -Wl,--build-id=$id" tools > "$br/tools.log" 2>&1
cp "$d/cc.log" "$br/cc.log"
check "Buildroot host package, make tools: the CC given compiles and links both tools" \
	compiled_with "$br/cc.log" "^"
check "... with its CPPFLAGS" compiled_with "$br/cc.log" "-DBR_CPPFLAGS_SEEN"
check "... with its CFLAGS" compiled_with "$br/cc.log" "-DBR_CFLAGS_SEEN"
build_id() { readelf -n "$1" | grep -q "Build ID: ${id#0x}$"; }
check "... with its LDFLAGS (the build ID given is in both tools)" \
	eval 'build_id "$br/src/scripts/mkcramfs" && build_id "$br/src/scripts/cramfsck"'
# ... install: $(MAKE) $(HOST_CONFIGURE_OPTS) -C $(@D) PREFIX=$(HOST_DIR) tools_install
env HOSTCC="$d/logcc" make -C "$br/src" CC="$d/logcc" PREFIX="$hostdir" tools_install > "$br/install.log" 2>&1
# Then fs/cramfs.mk's command, with CRAMFS_OPTS for little-endian XIP with an MMU.
mkdir -p "$br/target/bin"
bb=$(busybox_armhf)
[ -f "$bb" ] && cp "$bb" "$br/target/bin/busybox" || cp "$MKCRAMFS" "$br/target/bin/"
echo hello > "$br/target/hello"
image_type() {
	cat "$br/install.log"
	"$hostdir/bin/mkcramfs" -L -X -X "$br/target" "$br/rootfs.cramfs" &&
		"$hostdir/bin/cramfsck" "$br/rootfs.cramfs" &&
		[ -f "$hostdir/share/man/man8/mkcramfs.8" ] && [ -f "$hostdir/share/man/man8/cramfsck.8" ]
}
check "Buildroot, tools_install PREFIX=\$(HOST_DIR): fs/cramfs.mk's \$(HOST_DIR)/bin/mkcramfs -L -X -X makes an image cramfsck passes" \
	image_type
# The post-image script: rootfs.cramfs-xip from rootfs.tar, owners kept.
mkdir -p "$br/images"
post_image() {
	tar -cf "$br/images/rootfs.tar" --owner=0 --group=0 -C "$br/target" . &&
		HOST_DIR=$hostdir BUILD_DIR=$br "$br/src/contrib/buildroot/board/cramfs-xip/post-image.sh" \
			"$br/images" -L -X -X &&
		"$hostdir/bin/cramfsck" -l "$br/images/rootfs.cramfs-xip" > "$br/post-image.list" &&
		grep -E '^-.* 0 +0 .*/hello$' "$br/post-image.list"
}
if command -v fakeroot > /dev/null; then
	check "Buildroot post-image.sh: rootfs.cramfs-xip from rootfs.tar, owned by root" post_image
else
	skip "Buildroot post-image.sh: fakeroot not installed"
fi

# Yocto's native recipe (contrib/meta-cramfs-xip/recipes-devtools/cramfs-xip-tools):
# CC, CPPFLAGS, CFLAGS and LDFLAGS exported, not on the command line.
yo=$d/yocto
copy_sources "$yo/tools"
: > "$d/cc.log"
env -u HOSTCC CC="$d/logcc" CPPFLAGS="-isystem$yo/sysroot/usr/include -DOE_CPPFLAGS_SEEN" \
	CFLAGS="-O2 -pipe -DOE_CFLAGS_SEEN" LDFLAGS="-L$yo/sysroot/usr/lib -Wl,--build-id=$id" \
	make -C "$yo/tools" tools > "$yo/tools.log" 2>&1
cp "$d/cc.log" "$yo/cc.log"
native_flags() {
	compiled_with "$yo/cc.log" "-DOE_CPPFLAGS_SEEN" && compiled_with "$yo/cc.log" "-DOE_CFLAGS_SEEN" &&
		build_id "$yo/tools/scripts/mkcramfs"
}
check "Yocto native recipe, oe_runmake tools: the exported CC, CPPFLAGS, CFLAGS and LDFLAGS" native_flags
# do_install: oe_runmake tools_install DESTDIR=${D} PREFIX=${prefix}, ${prefix}
# being the native sysroot's usr.
native_install() {
	env -u HOSTCC CC="$d/logcc" make -C "$yo/tools" tools_install DESTDIR="$yo/image" \
		PREFIX="$yo/sysroot/usr" || return 1
	(cd "$yo/image" && find . -type f | sort) | tee "$yo/image.list"
	[ -x "$yo/image$yo/sysroot/usr/bin/mkcramfs" ] && [ -x "$yo/image$yo/sysroot/usr/bin/cramfsck" ] &&
		! grep -q 'cramfs\.cramfs\|mkfs\.cramfs\|fsck\.cramfs' "$yo/image.list"
}
check "... do_install: mkcramfs, cramfsck in \${D}\${prefix}/bin, no mkfs.cramfs or fsck.cramfs (util-linux-native's)" \
	native_install
# The image type: IMAGE_CMD:cramfs-xip with its EXTRA_IMAGECMD, as bitbake
# would expand it, mkcramfs found in the native sysroot's bin.
image_cmd() {
	local cls=$yo/tools/contrib/meta-cramfs-xip/classes-recipe/image_types_cramfs_xip.bbclass cmd extra
	cmd=$(sed -n 's/^IMAGE_CMD:cramfs-xip = "\(.*\)"$/\1/p' "$cls")
	extra=$(sed -n 's/^EXTRA_IMAGECMD:cramfs-xip ?= "\(.*\)"$/\1/p' "$cls")
	grep -qx 'do_image_cramfs_xip\[depends\] += "cramfs-xip-tools-native:do_populate_sysroot"' "$cls" || return 1
	[ -n "$cmd" ] && [ -n "$extra" ] || return 1
	cmd=${cmd//'${EXTRA_IMAGECMD}'/$extra}
	cmd=${cmd//'${IMAGE_ROOTFS}'/$br/target}
	cmd=${cmd//'${IMGDEPLOYDIR}'/$yo/deploy}
	cmd=${cmd//'${IMAGE_NAME}'/core-image}
	echo "$cmd"
	mkdir -p "$yo/deploy"
	PATH="$yo/image$yo/sysroot/usr/bin:$PATH" sh -c "$cmd" &&
		"$CRAMFSCK" --layout "$yo/deploy/core-image.cramfs-xip" | grep -q ': xip at'
}
check "Yocto image type cramfs-xip: IMAGE_CMD makes an image whose programs are in place" image_cmd

# The layers carry the commands run above.
layers() {
	local mk=$TOP/contrib/buildroot/package/cramfs-xip/cramfs-xip.mk
	local bb=$TOP/contrib/meta-cramfs-xip/recipes-kernel/cramfs-xip/cramfs-xip.bb
	local nbb=$TOP/contrib/meta-cramfs-xip/recipes-devtools/cramfs-xip-tools/cramfs-xip-tools-native.bb
	grep -qx 'CRAMFS_XIP_MODULE_MAKE_OPTS = CONFIG_CRAMFS_XIP=m' "$mk" &&
		grep -qx '\$(eval \$(kernel-module))' "$mk" &&
		grep -qxF '	$(HOST_MAKE_ENV) $(MAKE) $(HOST_CONFIGURE_OPTS) -C $(@D) tools' "$mk" &&
		grep -qxF '	$(HOST_MAKE_ENV) $(MAKE) $(HOST_CONFIGURE_OPTS) -C $(@D) PREFIX=$(HOST_DIR) tools_install' "$mk" &&
		grep -qx 'inherit module externalsrc' "$bb" &&
		grep -qx 'inherit native externalsrc' "$nbb" &&
		grep -qxF '	oe_runmake tools_install DESTDIR=${D} PREFIX=${prefix}' "$nbb" &&
		! grep -rq 'mkfs\.cramfs"' "$TOP/contrib/meta-cramfs-xip"
}
check "the Buildroot package and Yocto recipes hold the commands run above" layers

# The module: a kernel tree is needed from here on.
kb=$(prepared_kernel)
cross=${CROSS_COMPILE:-arm-linux-gnueabi-}
n_module=6
if [ -z "$kb" ] || ! command -v "${cross}gcc" > /dev/null; then
	for i in $(seq $n_module); do
		skip "the module's build and install: no prepared vexpress-a9 6.1 kernel, or no ${cross}gcc (make check builds both)"
	done
	exit 0
fi
ksrc=$(readlink -f "$kb/source")
krel=$(cat "$kb/include/config/kernel.release")
vermagic=$(modinfo -F vermagic "$kb/fs/cramfs/cramfs.ko" | sed "s/ *$//")
# the_module KO: cramfs_xip, this release, the kernel's vermagic.
the_module() {
	[ -f "$1" ] || { echo "no $1"; return 1; }
	modinfo "$1" | grep -E '^(name|version|vermagic):'
	[ "$(modinfo -F name "$1"):$(modinfo -F version "$1"):$(modinfo -F vermagic "$1" | sed 's/ *$//')" = \
		"cramfs_xip:$ver:$vermagic" ]
}
# A CFLAGS and LDFLAGS that fail any compiler or linker using them: the
# module's build must not.
poison=(CFLAGS="-DPOISON -mno-such-option" CPPFLAGS=-mno-such-option LDFLAGS=-Wl,--no-such-option)

# Buildroot: the kernel's make, run by pkg-kernel-module.mk, not our Makefile.
copy_sources "$br/mod"
linux_make_flags=(HOSTCC="gcc -O2 -isystem $hostdir/include -L$hostdir/lib -Wl,-rpath,$hostdir/lib"
	ARCH=arm KCFLAGS="-Wno-attribute-alias" INSTALL_MOD_PATH="$br/target" CROSS_COMPILE="$cross"
	WERROR=0 REGENERATE_PARSERS=1 DEPMOD=true)
br_make() {
	env GIT_DIR=. PATH="$PATH" BR_BINARIES_DIR="$br/images" HOSTCC=gcc "${poison[@]}" \
		make -C "$kb" "${linux_make_flags[@]}" CONFIG_CRAMFS_XIP=m PWD="$br/mod/." M="$br/mod/." "$@"
}
check "Buildroot kernel-module: make -C \$(LINUX_DIR) \$(LINUX_MAKE_FLAGS) CONFIG_CRAMFS_XIP=m M=\$(@D) modules, CFLAGS and LDFLAGS poisoned" \
	eval 'br_make modules && the_module "$br/mod/fs/cramfs_xip/cramfs_xip.ko"'
br_installed() {
	br_make modules_install || return 1
	local ko
	ko=$(find "$br/target/lib/modules/$krel" -name cramfs_xip.ko)
	echo "$ko"
	[ -n "$ko" ] && cmp "$br/mod/fs/cramfs_xip/cramfs_xip.ko" "$ko"
}
check "... modules_install: \$(TARGET_DIR)/lib/modules/$krel holds the module" br_installed
# Without CONFIG_CRAMFS_XIP=m (a package that leaves the option out, DKMS's
# plain make -C KDIR M=): the module all the same.
copy_sources "$d/plain"
check "make -C KDIR M=... modules alone builds cramfs_xip.ko" \
	eval 'make -C "$kb" ARCH=arm CROSS_COMPILE="$cross" M="$d/plain" modules &&
		the_module "$d/plain/fs/cramfs_xip/cramfs_xip.ko"'

# Yocto: module.bbclass runs our Makefile, the kernel source and build apart.
copy_sources "$yo/mod"
yo_make() {
	(
		unset CFLAGS CPPFLAGS CXXFLAGS LDFLAGS KDIR
		export ARCH=arm OS=linux-gnueabi CROSS_COMPILE=$cross KBUILD_OUTPUT=$kb KERNEL_VERSION=$krel LOCALVERSION=
		cd "$yo/mod" && make KERNEL_SRC="$ksrc" "$@"
	)
}
yo_compile() {
	yo_make KERNEL_PATH="$ksrc" KERNEL_VERSION="$krel" CC="${cross}gcc" LD="${cross}ld.bfd" \
		AR="${cross}ar" OBJCOPY="${cross}objcopy" STRIP="${cross}strip" O="$kb" KBUILD_EXTRA_SYMBOLS=
}
check "Yocto module.bbclass do_compile: oe_runmake KERNEL_SRC= KERNEL_PATH= KERNEL_VERSION= CC= LD= O=<kernel build>" \
	eval 'yo_compile && the_module "$yo/mod/fs/cramfs_xip/cramfs_xip.ko"'
yo_install() {
	yo_make DEPMOD=echo MODLIB="$yo/image/lib/modules/$krel" INSTALL_FW_PATH="$yo/image/lib/firmware" \
		CC="${cross}gcc" LD="${cross}ld.bfd" OBJCOPY="${cross}objcopy" STRIP="${cross}strip" O="$kb" \
		KBUILD_EXTRA_SYMBOLS= modules_install || return 1
	local ko
	ko=$(find "$yo/image/lib/modules/$krel" -name cramfs_xip.ko)
	echo "$ko"
	[ -n "$ko" ] && cmp "$yo/mod/fs/cramfs_xip/cramfs_xip.ko" "$ko" && [ -f "$yo/mod/Module.symvers" ]
}
check "... do_install: modules_install DEPMOD=echo MODLIB=\${D}/lib/modules/$krel, and \${B}/Module.symvers" yo_install

# make install DESTDIR=<a target's root>: the module only.
copy_sources "$d/inst"
root=$d/inst-root
target_only() {
	make -C "$d/inst" KDIR="$kb" ARCH=arm CROSS_COMPILE="$cross" || return 1
	make -C "$d/inst" KDIR="$kb" ARCH=arm CROSS_COMPILE="$cross" install DESTDIR="$root" || return 1
	(cd "$root" && find . -type f | sort) | tee "$d/inst.list"
	grep -q "^\./lib/modules/$krel/.*/cramfs_xip\.ko$" "$d/inst.list" &&
		! grep -v "^\./lib/modules/" "$d/inst.list"
}
check "make install DESTDIR=<target root>: the module, and no host tool or other file" target_only
