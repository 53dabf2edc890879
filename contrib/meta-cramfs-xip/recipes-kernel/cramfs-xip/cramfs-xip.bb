# SPDX-License-Identifier: GPL-2.0
SUMMARY = "cramfs_xip.ko: cramfs with execute-in-place from memory-mapped flash"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://LICENSE;md5=b234ee4d69f5fce4486a80fdaf4a4263"
PV = "${@oe.utils.read_file(d.getVar('CRAMFS_XIP_TOP') + '/VERSION').strip()}"

# module.bbclass runs the Makefile with KERNEL_SRC, KERNEL_PATH, O= and CC=
# (do_compile: the default target, the module) and modules_install with
# MODLIB (do_install). The package is kernel-module-cramfs-xip.
inherit module externalsrc
EXTERNALSRC = "${CRAMFS_XIP_TOP}"

RPROVIDES:${PN} += "kernel-module-cramfs-xip"
