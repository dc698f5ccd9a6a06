# Scenario: the package's own tests (debian/tests) run by autopkgtest's runner, as Debian's CI
# runs them, with its null virtualisation server in this guest: the package built from the
# tree (lab/debs), the tests from the tree (lab/run copies debian/ to /lab/src). The tests
# bring up an NFS server of their own (debian/tests/lib.sh), beside the lab's; the runner's
# summary and log go to /lab/results. The package is purged afterwards, as package.sh leaves
# it, for the scenarios after this one.

. /lab/guest/pkg.sh
SRC=/lab/src
OUTDIR=/tmp/autopkgtest-out

apt_runner() {
	local s n
	[ -n "$TUNED" ] || skip "no package in $DEBS (lab/debs: dpkg-buildpackage, debhelper)" || return
	command -v autopkgtest >/dev/null || skip "no autopkgtest in the guest (lab/packages.txt)" || return
	[ -f $SRC/debian/tests/control ] || fail "no $SRC/debian/tests/control (lab/run copies it)" || return
	not_installed || return
	# the guest is a whole machine of the run's own, so isolation-machine holds; but autopkgtest
	# 5.49 (Debian 13) has its null server claim no isolation (its scratch directory is the
	# host's), so the runner is told to run such tests anyway (5.28, Debian 12, claims it)
	local ignore=--ignore-restrictions=isolation-machine
	rm -rf $OUTDIR
	# its own limit: the runner installs the package, runs both tests, each a mount and a
	# server of its own (about 100 s on the lab's TCG guest)
	OUT=$(timeout -k 5 400 autopkgtest $ignore -o $OUTDIR "$TUNED" $SRC/ -- null 2>&1)
	RC=$?
	log "  \$ autopkgtest $ignore -o $OUTDIR $TUNED $SRC/ -- null -> $RC"
	out_log
	cp $OUTDIR/summary /lab/results/autopkgtest-summary 2>/dev/null
	cp $OUTDIR/log /lab/results/autopkgtest.log 2>/dev/null
	s=$(cat $OUTDIR/summary 2>/dev/null)
	# autopkgtest's exit: 0 every test passed, 2 one was skipped, 4 one failed, 8 none ran
	[ "$RC" = 0 ] || fail "autopkgtest exit $RC: ${s//$'\n'/; }" || return
	n=$(grep -cE '^(mount-through-helper|remove-restores-mount-nfs) +PASS' $OUTDIR/summary)
	[ "$n" = 2 ] || fail "the summary passes $n of the 2 tests: ${s//$'\n'/; }" || return
	NOTE=${s//$'\n'/; }
	NOTE=$(echo "$NOTE" | tr -s ' ')
	dpkg_status_is "ii $V" || return
	in_front || return
}

# the runner's local repository and the package go: the machine as package.sh leaves it
apt_clean() {
	rm -f /etc/apt/sources.list.d/autopkgtest.list /etc/apt/preferences.d/90autopkgtest
	pkg dpkg -P nfs-tuned || return
	not_installed || return
}

t runner-passes-debian-tests apt_runner
t purged-after apt_clean
