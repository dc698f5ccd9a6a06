# The harness of the shell tests (bash, sourced after assert.sh): how a file of cases is run,
# one case per process, and the helpers every harness shares.
#
# A file of cases defines functions PREFIX_NAME (NAME with '_' for '-') and a function
# harness_setup, then ends with
#     harness_main PREFIX NARGS USAGE "$@"
# which does one of two things:
#   FILE --list       prints the case names, one a line (meson registers each as a test)
#   FILE ARGS... CASE NARGS arguments, the last the case: makes a scratch directory T
#                     (removed on exit), runs harness_setup with the arguments, then the
#                     case; exits 0 when no assertion failed, 1 when one did, 2 on a usage
#                     error or an unknown case; a case may exit 77 itself (skip).
#
#   conf LINE...      writes the configuration file $CONF, one argument a line, mode 0644 (a
#                     file root may trust); logs it where the harness has a log function
#   on_fail WHY...    what fail (assert.sh) prints: the case, the exit status, OUT (named by
#                     OUT_IS: "stderr" or "stdout") and ERR when the harness sets it
#   needs_root WHY... a case that needs root: run by another user (a distribution's package
#                     build) it skips (77) and says why, before it checks anything; a case
#                     never leaves out part of its checks for another user instead

CONF=
OUT_IS=output

conf() {
	printf '%s\n' "$@" >"$CONF"
	chmod 644 "$CONF"
	! declare -F log >/dev/null || log "  config: $(tr '\n' ';' <"$CONF")"
}

needs_root() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root: $*"; exit 77; }
}

on_fail() {
	echo "FAIL [$CASE]: $*"
	echo "  rc=$RC"
	echo "  $OUT_IS: $OUT" | head -c 3000
	echo
	[ -z "${ERR+set}" ] || echo "  stderr: $ERR"
}

harness_main() {
	local prefix=$1 nargs=$2 usage=$3 fn
	shift 3
	if [ "${1:-}" = --list ]; then
		declare -F | sed -n "s/^declare -f ${prefix}_//p" | tr _ -
		exit 0
	fi
	[ $# = "$nargs" ] || { echo "usage: $usage" >&2; exit 2; }
	CASE=${!#}
	case $CASE in
	*_*) fn= ;;
	*) fn=${prefix}_${CASE//-/_} ;;
	esac
	[ -n "$fn" ] && declare -F "$fn" >/dev/null ||
		{ echo "unknown case $CASE ($(basename "$0") --list)"; exit 2; }
	T=$(mktemp -d "${TMPDIR:-/tmp}/nfs-tuned-$prefix.XXXXXX")
	trap 'rm -rf "$T"' EXIT
	harness_setup "$@"
	"$fn"
	[ "$FAILURES" = 0 ] && { echo "ok $CASE"; exit 0; }
	exit 1
}
