# The assertions of the shell tests (bash, sourced): one vocabulary for the integration
# cases (tests/integration/*.sh) and the NFS lab (lab/guest/lib.sh, lab/scenarios/*.sh).
#
# A test runs a command and leaves its exit status in RC and what it printed in OUT; the
# harness decides what OUT holds (the integration cases: the helper's stderr, kept byte for
# byte; the lab: stdout and stderr together).  The assertions read those two.
#
#   fail WHY...                     a failure: sets REASON, counts FAILURES, calls the
#                                   harness's on_fail WHY... when it defines one, returns 1
#   status_is N [NOTE]              RC is N
#   out_has TEXT [NOTE]             OUT contains TEXT (a fixed string)
#   out_lacks TEXT [NOTE]           OUT does not contain TEXT
#   out_matches RE [NOTE]           a line of OUT matches the extended regular expression RE
#   out_no_match RE [NOTE]          no line of OUT matches RE
#   out_quiet [NOTE]                OUT is empty
#   value_is WHAT GOT WANT [NOTE]   GOT is WANT (WHAT names the value in the message)
#
# Each returns 0 when it holds; otherwise it calls fail and returns 1, so that a check can
# stop at the first failure with `|| return` or go on and collect them all.  NOTE says why
# the assertion matters; it is added to the message.

RC=
OUT=
REASON=
FAILURES=0

fail() {
	REASON="$*"
	FAILURES=$((FAILURES + 1))
	if declare -F on_fail >/dev/null; then on_fail "$@"; fi
	return 1
}

# OUT on one line, cut for a message
out_short() { printf '%s\n' "$OUT" | tr '\n' ' ' | cut -c1-240; }

status_is() {
	[ "$RC" = "$1" ] || fail "exit status $RC, expected $1${2:+ ($2)}; output: $(out_short)"
}
# a fixed string in OUT: grep -F's answer for a one-line string, without a process (each
# costs 50-100 ms in the lab's emulated guest)
out_contains() {
	case $1 in
	*$'\n'*) printf '%s\n' "$OUT" | grep -qF -- "$1" ;;
	*) [[ $OUT == *"$1"* ]] ;;
	esac
}
out_has() {
	out_contains "$1" || fail "output lacks '$1'${2:+ ($2)}; output: $(out_short)"
}
out_lacks() {
	! out_contains "$1" || fail "output has '$1'${2:+ ($2)}: $(out_short)"
}
out_matches() {
	printf '%s\n' "$OUT" | grep -qE -- "$1" || fail "output lacks /$1/${2:+ ($2)}; output: $(out_short)"
}
out_no_match() {
	! printf '%s\n' "$OUT" | grep -qE -- "$1" || fail "output has /$1/${2:+ ($2)}: $(out_short)"
}
out_quiet() {
	[ -z "$OUT" ] || fail "expected no output${1:+ ($1)}, got: $(out_short)"
}
value_is() {
	[ "$2" = "$3" ] || fail "$1 is '$2', expected '$3'${4:+ ($4)}"
}
