#!/bin/bash
# doc/DESIGN.md's "tested in" column names real tests: each `NAME` after "unit" is
# tests/unit/test-NAME.c, each `FILE.sh` after "integration" is in tests/integration/, after
# "lab" in lab/scenarios/; and each stage row names at least one.
#   tests/design-tested-in.sh SOURCE-ROOT
set -uo pipefail
root=${1:-.}
design=$root/doc/DESIGN.md
bad=0 rows=0 refs=0
while IFS= read -r row; do
	stage=$(printf '%s\n' "$row" | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')
	cell=$(printf '%s\n' "$row" | awk -F'|' '{ print $(NF - 1) }')
	rows=$((rows + 1))
	kind= n=0
	for w in $cell; do
		case $w in
		unit | integration | lab) kind=$w; continue ;;
		\`*\`*) ;;
		*) continue ;;
		esac
		name=${w#\`}; name=${name%%\`*}
		case $kind in
		unit) f=tests/unit/test-$name.c ;;
		integration) f=tests/integration/$name ;;
		lab) f=lab/scenarios/$name ;;
		*) echo "design-tested-in: $stage: \`$name\` before unit, integration or lab"; bad=1; continue ;;
		esac
		n=$((n + 1))
		[ -f "$root/$f" ] || { echo "design-tested-in: $stage: $f does not exist"; bad=1; }
	done
	refs=$((refs + n))
	[ "$n" -gt 0 ] || { echo "design-tested-in: $stage: no test named"; bad=1; }
done < <(awk -F'|' '/^\| stage \|.*\| tested in \|$/ { on = 1; next }
	on && /^\|---/ { next } on && /^\|/ { print; next } { on = 0 }' "$design")
[ "$rows" -gt 0 ] || { echo "design-tested-in: no table with a tested-in column in $design"; exit 1; }
echo "design-tested-in: $rows stages, $refs tests named"
exit "$bad"
