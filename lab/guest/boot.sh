#!/bin/bash
# The boot scenario: the package installed, an fstab of several exports of one server with
# different nconnect (_netdev), then systemd as PID 1 mounts them, in parallel, through its
# fstab generator and mount units, as at an admin's boot.
#   boot.sh prepare   (before systemd, from main.sh: install, fstab, units; /init then
#                      execs systemd)
#   boot.sh check     (lab-check.service, once remote-fs.target is done: the checks, the
#                      results to /lab/results, power off)
. /lab/guest/lib.sh

# export:nconnect; all distinct, so exactly one mount sets the client and the others share it
BOOT_MOUNTS="a:2 b:3 c:4 d:8"
unit_of() { systemd-escape -p --suffix=mount "$MNT/$1"; }

prepare() {
	set -x
	local deb m
	deb=$(ls /lab/debs/nfs-tuned_*.deb 2>/dev/null | grep -v '~prev' | head -n1)
	[ -n "$deb" ] || { echo "no nfs-tuned package in /lab/debs"; return 1; }
	DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" || return 1
	# a default the kernel shows for every mount: each went through the helper
	printf '[global]\ntimeo = 123\n' >"$CONF"
	: >/etc/fstab
	for m in $BOOT_MOUNTS; do
		echo "$SRV:/export/${m%%:*} $MNT/${m%%:*} nfs vers=4.1,nconnect=${m#*:},_netdev 0 0" >>/etc/fstab
	done
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
	j=$(journalctl -b -o cat _PID=1 | grep -E "^Mount(ing|ed) .*$MNT/")
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
		said=$(echo "$msg" | sed -n 's/.*connections\{0,1\} (nconnect=\([0-9]*\)).*/\1/p')
		[ "$said" = "$eff" ] || fail "the helper said nconnect=$said for $u, the kernel has $eff" || return
	done
	[ "$winners" = 1 ] || fail "$winners mounts asked for the effective nconnect=$eff, expected 1" || return
}

check() {
	export LAB_NO_CLEANUP=1 LAB_SCENARIO=boot
	: >"$LAB_LINES"
	echo "# boot ($(cut -d' ' -f1 /proc/uptime) s, remote-fs.target done)"
	t pid1-systemd-package-in-front b_pid1
	t fstab-mounted-through-helper b_mounted
	t mounts-started-in-parallel b_parallel
	t nconnect-is-what-the-helper-said b_nconnect
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
