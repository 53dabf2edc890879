# SPDX-License-Identifier: GPL-2.0
################################################################################
#
# cramfs-xip
#
################################################################################

# The sources: the checkout this external tree is part of.
CRAMFS_XIP_SITE = $(BR2_EXTERNAL_CRAMFS_XIP_PATH)/../..
CRAMFS_XIP_SITE_METHOD = local
CRAMFS_XIP_VERSION = $(shell cat $(CRAMFS_XIP_SITE)/VERSION)
CRAMFS_XIP_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = --exclude build-tests
CRAMFS_XIP_LICENSE = GPL-2.0
CRAMFS_XIP_LICENSE_FILES = LICENSE

# The module: pkg-kernel-module.mk runs make -C $(LINUX_DIR)
# $(LINUX_MAKE_FLAGS) $(CRAMFS_XIP_MODULE_MAKE_OPTS) M=$(@D) modules, then
# modules_install into $(TARGET_DIR). Nothing else goes to the target.
CRAMFS_XIP_MODULE_MAKE_OPTS = CONFIG_CRAMFS_XIP=m

# The tools, for the build host: $(HOST_DIR)/bin/mkcramfs and cramfsck.
HOST_CRAMFS_XIP_DEPENDENCIES = host-zlib host-openssl

define HOST_CRAMFS_XIP_BUILD_CMDS
	$(HOST_MAKE_ENV) $(MAKE) $(HOST_CONFIGURE_OPTS) -C $(@D) tools
endef

define HOST_CRAMFS_XIP_INSTALL_CMDS
	$(HOST_MAKE_ENV) $(MAKE) $(HOST_CONFIGURE_OPTS) -C $(@D) PREFIX=$(HOST_DIR) tools_install
endef

$(eval $(kernel-module))
$(eval $(generic-package))
$(eval $(host-generic-package))
