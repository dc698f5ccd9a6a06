#!/bin/bash
# rpm/nfs-tuned-front in a scratch /usr/sbin: enable puts the helper in front and keeps the
# real binary (same bytes, no longer setuid) aside; an nfs-utils update followed by the
# trigger's reapply keeps it in front with the new binary aside; a trigger that fails leaves
# no superseded binary; disable restores the real one with its mode; bad states give a clear
# message and change nothing; the helper is setuid exactly when nfs-utils' mount.nfs is.
#   tests/rpm-front.sh SCRIPT
set -u
script=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export NFS_TUNED_SBIN=$d/sbin NFS_TUNED_STATE=$d/state/front
mkdir -p "$d/sbin"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
sha() { sha256sum "$1" | cut -d' ' -f1; }
run() { OUT=$("$script" "$@" 2>&1); RC=$?; echo "\$ nfs-tuned-front $* -> $RC: $OUT"; }

printf 'real mount.nfs 1\n' >"$d/sbin/mount.nfs"
chmod 4755 "$d/sbin/mount.nfs"
printf '#!/bin/sh\n' >"$d/sbin/mount.nfs-tuned"
chmod 4755 "$d/sbin/mount.nfs-tuned"
sha1=$(sha "$d/sbin/mount.nfs")

run status
[ "$RC" = 0 ] && [[ $OUT == disabled* ]] || fail "status before enable"
run reapply
[ "$RC" = 0 ] && [ ! -L "$d/sbin/mount.nfs" ] || fail "reapply without enable must do nothing"

run enable
[ "$RC" = 0 ] || fail "enable"
[ "$(readlink "$d/sbin/mount.nfs")" = mount.nfs-tuned ] || fail "mount.nfs is not a link to the helper"
[ "$(sha "$d/sbin/mount.nfs.nfs-utils")" = "$sha1" ] || fail "the real binary aside differs"
[ "$(stat -c %a "$d/sbin/mount.nfs.nfs-utils")" = 755 ] || fail "the real binary aside is still setuid"
[ -e "$NFS_TUNED_STATE" ] || fail "enable not remembered"
run enable
[ "$RC" = 0 ] && [ "$(sha "$d/sbin/mount.nfs.nfs-utils")" = "$sha1" ] || fail "enable twice"

# an nfs-utils update: rpm writes its new binary over the link, then the trigger runs
printf 'real mount.nfs 2\n' >"$d/sbin/mount.nfs.rpmnew" && chmod 4755 "$d/sbin/mount.nfs.rpmnew"
mv -f "$d/sbin/mount.nfs.rpmnew" "$d/sbin/mount.nfs"
sha2=$(sha "$d/sbin/mount.nfs")
run status
[ "$RC" = 1 ] && [[ $OUT == *"not the helper"* ]] || fail "status after an update must say the helper is not in front"
run reapply
[ "$RC" = 0 ] && [ "$(readlink "$d/sbin/mount.nfs")" = mount.nfs-tuned ] || fail "reapply after an update"
[ "$(sha "$d/sbin/mount.nfs.nfs-utils")" = "$sha2" ] || fail "the new binary is not the one aside"

run disable
[ "$RC" = 0 ] && [ ! -L "$d/sbin/mount.nfs" ] || fail "disable"
[ "$(sha "$d/sbin/mount.nfs")" = "$sha2" ] && [ "$(stat -c %a "$d/sbin/mount.nfs")" = 4755 ] ||
	fail "disable did not restore the real binary with its mode"
[ ! -e "$d/sbin/mount.nfs.nfs-utils" ] && [ ! -e "$NFS_TUNED_STATE" ] || fail "disable left files"

# a trigger that fails (the helper cannot be run): the superseded binary does not stay aside
run enable
printf 'real mount.nfs 3\n' >"$d/sbin/mount.nfs.rpmnew" && chmod 4755 "$d/sbin/mount.nfs.rpmnew"
mv -f "$d/sbin/mount.nfs.rpmnew" "$d/sbin/mount.nfs"
chmod 0644 "$d/sbin/mount.nfs-tuned"
run reapply
[ "$RC" = 1 ] && [[ $OUT == *"no $d/sbin/mount.nfs-tuned"* ]] || fail "a failed reapply must say why"
[ ! -e "$d/sbin/mount.nfs.nfs-utils" ] || fail "a failed reapply left the superseded binary aside"
[ "$(cat "$d/sbin/mount.nfs")" = "real mount.nfs 3" ] || fail "a failed reapply touched the new mount.nfs"
chmod 4755 "$d/sbin/mount.nfs-tuned"
run reapply
[ "$RC" = 0 ] && [ "$(cat "$d/sbin/mount.nfs.nfs-utils")" = "real mount.nfs 3" ] || fail "reapply once the helper is back"
run disable
[ "$(stat -c %a "$d/sbin/mount.nfs")" = 4755 ] || fail "disable after a failed trigger"

# in front, the helper setuid exactly when nfs-utils' mount.nfs was (the mode enable found);
# out of front never: nfs-utils' own binary is the one setuid entry point
hmode() { stat -c %a "$d/sbin/mount.nfs-tuned"; }
run sync
[ "$RC" = 0 ] && [ "$(hmode)" = 755 ] || fail "sync out of front, a setuid mount.nfs: helper $(hmode)"
run status
[[ $OUT == *"user mounts: on ($d/sbin/mount.nfs is setuid)"* ]] || fail "status out of front: $OUT"
chmod u-s "$d/sbin/mount.nfs"
run sync
[ "$RC" = 0 ] && [ "$(hmode)" = 755 ] || fail "sync with mount.nfs not setuid: helper $(hmode)"
run status
[[ $OUT == *"user mounts: off"* ]] || fail "status must say user mounts are off"
chmod 4755 "$d/sbin/mount.nfs-tuned"
run enable
[ "$RC" = 0 ] && [ "$(hmode)" = 755 ] && [ "$(stat -c %a "$d/sbin/mount.nfs.nfs-utils")" = 755 ] ||
	fail "enable with mount.nfs not setuid: helper $(hmode)"
chmod 4755 "$d/sbin/mount.nfs-tuned"
run reapply
[ "$RC" = 0 ] && [ "$(hmode)" = 755 ] || fail "reapply while in front must keep the mode enable found"
run disable
[ "$(stat -c %a "$d/sbin/mount.nfs")" = 755 ] && [ "$(hmode)" = 755 ] || fail "disable: mount.nfs not setuid"
# an nfs-utils update writes a setuid mount.nfs: the trigger's reapply leaves the helper, out
# of front, without the bit; enable then carries the bit over to it
printf 'real mount.nfs 4\n' >"$d/sbin/mount.nfs" && chmod 4755 "$d/sbin/mount.nfs"
run reapply
[ "$RC" = 0 ] && [ "$(hmode)" = 755 ] || fail "reapply out of front: helper $(hmode)"
run status
[[ $OUT == *"user mounts: on"* ]] || fail "status must say user mounts are on"
run enable
[ "$RC" = 0 ] && [ "$(hmode)" = 4755 ] && [ "$(stat -c %a "$d/sbin/mount.nfs.nfs-utils")" = 755 ] ||
	fail "enable with a setuid mount.nfs: helper $(hmode)"
run disable

# a provider erased (the trigger's forget): while another one still owns mount.nfs, the link
# stays and so does the binary aside; once rpm erased mount.nfs with the last, it goes
run enable
run forget
[ "$RC" = 0 ] && [ -f "$d/sbin/mount.nfs.nfs-utils" ] || fail "forget dropped the binary aside of a provider still there"
rm "$d/sbin/mount.nfs"
run forget
[ "$RC" = 0 ] && [ ! -e "$d/sbin/mount.nfs.nfs-utils" ] || fail "forget kept the binary aside with no mount.nfs left"
printf 'real mount.nfs 5\n' >"$d/sbin/mount.nfs" && chmod 4755 "$d/sbin/mount.nfs"
run disable

# bad states: nothing to put aside; the helper missing
mv "$d/sbin/mount.nfs" "$d/keep"
run enable
[ "$RC" = 1 ] && [[ $OUT == *"install nfs-utils"* ]] || fail "enable without mount.nfs must say so"
[ ! -e "$d/sbin/mount.nfs" ] || fail "enable without mount.nfs created one"
mv "$d/keep" "$d/sbin/mount.nfs"
rm "$d/sbin/mount.nfs-tuned"
run enable
[ "$RC" = 1 ] && [[ $OUT == *"no $d/sbin/mount.nfs-tuned"* ]] || fail "enable without the helper must say so"
[ ! -L "$d/sbin/mount.nfs" ] || fail "enable without the helper changed mount.nfs"
run frobnicate
[ "$RC" = 1 ] && [[ $OUT == usage:* ]] || fail "a bad argument must print the usage"

[ "$fails" = 0 ] && echo "all passed"
[ "$fails" = 0 ]
