#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The command table (src/cmd/commands.h) against what a user sees: every listed command of
# each program in its -h (made from the table) and in its man page, and each of the helper's
# long options among those core/cmdline.c reads.
# commands.sh COMMANDS_H HELPER NFS_TUNED MANDIR
set -u
table=$1 helper=$2 admin=$3 man=$4
fail=0

# "PROGRAM NAME" for each row with a help line (HELPER(..., "name", fn, args, help) ...)
rows() {
	tr '\n' ' ' < "$table" | sed 's/\\ //g' | grep -oE '(HELPER|ADMIN)\([A-Z_]+, "[^"]*", [a-z_]+, (NULL|"[^"]*")' |
		grep -v ', NULL$' | sed -E 's/^(HELPER|ADMIN)\([A-Z_]+, "([^"]*)".*/\1 \2/'
}

n=0
while read -r prog name; do
	[ -n "$name" ] || continue
	n=$((n + 1))
	case $prog in
	HELPER) bin=$helper page=$man/mount.nfs-tuned.8 ;;
	ADMIN) bin=$admin page=$man/nfs-tuned.8 ;;
	esac
	"$bin" -h | grep -qE "^  $name( |$)" || { echo "commands: $name is not in $(basename "$bin") -h" >&2; fail=1; }
	# the helper's long options are read by core/cmdline.c, which picks the row by mode
	if [ "$prog" = HELPER ] && [[ $name == --* ]]; then
		grep -qF "{ \"$name\"," "$(dirname "$table")/../core/cmdline.c" ||
			{ echo "commands: $name is not among core/cmdline.c's long options" >&2; fail=1; }
	fi
	roff=$(sed 's/-/\\-/g' <<< "$name")
	grep -qF -- "$roff" "$page" || { echo "commands: $name is not in $(basename "$page")" >&2; fail=1; }
done < <(rows)
[ "$n" -ge 5 ] || { echo "commands: only $n rows read from $table" >&2; fail=1; }
[ "$fail" = 0 ] && echo "commands: $n commands, each in its program's -h and man page"
exit "$fail"
