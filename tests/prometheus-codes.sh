#!/bin/bash
# Every finding code of src/core/status.h has an alert in contrib/prometheus/nfs-tuned.rules.yml
# (a code named in an alert's expr), and every code an alert names exists: a new finding
# cannot ship without one, a renamed one cannot leave an alert that never fires.
#   tests/prometheus-codes.sh SOURCE-ROOT
set -uo pipefail
root=${1:-.}
header=$root/src/core/status.h
rules=$root/contrib/prometheus/nfs-tuned.rules.yml
codes=$(sed -n 's/^#define F_[A-Z0-9_]* "\([a-z0-9-]*\)"$/\1/p' "$header" | sort -u)
# the codes the alerts match: code="x" and code=~"x|y"
named=$(grep -E '^ *expr:.*nfs_tuned_findings' "$rules" |
	grep -oE 'code=~?"[^"]*"' | sed 's/^code=~\{0,1\}"//; s/"$//' | tr '|' '\n' | sort -u)
[ -n "$codes" ] || { echo "prometheus-codes: no finding code found in $header (#define F_* \"code\")"; exit 1; }
bad=0
for c in $codes; do
	grep -qxF -- "$c" <<<"$named" || {
		echo "prometheus-codes: finding code $c ($header) has no alert in $rules: add it to an alert's expr, or say there why not"
		bad=1
	}
done
for c in $named; do
	grep -qxF -- "$c" <<<"$codes" || {
		echo "prometheus-codes: $rules names code $c, which $header does not define: the alert never fires"
		bad=1
	}
done
[ $bad = 0 ] && echo "prometheus-codes: $(wc -l <<<"$codes") finding codes, each with an alert"
exit $bad
