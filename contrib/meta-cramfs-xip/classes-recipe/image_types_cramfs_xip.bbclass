# SPDX-License-Identifier: GPL-2.0
# The image type cramfs-xip: cramfs whose programs run in place, made by
# cramfs-xip-tools-native's mkcramfs (OE-core's type cramfs stays
# util-linux's mkfs.cramfs, which cannot). In local.conf or the image:
#   IMAGE_CLASSES += "image_types_cramfs_xip"
#   IMAGE_FSTYPES += "cramfs-xip"
#   EXTRA_IMAGECMD:cramfs-xip = "-B -X -X"   (big-endian; one -X without an MMU)
IMAGE_TYPES += "cramfs-xip"
EXTRA_IMAGECMD:cramfs-xip ?= "-L -X -X"
IMAGE_CMD:cramfs-xip = "mkcramfs ${EXTRA_IMAGECMD} ${IMAGE_ROOTFS} ${IMGDEPLOYDIR}/${IMAGE_NAME}.cramfs-xip"
do_image_cramfs_xip[depends] += "cramfs-xip-tools-native:do_populate_sysroot"
