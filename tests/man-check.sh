#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# man-check.sh PAGE...: formats each page with man(1) and fails when anything is
# printed on standard error (groff and macro warnings included).
command -v man >/dev/null 2>&1 || { echo "man(1) not installed: skipped"; exit 77; }
status=0
for page in "$@"; do
		err=$(MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
		rc=$?
		if [ "$rc" -ne 0 ] || [ -n "$err" ]; then
				printf '%s: man exited %s\n%s\n' "$page" "$rc" "$err"
				status=1
		fi
done
exit "$status"
