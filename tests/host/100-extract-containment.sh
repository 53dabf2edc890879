#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cramfsck -x on hostile images (tests/fuzz/mkhostile.py): duplicate names in
# every order, symlink then directory or file, absolute and .. targets, bad
# names, shared directories. Nothing outside the target may change; a refused
# image leaves no target behind.
. "$(dirname "$0")/lib.sh"
d=$WORK/contain
rm -rf "$d"
mkdir -p "$d/corpus" "$d/log"
out=$d/outside
python3 "$TOP/tests/fuzz/mkhostile.py" "$d/corpus" "$out"

fresh_outside() {
	rm -rf "$out" "$d/root"
	mkdir -p "$out/dir" "$d/root"
	echo original > "$out/victim"
	chmod 0644 "$out/victim"
	chmod 0755 "$out/dir"
	touch -d '2001-01-01' "$out/victim" "$out/dir" "$out"
}

# Everything under $d except the target's parent, with contents.
snapshot() {
	(cd "$d" && find . -path ./root -prune -o -path ./corpus -prune -o -path ./log -prune -o \
		-printf '%p %y %m %s %U %G %T@ %l\n' | LC_ALL=C sort
	 md5sum "$out/victim")
}

# contained IMAGE: the extraction changed nothing outside and did what
# IMAGE.expect says.
contained() {
	local img=$1 expect rc
	expect=$(cat "${img%.img}.expect")
	fresh_outside
	snapshot > "$d/log/before"
	timeout 20 "$CRAMFSCK" -x "$d/root/t" "$img" > "$d/log/out" 2>&1
	rc=$?
	snapshot > "$d/log/after"
	if ! diff "$d/log/before" "$d/log/after"; then
		echo "changed outside the target (exit $rc)"
		cat "$d/log/out"
		return 1
	fi
	if [ -n "$(find "$d/root" -mindepth 1 -maxdepth 1 ! -name t)" ]; then
		echo "made something next to the target:"
		ls -la "$d/root"
		return 1
	fi
	case $expect in
	refuse)
		[ $rc -eq 4 ] || { echo "exit $rc, wanted 4"; cat "$d/log/out"; return 1; }
		[ ! -e "$d/root/t" ] || { echo "a refused image left a target:"; find "$d/root/t"; return 1; }
		;;
	extract)
		[ $rc -eq 0 ] || { echo "exit $rc, wanted 0"; cat "$d/log/out"; return 1; }
		;;
	esac
}

n=$(ls "$d"/corpus/*.img | wc -l)
plan $((n + 2))
for img in "$d"/corpus/*.img; do
	check "$(basename "$img" .img): $(sed 's/e$//' "${img%.img}.expect")ed, nothing outside changed" \
		bash -c "$(declare -f contained fresh_outside snapshot); d='$d' out='$out' \
			CRAMFSCK='$CRAMFSCK' contained '$img'"
done
check "corpus has the hostile cases ($n images)" test "$n" -ge 60

fresh_outside
"$CRAMFSCK" -x "$d/root/t" "$d/corpus/symlink-targets.img" > /dev/null 2>&1
check "symlink targets extracted as symlinks, verbatim" \
	test "$(readlink "$d/root/t/abs-file")" = "$out/victim" -a \
	"$(readlink "$d/root/t/dotdot-deep")" = "../../../../../../../../../../etc/passwd" -a \
	-L "$d/root/t/dotdot"
