#!/bin/bash
# Integration cases, prepare: the values of -o options as the kernel reads them, and input
# that cannot forge a message.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_nconnect_range() {
	for v in 0 17 -1 abc "" 99999999999999999999; do
		run 10.99.0.1:/e "$DIR" -o "vers=3,nconnect=$v"
		status_is 32; mount_nfs_not_run; out_has "refusing to mount: nconnect=$v (from the command line) is not valid: it must be a number from 1 to 16"
	done
	run 10.99.0.1:/e "$DIR" -o vers=5
	status_is 32; out_has "vers=5 (from the command line) is not valid: it must be 3, 4, 4.0, 4.1 or 4.2"
}
tc_kernel_number_forms() {
	# the kernel reads u32 options with base 0 (0x hex, 0 octal, a leading +): the helper too
	for v in 0x4 +4 0X4 04; do
		: > "$T/mountinfo"
		newmount 0:60 "${V3NEW/hard,/hard,nconnect=4,}"
		run 10.99.0.1:/e "$DIR" -o "vers=3,nconnect=$v"
		status_is 0 "nconnect=$v"; mount_nfs_ran; out_quiet
		value_is "options passed" "$(argv 5)" "vers=3,nconnect=$v"
	done
	# 010 is 8 to the kernel: the kernel's 8 is what was planned, no "raced" warning
	: > "$T/mountinfo"
	newmount 0:60 "${V3NEW/hard,/hard,nconnect=8,}"
	run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=010
	status_is 0; out_quiet
	: > "$T/mountinfo"
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/e "$DIR" -o vers=3,port=0x801
	status_is 0; mount_nfs_ran
	# 08 is no octal number: the kernel refuses it, so does the helper, saying what it must be
	run 10.99.0.1:/e "$DIR" -o vers=3,nconnect=08
	status_is 32; mount_nfs_not_run; out_has "nconnect=08 (from the command line) is not valid: it must be a number from 1 to 16"
}
tc_bad_values_named() {
	run 10.99.0.1:/e "$DIR" -o v4.99
	status_is 32; out_has "refusing to mount: v4.99 (from the command line) is not valid: it must be v3, v4, v4.0, v4.1 or v4.2"
	out_lacks "must be see"; out_lacks "v4.99="
}
tc_check_config_bad_values_named() {
	needs_root_check_config
	conf '[global]' 'v4.99' '[server "10.0.0.0/33"]'
	run --check-config
	status_is 1; out_has "$T/conf:2: v4.99: v4.99 must be v3, v4, v4.0, v4.1 or v4.2, skipped"
	out_has "not a valid CIDR: the prefix length of an IPv4 network is 0 to 32"
}
tc_messages_escaped() {
	# a newline in the input cannot forge a second message line
	run "$(printf 'bad\nmount.nfs-tuned forged')" "$DIR"
	status_is 1; out_has "'bad\x0amount.nfs-tuned forged' is not a remote file system"
	value_is "lines printed" "$(printf '%s' "$OUT" | wc -l)" 1
}

run_cases "$@"
