#!/bin/bash
# The lab demo (lab/demo): two exports of one server through the helper, the first with
# nconnect=4, the second with nconnect=8 under nconnect_policy = warn, then what the
# kernel really did, and what `nfs-tuned status` says of the two mounts afterwards.
. /lab/guest/lib.sh
LAB_SCENARIO=demo
say() { echo "demo: $*"; }
a=$(mp a) b=$(mp b)
if [ -x "$H" ]; then
	tool=$H
else
	tool=/sbin/mount.nfs
	say "(no mount.nfs-tuned was built: showing the real mount.nfs alone)"
fi
conf "[global]" "nconnect_policy = warn" "read_ahead_kb = 15360"
say "server $SRV (netns srv), client in the root netns; /etc/nfs-tuned.conf:"
sed 's/^/demo:     /' "$CONF"
say
n=1
for m in "$SRV:/export/a $a vers=4.1,nconnect=4" "$SRV:/export/b $b vers=4.1,nconnect=8"; do
	set -- $m
	say "$n) $(basename "$tool") $1 $2 -o $3"
	out=$(timeout 90 "$tool" "$1" "$2" -o "$3" 2>&1)
	rc=$?
	say "   exit status $rc"
	if [ -n "$out" ]; then echo "$out" | fold -s -w 100 | sed 's/^/demo:   | /'; else say "   (nothing printed)"; fi
	eval "rc$n=\$rc out$n=\$out"
	n=$((n + 1))
done
say
say "what the kernel did:"
for d in "$a" "$b"; do
	dev=$(mi_dev "$d")
	say "   $d  dev $dev  mountinfo nconnect=$(mi_opt "$d" nconnect)  xprt: lines $(xprts "$d")  addr=$(mi_opt "$d" addr)  read_ahead_kb=$(ra_of "$d")"
done
say "   NFS clients in this netns (/proc/fs/nfsfs/servers):"
tail -n +2 /proc/fs/nfsfs/servers | sed 's/^/demo:     /'
say
say "reading 8 MiB from each mount:"
for d in "$a" "$b"; do
	echo 3 >/proc/sys/vm/drop_caches
	say "   $d/data: $(dd if="$d/data" of=/dev/null bs=1M 2>&1 | tail -n1)"
done
say
# what the demo shows is what it checks (the suite runs it: lab-demo-PLATFORM): both mounts
# made, the first quietly, the second warned with the 4 connections the kernel then gives
# it, the configured read-ahead on both
ok=yes
if [ "$(mi_opt "$b" nconnect)" = 4 ] && [ "$(xprts "$b")" = 4 ]; then
	say "the second mount asked for nconnect=8 and got the first mount's 4 connections."
else
	ok="the kernel did not share the client as expected"
fi
if [ -x "$H" ]; then
	[ "$rc1" = 0 ] && [ "$rc2" = 0 ] || ok="a mount failed (exit status $rc1, $rc2)"
	[ -z "$out1" ] || ok="the first mount printed something: $out1"
	case $out2 in
	*"warning: nconnect=8 cannot take effect"*"4 connections"*) ;;
	*) ok="the second mount was not warned of the client's 4 connections: $out2" ;;
	esac
	for d in "$a" "$b"; do
		[ "$(ra_of "$d")" = 15360 ] || ok="$d has read_ahead_kb $(ra_of "$d"), not the config's 15360"
	done
fi
if [ -x "$NT" ]; then
	say
	say "later, any user: nfs-tuned status (the finding next to the warning above; findings on"
	say "standard error, after the table)"
	cols=target,source,set-by,req,nconnect,live,xprt-sends,ra-kb,findings
	say "\$ nfs-tuned status -o $cols"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$NT" status -o $cols 2>&1)
	rc=$?
	echo "$out" | fold -s -w 100 | sed 's/^/demo:   | /'
	say "   exit status $rc (1: findings)"
	[ $rc = 1 ] && echo "$out" | grep -qF "[nconnect-inherited] $b asked for nconnect=8" ||
		ok="nfs-tuned status did not report the inherited nconnect"
fi
if [ $ok = yes ]; then
	report "ok demo"
else
	report "FAIL demo: $ok"
fi
lab_cleanup >/dev/null 2>&1
