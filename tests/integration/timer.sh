#!/bin/bash
# The systemd service of nfs-tuned status --prometheus (systemd/), as systemd would judge its
# run: its own ExecStart= line run (the installed binary's path replaced by the built one, the
# textfile directory of ConditionPathIsDirectory= by a scratch one) on a fixture host, its exit
# status held against SuccessExitStatus=. Findings are a success of the unit, an input that
# cannot be read a failure. The lab's systemd boot (lab/guest/boot.sh) runs the real timer.
#   timer.sh --list                       the case names (meson registers them)
#   timer.sh BINARY SERVICE-FILE CASE     runs one case
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/status-host.sh"

V41="vers=4.1,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,clientaddr=10.99.0.2,local_lock=none"

# nfs_mount ID DEV TARGET OPTS: a mountinfo line of 10.99.0.1, its mountstats entry (one
# transport) and its bdi
nfs_mount() {
	echo "$1 21 $2 / $3 rw,relatime shared:$1 - nfs4 10.99.0.1:/export$1 rw,$4" >>"$T/mountinfo"
	printf 'device 10.99.0.1:/export%s mounted on %s with fstype nfs4 statvers=1.1\n\topts:\trw\n' \
		"$1" "$3" >>"$T/mountstats"
	printf '\txprt:\ttcp 700 1 1 0 0 0 0 0 0 0 65 0 0\n' >>"$T/mountstats"
	mkdir -p "$T/sys/class/bdi/$2"
	echo 128 >"$T/sys/class/bdi/$2/read_ahead_kb"
}
# unit_key KEY: the value of KEY= in the service file (the last one, as systemd reads it)
unit_key() { sed -n "s/^$1=//p" "$UNIT" | tail -n 1; }

# run_unit: the service's ExecStart= as systemd runs it; sets RC, OUT (stderr) and SUCCESS
# (yes when systemd counts the exit status a success: 0 or one of SuccessExitStatus=)
run_unit() {
	local exec dir ok s
	exec=$(unit_key ExecStart)
	dir=$(unit_key ConditionPathIsDirectory)
	[ -n "$exec" ] && [ -n "$dir" ] || { fail "$UNIT: no ExecStart= or ConditionPathIsDirectory="; return; }
	# the binary the unit names (its first word), then the textfile directory
	exec="$BIN ${exec#* }"
	exec=${exec//"$dir"/$T/textfile}
	case $exec in
	*"--prometheus $T/textfile/"*) ;;
	*) fail "$UNIT: ExecStart= does not write into ConditionPathIsDirectory= ($dir): $exec" ;;
	esac
	read -ra argv <<<"$exec"
	"${argv[@]}" >/dev/null 2>"$T/err"
	RC=$?
	OUT=$(cat "$T/err")
	SUCCESS=no
	for s in 0 $(unit_key SuccessExitStatus); do
		[ "$s" = "$RC" ] && SUCCESS=yes
	done
}

tm_clean_host_succeeds() {
	nfs_mount 40 0:53 /mnt/a "$V41,sec=sys,addr=10.99.0.1"
	run_unit
	status_is 0 "nothing found"
	value_is "the unit's verdict" "$SUCCESS" yes
	OUT=$(cat "$T/textfile/nfs-tuned.prom")
	out_has 'nfs_tuned_status_success 1'
}
tm_findings_are_no_failure() {
	# the TLS mount /mnt/b was folded into the plain client of /mnt/a: a finding, exit 1
	nfs_mount 40 0:53 /mnt/a "$V41,sec=sys,addr=10.99.0.1"
	nfs_mount 41 0:54 /mnt/b "$V41,sec=sys,addr=10.99.0.1"
	printf '%s\n' "# nfs-tuned mount record 1" "spec=10.99.0.1:/export41" "target=/mnt/b" \
		"nconnect_requested=0" "xprtsec=tls" "dev=0:54" >"$T/run/mounts/mnt-b"
	run_unit
	status_is 1 "findings"
	value_is "the unit's verdict" "$SUCCESS" yes "findings are in the file, not a failed unit"
	OUT=$(cat "$T/textfile/nfs-tuned.prom")
	out_has 'nfs_tuned_findings{code="tls-not-applied",mountpoint="/mnt/b"} 1'
}
tm_unreadable_input_fails() {
	nfs_mount 40 0:53 /mnt/a "$V41,sec=sys,addr=10.99.0.1"
	# mountstats that cannot be read, by root as by any user: a directory in its place
	rm "$T/mountstats" && mkdir "$T/mountstats"
	run_unit
	status_is 2 "an input that cannot be read"
	value_is "the unit's verdict" "$SUCCESS" no "the unit fails: systemctl --failed shows it"
	OUT=$(cat "$T/textfile/nfs-tuned.prom")
	out_has 'nfs_tuned_status_success 0'
}

harness_setup() {
	BIN=$1 UNIT=$2
	[ -f "$UNIT" ] || { echo "no service file $UNIT"; exit 2; }
	status_host
	mkdir -p "$T/textfile"
	ERR=
}

harness_main tm 3 "timer.sh --list | timer.sh BINARY SERVICE-FILE CASE" "$@"
