# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest runners of the boards that share the test images.
#   xip_image BUSYBOX XIPTEST TREE IMAGES
#       the XIP image: BusyBox and xiptest in TREE/bin, read-only segments in
#       place (mkcramfs -X); IMAGES/xip.img, .manifest and .layout
#   root_tree ROOT BUSYBOX TESTS_DIR
#       a root tree for a root-from-flash boot: BusyBox as init (inittab runs
#       tests/guest/rootinit), lib.sh, manifest.sh and TESTS_DIR's NN-*.sh in
#       /tests; the caller may add files before root_image
#   root_image ROOT WORK START
#       /tests/env (ROOT_IMAGE_START/END: the image's physical range, from
#       START) and /tests/root.manifest, then WORK/root.img (mkcramfs -X)

xip_image() {
	local busybox=$1 xiptest=$2 x=$3 img=$4
	mkdir -p "$x/bin" "$img"
	cp "$busybox" "$xiptest" "$x/bin/"
	"$CRAMFS_XIP_TOP/scripts/mkcramfs" -X "$x" "$img/xip.img" > /dev/null
	"$CRAMFS_XIP_TOP/tests/lib/manifest.sh" "$x" 255 > "$img/xip.manifest"
	"$CRAMFS_XIP_TOP/scripts/cramfsck" --layout "$img/xip.img" > "$img/xip.layout"
}

root_tree() {
	local r=$1 busybox=$2 tests=$3 top=$CRAMFS_XIP_TOP
	mkdir -p "$r"/{bin,sbin,etc,dev,proc,sys,tmp,mnt,tests}
	cp "$busybox" "$r/bin/"
	ln -s busybox "$r/bin/sh"
	ln -s ../bin/busybox "$r/sbin/init"
	printf '::sysinit:/tests/run\n' > "$r/etc/inittab"
	cp "$top/tests/guest/rootinit" "$r/tests/run"
	cp "$top/tests/guest/lib.sh" "$top/tests/lib/manifest.sh" "$tests"/[0-9]*.sh "$r/tests/"
}

root_image() {
	local r=$1 work=$2 start=$3 top=$CRAMFS_XIP_TOP
	"$top/scripts/mkcramfs" -X "$r" "$work/probe.img" > /dev/null
	printf 'ROOT_IMAGE_START=0x%x\nROOT_IMAGE_END=0x%x\n' "$start" \
		$((start + $(stat -c %s "$work/probe.img") + 65536)) > "$r/tests/env"
	"$top/tests/lib/manifest.sh" "$r" 255 > "$work/root.manifest"
	cp "$work/root.manifest" "$r/tests/root.manifest"
	"$top/scripts/mkcramfs" -X "$r" "$work/root.img" > "$work/mkcramfs.txt"
}
