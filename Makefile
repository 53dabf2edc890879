# SPDX-License-Identifier: GPL-2.0
#
# cramfs-xip: the cramfs_xip.ko module, the host tools, and the tests.
#
#   make [KDIR=<kernel build dir>] [ARCH=arm CROSS_COMPILE=arm-linux-gnueabi-]
#   make tools | install | modules_install | tools_install | dist | check | demo | bench | badimages | fuzz | clean
#   make check-all                         (check, the 6.12 boot tests, 6.1's tiny system)
#   make check-debug | badimages-debug     (under the debug kernel)

# The release: one line in the file VERSION (the module's MODULE_VERSION
# reads it too, through fs/cramfs_xip/Makefile).
CRAMFS_XIP_VERSION := $(shell cat $(CURDIR)/VERSION)

# The kernel tree: KDIR, or Yocto's KERNEL_SRC or KERNEL_PATH (module.bbclass
# passes both, and O=<build dir>, which reaches the kernel's make as given);
# else the running kernel's.
KDIR ?= $(or $(KERNEL_SRC),$(KERNEL_PATH),/lib/modules/$(shell uname -r)/build)
PREFIX ?= /usr/local
DESTDIR ?=

# The host tools run on the build machine: compiled with HOSTCC if given,
# else CC (make's cc unless given), and the CPPFLAGS, CFLAGS and LDFLAGS
# given, as Buildroot's host packages and Yocto's native recipes pass them.
# The kernel's make, which builds the module, takes CC and CROSS_COMPILE as
# given here but ignores CFLAGS, CPPFLAGS and LDFLAGS (it reads KCFLAGS).
ifeq ($(origin HOSTCC),undefined)
TOOLS_CC = $(CC)
else
TOOLS_CC = $(HOSTCC)
endif
CFLAGS ?= -O2 -g
TOOLS_CFLAGS = -Wall -Wextra -Werror=implicit-function-declaration $(CPPFLAGS) \
	-DCRAMFS_XIP_VERSION='"$(CRAMFS_XIP_VERSION)"' $(CFLAGS)

# What the module serves besides memory-mapped MTDs (fs/cramfs_xip/Kconfig; all
# y unless given, e.g. make CONFIG_CRAMFS_XIP_PHYSADDR=n leaves physaddr= out):
# CONFIG_CRAMFS_XIP_PHYSADDR, CONFIG_CRAMFS_XIP_BLOCKDEV, CONFIG_CRAMFS_XIP_MTD_READ.
KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) CONFIG_CRAMFS_XIP=m
ifneq ($(ARCH),)
KBUILD_ARGS += ARCH=$(ARCH)
endif
ifneq ($(CROSS_COMPILE),)
KBUILD_ARGS += CROSS_COMPILE=$(CROSS_COMPILE)
endif

TOOLS := scripts/mkcramfs scripts/cramfsck

.PHONY: all modules tools install modules_install tools_install dist check check-all check-debug demo bench badimages badimages-debug fuzz clean

all: modules

modules:
	$(MAKE) $(KBUILD_ARGS) modules

# The module goes to DESTDIR/lib/modules/<kernel release>/, where modprobe
# looks, unless INSTALL_MOD_PATH (or MODLIB, the whole directory) says otherwise.
INSTALL_MOD_PATH ?= $(DESTDIR)
modules_install:
	$(MAKE) $(KBUILD_ARGS) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) modules_install

tools: $(TOOLS)

MKCRAMFS_SRCS := scripts/mkcramfs.h scripts/mkcramfs-output.c scripts/mkcramfs-tree.c \
	scripts/mkcramfs-devtable.c scripts/mkcramfs-elf.c scripts/mkcramfs-xip.c \
	scripts/mkcramfs-layout.c scripts/mkcramfs-compress.c scripts/mkcramfs-verity.c
# Both tools hash and sign with OpenSSL's libcrypto (Debian's libssl-dev).
scripts/mkcramfs scripts/cramfsck: scripts/%: scripts/%.c scripts/image.c scripts/image.h \
		scripts/verity.c scripts/verity.h fs/cramfs_xip/cramfs_xip_fs.h VERSION
	$(TOOLS_CC) $(TOOLS_CFLAGS) -Ifs/cramfs_xip -o $@ $(filter %.c,$^) $(LDFLAGS) -lz -lcrypto
scripts/mkcramfs: $(MKCRAMFS_SRCS)

# The tools for the build host, in PREFIX/bin (where Buildroot's cramfs image
# type calls $(HOST_DIR)/bin/mkcramfs), their manual pages in share/man/man8.
tools_install: tools
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 Documentation/mkcramfs.8 Documentation/cramfsck.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/

# install is modules_install: the module, for the target, into DESTDIR (a
# target's root filesystem) or INSTALL_MOD_PATH. The tools are built for
# this machine, so never installed there: make tools_install.
install: modules_install

# The source tarball cramfs-xip-VERSION.tar.gz, in DISTDIR (here unless
# given): the files git tracks, as committed in HEAD.
DISTDIR ?= .
dist:
	@git -C $(CURDIR) diff --quiet HEAD -- || echo "dist: uncommitted changes are not in the tarball" >&2
	git -C $(CURDIR) archive --format=tar.gz --prefix=cramfs-xip-$(CRAMFS_XIP_VERSION)/ \
		-o $(abspath $(DISTDIR))/cramfs-xip-$(CRAMFS_XIP_VERSION).tar.gz HEAD

# Each of these installs what it needs from Debian's archive first.
check:
	scripts/setup-host.sh
	tests/run-all.sh

# make check, and the boot tests on 6.12 too (Debian 12's other kernel) and 6.1's tiny system.
check-all:
	scripts/setup-host.sh
	CHECK_ALL=1 tests/run-all.sh

# The vexpress-a9 guest tests again under KASAN, kmemleak and lockdep: not
# part of check (a kernel build of its own, and several times slower).
check-debug:
	scripts/setup-host.sh
	SUITES=vexpress-a9-debug tests/run-all.sh

# make demo BOARD=mps2-an385: the tiny system (XIP kernel, root from flash);
# KVER=7.3: that kernel version (6.1 unless given).
BOARD ?= vexpress-a9
KVER ?=
demo:
	scripts/setup-host.sh
	BOARD=$(BOARD) KVER=$(KVER) tests/demo.sh

# The large bad-image run (BADIMAGES images from number BADIMAGES_FROM, default
# 10000 from 0): not part of check.
BADIMAGES ?= 10000
BADIMAGES_FROM ?= 0
badimages:
	scripts/setup-host.sh
	tests/badimages.sh --from $(BADIMAGES_FROM) $(BADIMAGES)

badimages-debug:
	scripts/setup-host.sh
	tests/badimages.sh --debug --from $(BADIMAGES_FROM) $(BADIMAGES)

bench:
	scripts/setup-host.sh
	$(MAKE) tools
	tests/bench.sh

clean:
	-$(MAKE) $(KBUILD_ARGS) clean 2>/dev/null
	rm -f $(TOOLS)
	rm -rf build-tests

# Fuzz the host image walker: make fuzz FUZZ_SECONDS=3600
FUZZ_SECONDS ?= 60
fuzz:
	scripts/setup-host.sh
	tests/fuzz/run.sh $(FUZZ_SECONDS)
