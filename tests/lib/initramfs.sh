# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest runners: pack a staging directory as a gzip'd cpio
# with the kernel's gen_init_cpio, so /dev/console exists without root.
#   mk_initramfs STAGING KBUILD OUT.cpio.gz

mk_initramfs() {
	local stage=$1 kbuild=$2 out=$3 list=$3.list p
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort) | while IFS= read -r p; do
			p=${p#./}
			if [ -L "$stage/$p" ]; then
				echo "slink /$p $(readlink "$stage/$p") 0777 0 0"
			elif [ -d "$stage/$p" ]; then
				[ "$p" = dev ] || echo "dir /$p 0755 0 0"
			else
				echo "file /$p $stage/$p $(stat -c %a "$stage/$p") 0 0"
			fi
		done
	} > "$list"
	"$kbuild/usr/gen_init_cpio" "$list" | gzip -1 > "$out"
}
