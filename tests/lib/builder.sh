# The ordinary user a package test builds as (bash, sourced by tests/deb-package.sh and
# tests/rpm-build.sh): Debian's buildds and Fedora's builders run a package's build and its
# tests as a user other than root, so the suite does too. Root's run builds as user nobody,
# in a scratch directory of its own; another user's run builds as that user. Nothing is made
# outside that directory, which the test removes.
#
#   builder_init DIR   makes DIR the builder's HOME (TMPDIR is DIR/tmp), given to the builder;
#                      sets BUILDER, who it is, for messages; returns 1 when the builder cannot
#                      write there (a TMPDIR another user cannot enter)
#   as_builder CMD...  runs CMD as the builder, with that HOME and TMPDIR, in the current
#                      directory (which the builder must be able to enter)
#   tests_ran LOG      the package's own tests ran in the build whose output is LOG (meson
#                      test's summary there, a test or more run, none failed); prints it

BUILDER_UID=65534 BUILDER_GID=65534
BUILDER_HOME=
BUILDER=

builder_init() {
	BUILDER_HOME=$1
	mkdir -p "$BUILDER_HOME/tmp" || return 1
	if [ "$(id -u)" = 0 ]; then
		chown -R "$BUILDER_UID:$BUILDER_GID" "$BUILDER_HOME" || return 1
		BUILDER="uid $BUILDER_UID (nobody)"
	else
		BUILDER="uid $(id -u), the suite's own"
	fi
	(cd "$BUILDER_HOME" && as_builder test -w .)
}

as_builder() {
	if [ "$(id -u)" = 0 ]; then
		HOME=$BUILDER_HOME TMPDIR=$BUILDER_HOME/tmp \
			setpriv --reuid="$BUILDER_UID" --regid="$BUILDER_GID" --clear-groups -- "$@"
	else
		HOME=$BUILDER_HOME TMPDIR=$BUILDER_HOME/tmp "$@"
	fi
}

tests_ran() {
	local summary
	summary=$(grep -E '^(Ok|Fail|Skipped|Timeout): +[0-9]+' "$1" | awk '{ printf "%s %s ", $1, $2 }')
	echo "the package's tests, as $BUILDER: ${summary:-none}"
	[[ $summary == *"Ok: "[1-9]* && $summary == *"Fail: 0 "* ]]
}
