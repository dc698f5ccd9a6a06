#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# man-check.sh PAGE...: formats each page with man(1) and fails when anything is
# printed on standard error (groff and macro warnings included), at 80 columns and at
# lintian's 120 (its groff-message check: a line groff cannot adjust shows only there).
command -v man >/dev/null 2>&1 || { echo "man(1) not installed: skipped"; exit 77; }
status=0
for page in "$@"; do
	for width in 80 120; do
		err=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=$width \
			man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
		rc=$?
		if [ "$rc" -ne 0 ] || [ -n "$err" ]; then
			printf '%s (%s columns): man exited %s\n%s\n' "$page" "$width" "$rc" "$err"
			status=1
		fi
	done
done
exit "$status"
