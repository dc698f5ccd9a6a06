#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The command table (src/cmd/commands.h) against what a user sees: every listed command of
# each program in its -h (made from the table) and in its man page.  The helper's names are
# its rows of RUN_MODES (src/core/cmdline.h), the same rows core/cmdline.c reads argv by.
# commands.sh COMMANDS_H HELPER NFS_TUNED MANDIR
set -u
table=$1 helper=$2 admin=$3 man=$4
fail=0

modes=$(dirname "$table")/../core/cmdline.h

# "PROGRAM NAME" for each row with a help line: ADMIN(IDX, "name", fn, args, help), and
# HELPER(MODE, fn, args, help) named by X(MODE, "name", ...) in RUN_MODES
rows() {
	local flat
	flat=$(tr '\n' ' ' < "$table" | sed 's/\\ //g')
	grep -oE 'ADMIN\([A-Z_]+, "[^"]*", [a-z_]+, (NULL|"[^"]*")' <<< "$flat" |
		grep -v ', NULL$' | sed -E 's/^ADMIN\([A-Z_]+, "([^"]*)".*/ADMIN \1/'
	grep -oE 'HELPER\([A-Z_]+, [a-z_]+, (NULL|"[^"]*")' <<< "$flat" | grep -v ', NULL$' |
		sed -E 's/^HELPER\(([A-Z_]+),.*/\1/' | while read -r mode; do
			grep -oE "X\($mode, \"[^\"]*\"" "$modes" | sed -E 's/.*, "([^"]*)"/HELPER \1/'
		done
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
	roff=$(sed 's/-/\\-/g' <<< "$name")
	grep -qF -- "$roff" "$page" || { echo "commands: $name is not in $(basename "$page")" >&2; fail=1; }
done < <(rows)
[ "$n" -ge 5 ] || { echo "commands: only $n rows read from $table" >&2; fail=1; }
[ "$fail" = 0 ] && echo "commands: $n commands, each in its program's -h and man page"
exit "$fail"
