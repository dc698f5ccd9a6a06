#!/bin/bash
# Every C file of src/ and tests/ as .clang-format formats it: clang-format --dry-run --Werror,
# which names each file and line it would change.  Skipped (exit 77) until the tree has been
# formatted once: the file .clang-format-enforced at the root says it has.  The formatter is
# Debian 12's clang-format (14, tests/deps.txt); another version may place a few tokens
# differently.
#   tests/clang-format-check.sh SOURCE-ROOT
set -uo pipefail
root=${1:-.}
if [ ! -e "$root/.clang-format-enforced" ]; then
	echo "clang-format-check: skipped: no $root/.clang-format-enforced (the tree is not" \
		"formatted yet; format it with clang-format -i, then create that file)"
	exit 77
fi
command -v clang-format >/dev/null ||
	{ echo "clang-format-check: no clang-format; install it (tests/deps.txt)"; exit 1; }
cd "$root" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
		'src/*.[ch]' 'tests/*.[ch]')
else
	mapfile -t files < <(find src tests -name '*.[ch]' | sort)
fi
[ ${#files[@]} -gt 0 ] || { echo "clang-format-check: no C files under $root"; exit 1; }
n=0
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	clang-format --dry-run --Werror "$f" || n=$((n + 1))
done
echo "clang-format-check: ${#files[@]} C files, $n not as .clang-format formats them"
[ "$n" = 0 ]
