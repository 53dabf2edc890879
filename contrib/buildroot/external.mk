# SPDX-License-Identifier: GPL-2.0
include $(sort $(wildcard $(BR2_EXTERNAL_CRAMFS_XIP_PATH)/package/*/*.mk))
