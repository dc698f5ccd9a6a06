# Scenario: `nfs-tuned status` against the real kernel client: each finding made for real,
# its figures against the kernel's (mountinfo, mountstats, sysfs), run as an unprivileged user.
# The JSON and Prometheus files go to /lab/results; lab/run checks them on the host (the JSON
# against the kernel's figures written beside it, `promtool check metrics`).
# The krb5-multi-connection finding is made for real in krb5.sh (it needs the Kerberos setup).

# need_status and srun (nfs-tuned status as user nobody) are lab/guest/lib.sh's
# the kernel's figures of the mount on DIR: "DIR NCONNECT XPRTS RA"
kernel_line() { echo "$1 $(mi_opt "$1" nconnect) $(xprts "$1") $(ra_of "$1")"; }
# saves the JSON and Prometheus output and the kernel's figures for lab/run's host checks
save_for_host() { # NAME DIR...
	local name=$1 d; shift
	"$NT" status --json >"/lab/results/$name.json" 2>>"$LAB_DETAILS"
	"$NT" status --prometheus "/lab/results/$name.prom" 2>>"$LAB_DETAILS"
	for d in "$@"; do kernel_line "$d"; done >"/lab/results/$name.kernel"
}

status_clean() {
	local a b d want
	need_status || return
	srun
	status_is 0 "no NFS mount at all" || return
	a=$(mp a) b=$(mp b)
	conf "[server \"$SRV\"]" "read_ahead_kb = 15x"
	hrun $SRV:/export/a "$a" -o vers=4.1,nconnect=4
	status_is 0 || return
	hrun $SRV:/export/b "$b" -o vers=4.1,nconnect=4
	status_is 0 || return
	srun -r -n -o target,nconnect,xprts,ra-kb,ra-want-kb,req,record,set-by
	status_is 0 "two mounts as planned: nothing found" || return
	for d in "$a" "$b"; do
		want=$(( $(mi_opt "$d" rsize) * 15 / 1024 ))
		out_has "$(kernel_line "$d") $want 4 current $a" "the kernel's figures" || return
	done
	save_for_host status-clean "$a" "$b"
}
t status-clean-host status_clean

status_findings() {
	local a b c d e f g pid i n0
	need_status || return
	a=$(mp a) b=$(mp b) c=$(mp c) d=$(mp d) e=$(mp e) f=$(mp f) g=$(mp g)
	conf "[global]" "read_ahead_kb = 15360"
	# inheritance: a sets up the NFSv4.1 client with 2, b asks for 8
	hrun $SRV:/export/a "$a" -o vers=4.1,nconnect=2
	hrun $SRV:/export/b "$b" -o vers=4.1,nconnect=8
	# and the other way: c sets up the NFSv3 client with 8, d asks for 1
	hrun $SRV:/export/c "$c" -o vers=3,nconnect=8
	hrun $SRV:/export/d "$d" -o vers=3,nconnect=1
	mounted "$d" || return
	# a client only /proc/fs/nfsfs shows: another mount namespace, the second address
	n0=$(nfs_servers)
	unshare -m --propagation private sh -c "mount.nfs $SRV2:/export/e $e -o vers=3,nconnect=4 && exec sleep 120" &
	pid=$!
	for i in $(seq 1 50); do [ "$(nfs_servers)" -gt "$n0" ] && break; sleep 0.2; done
	# read-ahead overwritten by hand
	echo 4096 >"/sys/class/bdi/$(mi_dev "$a")/read_ahead_kb"
	# an fstab that will fight at the next boot
	printf '%s\n' "$SRV:/export/f $f nfs vers=4.2,nconnect=2,noauto 0 0" \
		"$SRV:/export/g $g nfs vers=4.2,nconnect=8,noauto 0 0" >/etc/fstab
	# nfs-utils' udev rule copied to /etc, where it shadows the package's
	cp /usr/lib/udev/rules.d/99-nfs.rules /etc/udev/rules.d/99-nfs.rules
	srun
	rm -f /etc/udev/rules.d/99-nfs.rules
	save_for_host status-findings "$a" "$b" "$c" "$d"
	kill $pid; wait $pid 2>/dev/null
	status_is 1 "findings" || return
	out_has "warning: [nconnect-inherited] $b asked for nconnect=8 (as the helper recorded when it mounted it) but has 2: it shares the NFS client of $SRV (NFSv4.1) that $a set up first" || return
	out_has "warning: [nconnect-inherited] $d asked for nconnect=1 (as the helper recorded when it mounted it) but has 8: it shares the NFS client of $SRV (NFSv3) that $c set up first" || return
	out_has "warning: [read-ahead-overwritten] $a: read_ahead_kb of bdi $(mi_dev "$a") is 4096, not the 15360 the helper set" || return
	out_has "warning: [fstab-nconnect-conflict] fstab: $g (entry 2, nconnect=8) and $f (entry 1, nconnect=2) will share one NFS client ($SRV port 2049, tcp, NFSv4.2)" || return
	out_has "warning: [udev-rule-shadowed] /etc/udev/rules.d/99-nfs.rules shadows nfs-utils' /usr/lib/udev/rules.d/99-nfs.rules" || return
	out_matches "^$SRV2 +2049 +tcp +3 +4 *\$" "the hidden client, its 4 connections from sunrpc" || return
	value_is "findings" "$(printf '%s\n' "$OUT" | grep -c 'warning: \[')" 5 "nothing else" || return
	OUT=$(cat /lab/results/status-findings.prom)
	out_has "nfs_tuned_client_nconnect{mountaddr=\"$SRV\",port=\"2049\",protocol=\"tcp\",vers=\"4.1\"} 2" || return
	out_matches "^nfs_tuned_mount_info\\{mountpoint=\"$b\",export=" || return
	# the figures, gauges of their own: what $b asked, $a's read-ahead as someone rewrote it
	out_has "nfs_tuned_mount_nconnect_requested{mountpoint=\"$b\"} 8" || return
	out_has "nfs_tuned_mount_read_ahead_bytes{mountpoint=\"$a\"} 4194304" || return
	out_has "nfs_tuned_hidden_clients 1" || return
	out_has "nfs_tuned_status_success 1" "every input read, as nobody" || return
}
t status-findings status_findings

# the local ports of the mount on DIR's transports (the second field of its xprt: lines)
xprt_ports() {
	awk -v d="$1" '$1 == "device" { on = ($5 == d) } on && $1 == "xprt:" { print $3 }' \
		/proc/self/mountstats
}
# the sunrpc sysfs switch of the NFS client to ADDR (port 2049) with N transports, as status
# finds it: by the main transport's local port PORT (when mountstats shows one), else the
# only switch of N transports all to ADDR:2049
switch_of() {
	local sw x all to
	for x in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
		[ "$3" != 0 ] && [ "$(cat "$x/dstaddr" 2>/dev/null)" = "$1" ] &&
			grep -qx "src_port=$3" "$x/xprt_info" 2>/dev/null && { dirname "$x"; return 0; }
	done
	for sw in /sys/kernel/sunrpc/xprt-switches/switch-*; do
		all=0 to=0
		for x in "$sw"/xprt-*; do
			all=$((all + 1))
			[ "$(cat "$x/dstaddr" 2>/dev/null)" = "$1" ] &&
				grep -qx "dst_port=2049" "$x/xprt_info" 2>/dev/null && to=$((to + 1))
		done
		[ "$all" = "$2" ] && [ "$to" = "$2" ] && { echo "$sw"; return 0; }
	done
	return 1
}
# "TOTAL MIN" of the comma-separated sends of the line of DIR in OUT (-rn -o target,...,xprt-sends)
sends_of() {
	printf '%s\n' "$OUT" | awk -v d="$1" '$1 == d { n = split($NF, s, ","); t = 0; m = -1
		for (i = 1; i <= n; i++) { t += s[i]; if (m < 0 || s[i] < m) m = s[i] }
		print t, m, n }'
}

# Per-connection figures on the real kernel: fio over nconnect=4 spreads its requests over all
# four transports; one taken offline through the sunrpc sysfs (rpcctl's xprt_state) is a
# transports-down finding.
status_transports() {
	local n total min cnt port sw x err before after
	need_status || return
	command -v fio >/dev/null || { skip "fio not in the lab image"; return; }
	n=$(mp n)
	hrun $SRV:/export/a "$n" -o vers=4.1,nconnect=4
	mounted "$n" || return
	fio --name=spread --directory="$n" --rw=write --bs=256k --size=4m --numjobs=4 \
		--iodepth=4 --ioengine=libaio --direct=1 --time_based --runtime=6 >/dev/null 2>&1 ||
		{ fail "fio failed"; return; }
	srun -rn -o target,nconnect,xprts,live,xprt-sends "$n"
	log "  sends over the four transports while fio ran: $(printf '%s\n' "$OUT" | head -1)"
	log "  xprt: lines: $(xprt_ports "$n" | tr '\n' ' ')(local ports)"
	for x in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
		log "  $x: $(cat "$x/dstaddr" 2>/dev/null) $(tr '\n' ' ' <"$x/xprt_info" 2>/dev/null | grep -oE 'main_xprt=[0-9]+ src_port=[0-9]+|dst_port=[0-9]+' | tr '\n' ' ')$(cat "$x/xprt_state" 2>/dev/null)"
	done
	status_is 0 "four connections, all live" || return
	read -r total min cnt <<<"$(sends_of "$n")"
	value_is "transports" "$cnt" 4 || return
	[ "$min" -ge $((total / 10)) ] ||
		{ fail "a transport carried $min of $total requests: not all four carry load"; return; }
	out_matches "^$n 4 4 4 " "NCONNECT XPRTS LIVE" || return
	# one of them offline: not the main one (the kernel refuses that)
	port=$(xprt_ports "$n" | head -n1)
	sw=$(switch_of "$SRV" 4 "$port") ||
		{ skip "kernel $(uname -r): no sunrpc sysfs switch for the client ($(ls /sys/kernel/sunrpc/xprt-switches 2>&1 | head -c 200))"; return; }
	x=$(grep -lx "main_xprt=0" "$sw"/xprt-*/xprt_info | head -n1) ||
		{ skip "kernel $(uname -r): $sw shows no main_xprt=0 transport"; return; }
	x=$(dirname "$x")
	log "  $x: $(tr '\n' ' ' <"$x/xprt_info"); $(cat "$x/xprt_state")"
	if ! err=$(echo offline 2>&1 >"$x/xprt_state"); then
		skip "kernel $(uname -r) refuses xprt_state offline: $err"
		return
	fi
	log "  after offline: $(cat "$x/xprt_state")"
	before=$(sends_of "$n")
	fio --name=spread --directory="$n" --rw=write --bs=256k --size=4m --numjobs=4 \
		--iodepth=4 --ioengine=libaio --direct=1 --time_based --runtime=4 >/dev/null 2>&1
	srun -rn -o target,nconnect,xprts,live,xprt-sends "$n"
	after=$(sends_of "$n")
	log "  sends with one transport offline: $(printf '%s\n' "$OUT" | grep "^$n ") (before: $before)"
	echo online >"$x/xprt_state" 2>/dev/null
	status_is 1 "a finding" || return
	# XPRTS: 6.1 leaves the offline transport out of mountstats (3); LIVE from the sysfs
	out_matches "^$n 4 [34] 3 " "LIVE 3" || return
	out_has "[transports-down] the NFS client of $SRV (tcp, NFSv4.1) that $n set up has 3 live transports of the nconnect=4 it was made with (mountstats lists" || return
	out_has "the sunrpc sysfs shows 1 offline)" || return
	srun -rn -o target,live "$n"
	value_is "back online" "$OUT" "$n 4" || return
}
t status-transports status_transports

# A record of an earlier mount on the mount point, whose device number the kernel gives the
# next mount there again (the lowest free one), left because the run directory was read-only
# when that next mount was made through the helper (the churn with faults found it): status
# tells it apart by when it was seen mounted (the record's verified_ms) against the
# superblock's age in mountstats, and uses nothing of it
status_reused_device() {
	local b dev1 i
	need_status || return
	b=$(mp b)
	hrun $SRV:/export/b "$b" -o vers=3,nconnect=8
	status_is 0 || return
	dev1=$(mi_dev "$b")
	umount "$b" || { fail "cannot unmount $b"; return; }
	for i in $(seq 1 50); do [ "$(nfs_servers)" = 0 ] && break; sleep 0.1; done
	# mountstats' age counts whole seconds: a mount two of them later is told apart
	sleep 2.5
	mount --bind /run/nfs-tuned /run/nfs-tuned && mount -o remount,bind,ro /run/nfs-tuned ||
		{ fail "cannot make /run/nfs-tuned read-only"; return; }
	hrun $SRV:/export/b "$b" -o vers=3,nconnect=2
	umount /run/nfs-tuned
	status_is 0 "mounted without its record" || return
	value_is "the device number given again" "$(mi_dev "$b")" "$dev1" || return
	grep -q "^dev=$dev1\$" /run/nfs-tuned/mounts/mnt-lab-b ||
		{ fail "the earlier record is not there: $(cat /run/nfs-tuned/mounts/mnt-lab-b)"; return; }
	srun -r -n -o target,record,req,nconnect
	status_is 0 "nothing of the earlier record's nconnect=8: $OUT" || return
	out_matches "^$b +stale +2\$" "its row: the record stale, nothing asked" || return
	# a record names the boot it was written in (the kernel's boot_id): one of another boot, a
	# run directory kept across a reboot, is stale whatever else it says
	umount "$b"
	hrun $SRV:/export/b "$b" -o vers=3,nconnect=2
	srun -r -n -o target,record,req
	out_matches "^$b +current +2\$" "the new mount's own record" || return
	grep -qx "boot_id=$(cat /proc/sys/kernel/random/boot_id)" /run/nfs-tuned/mounts/mnt-lab-b ||
		{ fail "no boot_id of this boot in $(cat /run/nfs-tuned/mounts/mnt-lab-b)"; return; }
	sed -i 's/^boot_id=.*/boot_id=0b7d8a1e-0000-4000-8000-000000000002/' /run/nfs-tuned/mounts/mnt-lab-b
	srun -r -n -o target,record,req
	out_matches "^$b +stale *\$" "another boot's record" || return
}
t status-reused-device status_reused_device
