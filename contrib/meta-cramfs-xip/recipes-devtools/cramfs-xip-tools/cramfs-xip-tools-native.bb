# SPDX-License-Identifier: GPL-2.0
SUMMARY = "mkcramfs and cramfsck of cramfs-xip, for the build host"
DESCRIPTION = "Images whose programs run in place (mkcramfs -X -X). \
It installs mkcramfs and cramfsck only: mkfs.cramfs and fsck.cramfs stay \
util-linux-native's, which the image type cramfs keeps using (and util-linux's \
fsck.cramfs refuses -X images)."
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://LICENSE;md5=b234ee4d69f5fce4486a80fdaf4a4263"
PV = "${@oe.utils.read_file(d.getVar('CRAMFS_XIP_TOP') + '/VERSION').strip()}"

inherit native externalsrc
EXTERNALSRC = "${CRAMFS_XIP_TOP}"
DEPENDS = "zlib-native openssl-native"

# native.bbclass exports CC, CPPFLAGS, CFLAGS and LDFLAGS for the build host.
do_configure[noexec] = "1"
do_compile() {
	oe_runmake tools
}
do_install() {
	oe_runmake tools_install DESTDIR=${D} PREFIX=${prefix}
}
