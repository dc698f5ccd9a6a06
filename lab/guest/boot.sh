#!/bin/bash
# The boot scenario: the package installed, an fstab of several exports of one server with
# different nconnect (_netdev), then systemd as PID 1 mounts them, in parallel, through its
# fstab generator and mount units, as at an admin's boot.
#   boot.sh prepare   (before systemd, from main.sh: install, fstab, units; /init then
#                      execs systemd)
#   boot.sh check     (lab-check.service, once remote-fs.target is done: the checks, the
#                      results to /lab/results, power off)
. /lab/guest/lib.sh
. /lab/guest/kubernetes.sh
. /lab/guest/params
# lab/run --boot NAME...: only these groups of checks after the boot's own (fifty: the fifty
# mounts and the one-mount figures; kubernetes: the CSI path, kubernetes.sh); none: all
want() { [ -z "${LAB_SCENARIOS:-}" ] || [[ " $LAB_SCENARIOS " == *" $1 "* ]]; }

# export:nconnect; all distinct, so exactly one mount sets the client and the others share it
# (NFSv4.2: a client of its own, apart from the fifty below)
BOOT_MOUNTS="a:2 b:3 c:4 d:8"
BOOT_VERS=4.2
unit_of() { systemd-escape -p --suffix=mount "$MNT/$1"; }
PROM_DIR=/var/lib/prometheus/node-exporter

# Fifty mounts of one server, as a host with many exports of one filer has them: NFSv3 and
# NFSv4.1 in turn over the exports a..h, each version asking one nconnect (two clients, each
# created by one of its mounts and joined by the others). Mount points $MNT/f01..f50.
FIFTY=50
FIFTY_V3_NCONNECT=4
FIFTY_V41_NCONNECT=2
# (in bash alone: under the emulator each process costs 50-100 ms, and these run in every start)
fifty_entries() { # mount point, source, options, one line each
	local i e v n f letters=abcdefgh
	for ((i = 1; i <= FIFTY; i++)); do
		e=${letters:$(((i - 1) % 8)):1}
		if [ $((i % 2)) = 1 ]; then v=3 n=$FIFTY_V3_NCONNECT; else v=4.1 n=$FIFTY_V41_NCONNECT; fi
		printf -v f 'f%02d' "$i"
		printf '%s %s %s\n' "$MNT/$f" "$SRV:/export/$e" "vers=$v,nconnect=$n,_netdev"
	done
}
# their mount units' names: systemd-escape -p --suffix=mount, for paths of letters, digits and
# slashes only (the lab's)
fifty_units() { local d _; fifty_entries | while read -r d _; do d=${d#/}; echo "${d//\//-}.mount"; done; }

prepare() {
	set -x
	local deb m
	deb=$(ls /lab/debs/nfs-tuned_*.deb 2>/dev/null | grep -v '~prev' | head -n1)
	[ -n "$deb" ] || { echo "no nfs-tuned package in /lab/debs"; return 1; }
	# the CSI node plugin's root, from this tree before the package is on it (kubernetes.sh)
	if want kubernetes; then
		local t0=$EPOCHREALTIME
		k8s_prepare "$deb" || { echo "the node plugin's root could not be made"; rm -rf "$K8S_ROOT"; }
		echo "$t0 $EPOCHREALTIME" | awk '{ printf "the node plugin root took %.1f s\n", $2 - $1 }'
	fi
	# node_exporter's textfile directory (Debian's), as prometheus-node-exporter makes it: the
	# package's timer writes there (its service is skipped without it)
	mkdir -p "$PROM_DIR"
	DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" || return 1
	# a default the kernel shows for every mount: each went through the helper; and a
	# read-ahead, as the shipped example and every vendor profile set one (the helper writes
	# it and the package's udev rule writes it again after nfsrahead's)
	printf '[global]\ntimeo = 123\nread_ahead_kb = 15x\n' >"$CONF"
	: >/etc/fstab
	for m in $BOOT_MOUNTS; do
		echo "$SRV:/export/${m%%:*} $MNT/${m%%:*} nfs vers=$BOOT_VERS,nconnect=${m#*:},_netdev 0 0" >>/etc/fstab
	done
	# the fifty only in a boot that checks them: another boot need not mount them
	want fifty && fifty_entries | while read -r d src o; do echo "$src $d nfs $o 0 0"; done >>/etc/fstab
	# the fifty started and stopped again as one job each way: lab-fifty.target wants them,
	# each is part of it. One systemctl call of fifty units makes fifty D-Bus calls, and under
	# load the last one's 25 s ran out while PID 1 was busy with the first ("Failed to start
	# mnt-lab-f50.mount: Connection timed out", the fifty's start on a machine with a load of 8)
	if want fifty; then
		local units
		units=$(fifty_units)
		printf '[Unit]\nDescription=nfs-tuned lab: the fifty mounts\nWants=%s\nAfter=%s\n' \
			"${units//$'\n'/ }" "${units//$'\n'/ }" >/etc/systemd/system/lab-fifty.target
		for m in $units; do
			mkdir -p "/etc/systemd/system/$m.d"
			printf '[Unit]\nPartOf=lab-fifty.target\n' >"/etc/systemd/system/$m.d/lab-fifty.conf"
		done
	fi
	cat /etc/fstab
	# the lab's server and rpcbind run already (lab_setup): the guest's own units stay off
	for u in rpcbind.socket rpcbind.service rpc-statd.service nfs-server.service; do
		ln -sf /dev/null "/etc/systemd/system/$u"
	done
	cat >/etc/systemd/system/lab.target <<-'UNIT'
	[Unit]
	Description=nfs-tuned lab: the fstab mounted, then the checks
	Requires=basic.target
	After=basic.target
	Wants=remote-fs.target lab-check.service
	UNIT
	cat >/etc/systemd/system/lab-check.service <<-'UNIT'
	[Unit]
	Description=nfs-tuned lab: boot checks
	After=remote-fs.target
	[Service]
	Type=oneshot
	ExecStart=/bin/bash /lab/guest/boot.sh check
	StandardOutput=tty
	StandardError=tty
	TTYPath=/dev/console
	UNIT
	touch /run/lab-systemd
	set +x
}

b_pid1() {
	[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd" || return
	[ -x /usr/sbin/mount.nfs-tuned ] && [ "$(readlink -f /sbin/mount.nfs)" = /usr/sbin/mount.nfs-tuned ] ||
		fail "the package is not in front of mount.nfs" || return
}

b_mounted() {
	local m e u
	for m in $BOOT_MOUNTS; do
		e=${m%%:*}
		u=$(unit_of "$e")
		[ -f "/run/systemd/generator/$u" ] || fail "systemd's fstab generator made no $u" || return
		[ "$(systemctl is-active "$u")" = active ] ||
			fail "$u is $(systemctl is-active "$u"): $(journalctl -b -o cat -u "$u" | tail -n 3 | tr '\n' ' ')" || return
		mounted "$MNT/$e" || return
		[ "$(mi_opt "$MNT/$e" timeo)" = 123 ] ||
			fail "$MNT/$e: timeo=$(mi_opt "$MNT/$e" timeo), not the config's 123: not through the helper" || return
	done
}

# systemd started every mount before the first one was done
b_parallel() {
	local j started
	j=$(journalctl -b -o cat _PID=1 |
		grep -E "^Mount(ing|ed) .*$MNT/($(echo $BOOT_MOUNTS | sed 's/:[0-9]*//g; s/ /|/g'))\.")
	log "$(echo "$j" | sed 's/^/    | /')"
	started=$(echo "$j" | awk '/^Mounted / { exit } /^Mounting / { n++ } END { print n + 0 }')
	[ "$started" = "$(echo $BOOT_MOUNTS | wc -w)" ] ||
		fail "$started mounts started before the first was done, expected all" || return
}

# the journal has each mount's messages, and the kernel's nconnect is what the helper said
b_nconnect() {
	local m e want eff u msg said winners=0 n
	eff=$(mi_opt "$MNT/a" nconnect)
	[ -n "$eff" ] || fail "$MNT/a shows no nconnect" || return
	for m in $BOOT_MOUNTS; do
		e=${m%%:*} want=${m#*:}
		u=$(unit_of "$e")
		nconn_is "$MNT/$e" "$eff" "one client for all" || return
		xprt_is "$MNT/$e" "$eff" || return
		msg=$(journalctl -b -o cat -u "$u" | grep '^mount\.nfs-tuned: ')
		log "  $u: $msg"
		if [ "$want" = "$eff" ]; then
			winners=$((winners + 1))
			[ -z "$msg" ] || fail "$u set the client but the helper said: $msg" || return
			continue
		fi
		echo "$msg" | grep -q "^mount\.nfs-tuned: warning: nconnect=$want cannot take effect" ||
			fail "no warning for $u's nconnect=$want in the journal: '$msg'" || return
		# a client that exists ("has N connections (nconnect=N)"), or one another helper
		# claimed ("is creating now with nconnect=N")
		said=$(echo "$msg" | sed -n -e 's/.*connections\{0,1\} (nconnect=\([0-9]*\)).*/\1/p' \
			-e 's/.* is creating now with nconnect=\([0-9]*\).*/\1/p' | head -n1)
		[ "$said" = "$eff" ] || fail "the helper said nconnect=$said for $u, the kernel has $eff" || return
	done
	[ "$winners" = 1 ] || fail "$winners mounts asked for the effective nconnect=$eff, expected 1" || return
}

# The package's timer, enabled by its postinst, ran nfs-tuned status once after the fstab's
# mounts (OnBootSec=0, After=remote-fs.target): the unit succeeded although the boot's own
# nconnect findings make status exit 1, and node_exporter's textfile is there, one
# nfs_tuned_mount_info per fstab mount, every input read.
b_timer() {
	local u=nfs-tuned-prometheus.service f=$PROM_DIR/nfs-tuned.prom i m r
	[ "$(systemctl is-enabled nfs-tuned-prometheus.timer)" = enabled ] ||
		fail "nfs-tuned-prometheus.timer is $(systemctl is-enabled nfs-tuned-prometheus.timer), not enabled by the package" || return
	# this check runs after remote-fs.target too: the service may still be at work
	for i in $(seq 60); do
		[ "$(systemctl show -P ActiveState "$u")" != activating ] &&
			[ -n "$(systemctl show -P ExecMainExitTimestampMonotonic "$u" | grep -v '^0$')" ] && break
		sleep 1
	done
	r=$(systemctl show -P Result "$u")
	log "  $u: Result=$r ExecMainStatus=$(systemctl show -P ExecMainStatus "$u"), $(systemctl show -P ActiveState "$u")"
	[ "$r" = success ] ||
		fail "$u: Result=$r, ExecMainStatus=$(systemctl show -P ExecMainStatus "$u"): $(journalctl -b -o cat -u "$u" | tail -n 3 | tr '\n' ' ')" || return
	[ -f "$f" ] || fail "the timer's run wrote no $f" || return
	grep -q '^nfs_tuned_status_success 1$' "$f" || fail "$f: $(grep '^nfs_tuned_status_success' "$f"), not 1" || return
	for m in $BOOT_MOUNTS; do
		grep -q "^nfs_tuned_mount_info{mountpoint=\"$MNT/${m%%:*}\"," "$f" ||
			fail "$f has no nfs_tuned_mount_info of $MNT/${m%%:*}" || return
	done
	NOTE="$(grep -c '^nfs_tuned_' "$f") series, exit status $(systemctl show -P ExecMainStatus "$u") counted a success"
}

# --- fifty mounts of one server: through the helper and through the plain mount.nfs ----
# The span of one start of the fifty mount units, in s: from the first unit leaving
# "inactive" to the last one active (systemd's own monotonic timestamps, in µs).
fifty_span() {
	systemctl show -p Id,ActiveState,InactiveExitTimestampMonotonic,ActiveEnterTimestampMonotonic \
		$(fifty_units) | awk -F= -v n=$FIFTY '
		$1 == "ActiveState" && $2 == "active" { active++ }
		$1 == "InactiveExitTimestampMonotonic" && (first == "" || $2 < first) { first = $2 }
		$1 == "ActiveEnterTimestampMonotonic" && $2 > last { last = $2 }
		END { if (active != n || first == "" || first == 0) { print "-"; exit }
		      printf "%.2f\n", (last - first) / 1e6 }'
}

# FLAVOUR (helper|plain): every one of the fifty mounted, through FLAVOUR (the config's
# timeo=123 shows the helper; plain mount.nfs leaves TCP's 600), each with its version and
# the nconnect its client has: mountinfo's and the client's transports in mountstats, which
# is what every entry asked; and, once udev is done, the config's read-ahead (15 x rsize) on
# each one's bdi, whoever wrote it last (the helper, or the package's udev rule after
# nfsrahead's)
fifty_state() {
	local want_timeo=123 bad
	[ "$1" = plain ] && want_timeo=600
	# (each NFSv4 mount's short-lived bdis keep Debian 14's udev 10 s, one after another:
	# lib.sh, SETTLE; the fifty's 29 NFSv4 mounts there are minutes of queue)
	udevadm settle -t 600 || fail "udev did not settle in 600 s" || return
	bad=$(fifty_entries | awk -v timeo=$want_timeo -v v3n=$FIFTY_V3_NCONNECT -v v41n=$FIFTY_V41_NCONNECT '
		FILENAME == "/proc/self/mountinfo" {
			for (i = 7; $i != "-"; i++) ;
			if ($(i + 1) ~ /^nfs/) { mi[$5] = $(i + 3); dev[$5] = $3 }
			next
		}
		FILENAME == "/proc/self/mountstats" {
			if ($1 == "device") d = $5
			else if ($1 == "xprt:") x[d]++
			next
		}
		{ want[$1] = ($3 ~ /vers=3,/) ? "3:" v3n : "4.1:" v41n }
		END {
			for (d in want) {
				split(want[d], w, ":")
				if (!(d in mi)) { print d " is not mounted"; continue }
				o = "," mi[d] ","
				if (o !~ ",vers=" w[1] ",") print d ": not vers=" w[1] ": " mi[d]
				if (o !~ ",nconnect=" w[2] ",") print d ": mountinfo has no nconnect=" w[2] ": " mi[d]
				if (x[d] != w[2]) print d ": " x[d] + 0 " transports in mountstats, not " w[2]
				if (o !~ ",timeo=" timeo ",") print d ": not timeo=" timeo " (" (timeo == 123 ? "not through the helper" : "through the helper") ")"
				rs = o; sub(/.*,rsize=/, "", rs); sub(/,.*/, "", rs)
				ra = ""; f = "/sys/class/bdi/" dev[d] "/read_ahead_kb"; getline ra < f; close(f)
				if (ra != 15 * rs / 1024) print d ": read_ahead_kb of bdi " dev[d] " is " ra ", not 15 x rsize " rs " = " 15 * rs / 1024
			}
		}' - /proc/self/mountinfo /proc/self/mountstats)
	[ -z "$bad" ] || fail "$(echo "$bad" | head -n 3 | tr '\n' ';') ($(echo "$bad" | wc -l) findings)"
}

# the fifty unmounted, and their two clients gone (the next start creates them again)
fifty_stop() {
	local before i
	before=$(nfs_servers)
	systemctl stop lab-fifty.target || return
	for i in $(seq 1 50); do
		[ "$(nfs_servers)" -le $((before - 2)) ] && return 0
		sleep 0.2
	done
	fail "the fifty's clients are still there: $(tail -n +2 /proc/fs/nfsfs/servers | tr '\n' ';')"
}

# The real mount.nfs the package diverted, as the helper finds it: Debian 12's nfs-common has
# it at /sbin/mount.nfs (diverted to .distrib), Debian 13's at /usr/sbin/mount.nfs (diverted to
# .usr-is-merged); the name that exists is the one
real_mount_nfs() {
	local n t
	for n in /usr/sbin/mount.nfs /sbin/mount.nfs; do
		t=$(dpkg-divert --truename "$n")
		[ "$t" != "$n" ] && [ -x "$t" ] && { readlink -f "$t"; return; }
	done
}

# FLAVOUR: the fifty started again at once (one transaction, as a boot does), their span
fifty_start() {
	local real tuned link rc span
	fifty_stop || return
	if [ "$1" = plain ]; then
		# mount(8) runs /sbin/mount.nfs, the package's link to the helper: for this start it
		# names the real mount.nfs. The helper's own file stays, so udev runs the package's
		# rule (mount.nfs-tuned --udev-bdi) for the new bdis as in the helper's starts
		real=$(real_mount_nfs)
		link=$(readlink -f /sbin)/mount.nfs
		tuned=$(readlink "$link")
		[ -L "$link" ] && [ -x "$real" ] && [ "$(readlink -f "$link")" != "$real" ] ||
			fail "no diverted mount.nfs ($real) or $link is not the package's link" || return
		ln -sfn "$real" "$link.lab" && mv -Tf "$link.lab" "$link" || return
	fi
	systemctl start lab-fifty.target
	rc=$?
	if [ "$1" = plain ]; then ln -sfn "$tuned" "$link.lab" && mv -Tf "$link.lab" "$link" || return; fi
	[ "$rc" = 0 ] || fail "systemctl start of the fifty: status $rc" || return
	fifty_state "$1" || return
	span=$(fifty_span)
	[ "$span" != - ] || fail "no span: $(systemctl show -p ActiveState $(fifty_units) | sort | uniq -c)" || return
	log "  $1: $span s; each mount unit: $(fifty_units_cost)"
	echo "$span" >>"/tmp/fifty-$1"
	fifty_units_cost >>"/tmp/fifty-$1-units"
}

# Where a start's time goes, from systemd's own accounting of the fifty mount units (each
# runs mount(8), the helper if any, mount.nfs): "MEDIAN MAX SUM" of each unit's time from
# leaving inactive to active, in s, and the CPU time all fifty used (cgroup cpu.stat), in s
fifty_units_cost() {
	systemctl show -p Id,InactiveExitTimestampMonotonic,ActiveEnterTimestampMonotonic,CPUUsageNSec \
		$(fifty_units) | awk -v RS= -F'\n' '
		{
			delete v
			for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); x = $i; sub(/^[^=]*=/, "", x); v[k] = x }
			d[++n] = (v["ActiveEnterTimestampMonotonic"] - v["InactiveExitTimestampMonotonic"]) / 1e6
			if (v["CPUUsageNSec"] ~ /^[0-9]+$/) cpu += v["CPUUsageNSec"] / 1e9; else nocpu = 1
		}
		END {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) { t = d[i]; d[i] = d[j]; d[j] = t }
			printf "median %.2f s, max %.2f s, CPU %s s\n", d[int((n + 1) / 2)], d[n], nocpu ? "-" : sprintf("%.2f", cpu) }'
}

# the boot's fifty, then plain and helper in turn (the same boot: the same image, server,
# caches); the figures go on the check's line; the ratio is helper/plain of the later starts
b_fifty() {
	local boot msgs i helper plain
	fifty_state helper || return
	boot=$(fifty_span)
	[ "$boot" != - ] || fail "the boot's fifty have no span" || return
	log "  boot (helper): $boot s; each mount unit: $(fifty_units_cost)"
	rm -f /tmp/fifty-helper /tmp/fifty-plain /tmp/fifty-helper-units /tmp/fifty-plain-units
	# the fifty started again, ROUNDS times plain then through the helper: the ratio of the
	# spans is a benchmark (meson's lab-fifty: LAB_FIFTY_ROUNDS=3, on a machine with nothing
	# else running), not a step of every run: each round takes 130-200 s under the emulator,
	# and one round beside the other lane's VM gave 1.82 where a quiet machine gives 1.20
	local rounds=${LAB_FIFTY_ROUNDS:-0}
	for i in $(seq 1 "$rounds"); do
		fifty_start plain || return
		fifty_start helper || return
	done
	msgs=$(journalctl -b -o cat -u 'mnt-lab-f*.mount' | grep -iE 'nfs-tuned|warning|error' | sort | uniq -c)
	[ -z "$msgs" ] || fail "the helper spoke for the fifty: $(echo "$msgs" | head -n 3 | tr '\n' ';')" || return
	NOTE="boot $boot s (helper)"
	[ "$rounds" -gt 0 ] || { NOTE="$NOTE; not started again (LAB_FIFTY_ROUNDS=0)"; return 0; }
	helper=$(sort -n /tmp/fifty-helper | tr '\n' ' ') plain=$(sort -n /tmp/fifty-plain | tr '\n' ' ')
	NOTE="$NOTE; then $(awk -v h="$helper" -v p="$plain" 'BEGIN {
		nh = split(h, H, " "); np = split(p, P, " ")
		mh = (nh % 2) ? H[(nh + 1) / 2] : (H[nh / 2] + H[nh / 2 + 1]) / 2
		mp = (np % 2) ? P[(np + 1) / 2] : (P[np / 2] + P[np / 2 + 1]) / 2
		printf "helper %.2f s, plain %.2f s (medians of %s, %s), ratio %.2f (the issue'"'"'s goal 1.2: %s)",
			mh, mp, h, p, mh / mp, (mh / mp <= 1.2) ? "met" : "not met" }' | sed 's/ ,/,/g; s/ )/)/')"
	NOTE="$NOTE; each mount unit in the last start: helper $(tail -n1 /tmp/fifty-helper-units), plain $(tail -n1 /tmp/fifty-plain-units)"
}

# One mount at a time (nothing else running): what the helper adds to a mount under the
# emulator, as figures. REPEATS of: the real mount.nfs, the helper, the helper's dry run (-f:
# everything up to the exec), /bin/true (a process at all); medians in ms. Then one helper
# mount with -v, each line stamped (bash's clock, no fork) into the details log: its stages.
b_one_mount() {
	local d=$MNT/one real i t0 t1 f
	real=$(real_mount_nfs)
	mkdir -p "$d"
	rm -f /tmp/one-*
	for i in $(seq 1 "${ONE_REPEATS:-5}"); do
		for f in plain helper dry true; do
			t0=$EPOCHREALTIME
			case $f in
			plain) "$real" $SRV:/export/h "$d" -o vers=3 ;;
			helper) /usr/sbin/mount.nfs-tuned $SRV:/export/h "$d" -o vers=3 ;;
			dry) /usr/sbin/mount.nfs-tuned $SRV:/export/h "$d" -f -o vers=3 ;;
			true) /bin/true ;;
			esac || { fail "$f mount of $SRV:/export/h failed"; return 1; }
			t1=$EPOCHREALTIME
			echo "$t0 $t1" | awk '{ printf "%.1f\n", ($2 - $1) * 1000 }' >>"/tmp/one-$f"
			case $f in plain|helper) umount "$d" || return ;; esac
		done
	done
	t0=${EPOCHREALTIME/./}
	/usr/sbin/mount.nfs-tuned $SRV:/export/h "$d" -v -o vers=3 2>&1 |
		while IFS= read -r l; do n=${EPOCHREALTIME/./}; printf '  +%d ms %s\n' $(((n - t0) / 1000)) "$l"; done >>"$LAB_DETAILS"
	umount "$d"
	NOTE=$(for f in plain helper dry true; do
		printf '%s %s ms, ' "$f" "$(sort -n /tmp/one-$f | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
	done | sed 's/, $//; s/^/one mount at a time (medians): /')
}

check() {
	export LAB_NO_CLEANUP=1 LAB_SCENARIO=boot
	: >"$LAB_LINES"
	echo "# boot ($(cut -d' ' -f1 /proc/uptime) s, remote-fs.target done)"
	t pid1-systemd-package-in-front b_pid1
	t fstab-mounted-through-helper b_mounted
	t mounts-started-in-parallel b_parallel
	t nconnect-is-what-the-helper-said b_nconnect
	t prometheus-timer-wrote-textfile b_timer
	if want fifty; then
		t fifty-mounts b_fifty
		t one-mount-cost b_one_mount
	fi
	want kubernetes && k8s_checks
	local results=/lab/results
	cp "$LAB_LINES" "$results/lines"
	cp "$LAB_DETAILS" "$results/details.log" 2>/dev/null
	journalctl -b -o short-monotonic >"$results/journal.log" 2>&1
	dmesg >"$results/dmesg.log" 2>/dev/null
	echo "lab: boot checks done at $(cut -d' ' -f1 /proc/uptime) s"
	echo "$(grep -c '^ok ' "$LAB_LINES") passed, $(grep -c '^FAIL ' "$LAB_LINES") failed" |
		tee "$results/summary"
	sync
	echo "lab: power off"
	echo o >/proc/sysrq-trigger
}

case ${1:-} in
prepare) prepare ;;
check) check ;;
*) echo "usage: boot.sh prepare|check" >&2; exit 1 ;;
esac
