# Figures, not a timed test (run it by name: lab/run udev-cost): what the udev rule costs.
# - the udev mode's own run time per event (an NFS bdi, and a device that is not NFS);
# - `udevadm settle` after each of 50 mounts, with nfs-utils' rule only and with ours too;
# - how late the mountinfo line is when the bdi event is handled (the bounded wait).
# Prints "# udev-cost: ..." lines.

. /lab/guest/params
case " $LAB_SCENARIOS " in
*" udev-cost "*) ;;
*) t figures skip "figures only when named: lab/run udev-cost"; return 0 ;;
esac

OURS=/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules
SYSLOG=/tmp/lab/syslog
N=50
figure() { echo "# udev-cost: $*"; log "  figure: $*"; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

cost_setup() {
	mkdir -p /etc/nfs.conf.d
	printf '[nfsrahead]\nnfs=640\nnfs4=640\ndefault=640\n' >/etc/nfs.conf.d/lab-rahead.conf
	: >$SYSLOG
	busybox syslogd -n -O $SYSLOG &
	SYSLOGD_PID=$!
	udev_start
}

# per event: the udev mode run by hand N times on an NFS bdi and on a device that is not NFS
cost_run_time() {
	local a dev s
	need_helper || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 2048"
	mount.nfs $SRV:/export/a "$a" -o vers=3 || { fail "mount"; return 1; }
	dev=$(mi_dev "$a")
	s=$(date +%s%N)
	for _ in $(seq 1 $N); do "$H" --udev-bdi "$dev" >/dev/null 2>&1; done
	figure "udev mode run time per event, NFS bdi $dev: $(( $(ms_since "$s") * 1000 / N )) us (mean of $N)"
	s=$(date +%s%N)
	for _ in $(seq 1 $N); do "$H" --udev-bdi 0:4095 >/dev/null 2>&1; done
	figure "udev mode run time per event, not NFS (0:4095): $(( $(ms_since "$s") * 1000 / N )) us (mean of $N)"
}

# settle after each of N mounts (new superblock each time), with and without our rule
settle_run() { # LABEL
	local a i s total=0 all
	a=$(mp a)
	all=$(date +%s%N)
	for i in $(seq 1 $N); do
		mount.nfs $SRV:/export/a "$a" -o vers=3 || { fail "mount $i"; return 1; }
		s=$(date +%s%N)
		udevadm settle -t 15
		total=$((total + $(ms_since "$s")))
		umount "$a"
	done
	figure "$1: udevadm settle after each of $N mounts: total $total ms, mean $((total / N)) ms; mount+settle+umount loop $(ms_since "$all") ms"
}
cost_settle() {
	need_helper || return
	conf "[global]" "read_ahead_kb = 2048"
	rm -f $OURS
	udevadm control --reload
	settle_run "nfs-utils' rule only" || return
	sed "s|@HELPER@|$H|; s|--udev-bdi %k|--udev-bdi %k -v|" /lab/99-zz-nfs-tuned.rules.in >$OURS
	udevadm control --reload
	settle_run "with 99-zz-nfs-tuned.rules" || return
}

# how long after the event the mountinfo line was there: the -v lines of the runs above,
# and N/2 NFSv4.1 mounts (whose path walk comes between the superblock and the mount)
cost_late() {
	local a i waits
	need_helper || return
	a=$(mp a)
	conf "[global]" "read_ahead_kb = 2048"
	for i in $(seq 1 $((N / 2))); do
		mount.nfs $SRV:/export/a "$a" -o vers=4.1 || { fail "mount $i"; return 1; }
		udevadm settle -t 15
		umount "$a"
	done
	local at_once waits
	at_once=$(grep -c 'mountinfo line there at once' $SYSLOG)
	waits=$(sed -n 's/.*nfs-tuned\[[0-9]*\]: bdi [0-9:]*: mountinfo line found after waiting \([0-9]*\) ms.*/\1/p' $SYSLOG | sort -n)
	[ -n "$waits$at_once" ] && [ "$at_once$waits" != 0 ] || { fail "no -v lines in syslog"; return 1; }
	figure "mountinfo line there at the first look: $at_once events; $(echo "$waits" | grep -c .) events waited for it"
	[ -n "$waits" ] && figure "late lines came after waiting (ms): min $(echo "$waits" | head -n1), median $(echo "$waits" | sed -n "$(( ($(echo "$waits" | wc -l) + 1) / 2 ))p"), max $(echo "$waits" | tail -n1)"
	figure "no line at all (waited the whole 1000 ms bound): $(grep -c 'only nfsfs volumes lists it' $SYSLOG)"
}

cost_setup >>"$LAB_DETAILS" 2>&1
t run-time-per-event cost_run_time
t settle-50-mounts cost_settle
t mountinfo-line-lateness cost_late
udev_stop
kill "$SYSLOGD_PID" 2>/dev/null
rm -f $OURS /etc/nfs.conf.d/lab-rahead.conf /dev/log
