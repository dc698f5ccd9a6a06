#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The layer rules of CODING-STYLE.md, enforced:
#  - the core library calls nothing outside itself but what layering-core.allow lists (memory,
#    strings, parsing: no file, socket, environment or clock access, no printing);
#  - the sys library prints nothing (no stdout, stderr or syslog, no log_*());
#  - only the front (src/cmd/, the entry points and the log itself) includes shared/log.h,
#    and no floor includes one above it (shared: only shared/; core: core/ and shared/; sys:
#    no cmd/);
#  - no two core modules include each other, directly or round a longer circle;
#  - the linked setuid helper carries no code of `nfs-tuned status` (no status_* or
#    mountstats_* symbol): the mount path links only what it runs.
# layering.sh LIBCORE LIBSYS SRCDIR ALLOWLIST HELPER
set -u
core=$1 sys=$2 src=$3 allow=$4 helper=$5
fail=0

# The symbols an archive needs from outside itself: its members' undefined ones less those
# another member defines.
external() {
	comm -23 <(nm -u "$1" | awk 'NF == 2 { print $2 }' | sort -u) \
		 <(nm --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort -u)
}

bad() {
	echo "layering: $*" >&2
	fail=1
}

# who in the archive uses the symbol, for the message
users() {
	nm -A -u "$1" | awk -v s="$2" '$NF == s { split($1, f, ":"); n = split(f[2], p, "/");
						  print p[n] }' | sort -u | xargs
}

# allowed: a line of the list, or a "prefix*" line's family
allowed() {
	local a
	while read -r a; do
		case $a in
		'#'* | '') ;;
		*'*') [[ $1 == "${a%'*'}"* ]] && return 0 ;;
		*) [ "$1" = "$a" ] && return 0 ;;
		esac
	done < "$allow"
	return 1
}

while read -r sym; do
	allowed "$sym" && continue
	bad "core calls $sym (in $(users "$core" "$sym")), not in $allow: the core does no" \
	    "I/O and prints nothing; return the data (or a text) and let sys/ or cmd/ act"
done < <(external "$core")

# Printing or logging from sys/: it fetches and returns data or -errno; cmd/ says what it means.
sys_denied='^(printf|vprintf|fprintf|vfprintf|dprintf|vdprintf|puts|fputs|putchar|fputc|putc|perror|syslog|vsyslog|openlog|warn|warnx|err|errx|error|log_[a-z_]+)$'
while read -r sym; do
	bad "sys calls $sym (in $(users "$sys" "$sym")): sys/ never prints; return -errno" \
	    "and let cmd/ say it"
done < <(external "$sys" | grep -E "$sys_denied")

# The helper as linked, not its objects: a call into status' code anywhere on the mount path
# drags the analysis into the setuid binary.
while read -r sym; do
	bad "$helper has $sym: the setuid helper links status' analysis; give what the mount" \
	    "path needs a file of its own (as core/fstab.c, core/udevrule.c)"
done < <(nm "$helper" | awk '{ print $NF }' | grep -E '^(status_|mountstats_)' | sort -u)

# Includes: "FILE:LINE: what" for each include a file's floor may not have.
includes() { # FLOOR-GLOB... -- PATTERN
	local files=() pat
	while [ "$1" != -- ]; do files+=("$1"); shift; done
	pat=$2
	grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"($pat)" "${files[@]}" 2>/dev/null
}
cd "$src" || exit 1
while IFS= read -r hit; do
	bad "$hit: only src/cmd/ and the entry points include the log header; a lower floor" \
	    "returns findings (core/findings.h) or -errno"
done < <(includes core/* sys/* shared/*.h -- 'shared/log\.h')
while IFS= read -r hit; do
	bad "$hit: shared/ is the floor below all others and includes only shared/ headers; move" \
	    "what it needs down into shared/"
done < <(includes shared/* -- 'core/|sys/|cmd/')
while IFS= read -r hit; do
	bad "$hit: core/ includes only core/ and shared/ headers"
done < <(includes core/* -- 'sys/|cmd/')
while IFS= read -r hit; do
	bad "$hit: sys/ includes no cmd/ header"
done < <(includes sys/* -- 'cmd/')

# No circle inside the core: module X (core/X.c, core/X.h) including core/Y.h is an edge X Y;
# tsort names the modules of a loop.
loop=$(for f in core/*.[ch]; do
	m=${f#core/}
	grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"core/[a-z0-9_-]+\.h"' "$f" |
		sed -E 's/.*"core\/([a-z0-9_-]+)\.h"/\1/' | grep -vx "${m%.?}" |
		sed "s/^/${m%.?} /"
done | tsort 2>&1 >/dev/null)
[ -n "$loop" ] && bad "the core's modules include each other in a circle (one of them should" \
	"own what both need): $(echo "$loop" | sed 's/^tsort: //' | tr '\n' ' ')"

[ "$fail" = 0 ] && echo "layering: core calls $(external "$core" | wc -l) outside symbols, all allowed; includes keep their floors"
exit "$fail"
