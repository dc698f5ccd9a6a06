#!/bin/bash
# The throughput experiments' guest side (lab/throughput; main.sh runs it when
# LAB_MODE=throughput): fio against exports of the lab's server, every case set up through the
# helper alone (its config file and the mount command line; the kernel's state is read back,
# never written), the network shaped on the veth pair with tc: `fq maxrate` is the per-flow cap (a cloud NIC's limit per
# connection), `netem delay` the round trip.
#
# One record a line, tab-separated, to /lab/results/throughput.tsv:
#   EXPERIMENT GROUP CASE REPEAT KEY VALUE
# REPEAT 0 holds labels and facts (GROUP or CASE "-" when the record is about the level
# above); a group's first case is its baseline. lab/throughput makes the table, JSON and plots.
# Experiments (LAB_SCENARIOS, all when empty): scaling neighbour readahead profiles rawindow
# rawcap.
. /lab/guest/lib.sh
. /lab/guest/params
LAB_SCENARIO=throughput

REPEATS=${LAB_THROUGHPUT_REPEATS:-3}
SMOKE=${LAB_THROUGHPUT_SMOKE:-0}
CAP=${LAB_THROUGHPUT_CAP:-40mbit}
RAW=/lab/results/throughput.tsv
VERS=4.1
THREADS=16
ALL="scaling neighbour readahead profiles rawindow rawcap"
if [ "$SMOKE" = 1 ]; then
	# a few short cases of every experiment: that it all works, not its figures
	# (and a shorter queue for the neighbour: each request behind it waits less)
	RT=1 BIG=32 SMALL=16 NCONNS="1 8" RTTS="5" PROFILES=2 NQD=2
	# read_ahead_kb = auto's short form: two round trips, one connection, auto against the
	# kernel's 128 KiB and 15 MiB
	RA_RTTS="5 20" RA_NCS="1" RA_KBS="128 15360" RA_COST="interleaved4"
	RC_RTTS="20" RC_NCS="1" RC_KBS="128 15360"
else
	RT=5 BIG=256 SMALL=64 NCONNS="1 2 4 8 16" RTTS="1 5 20" PROFILES=99 NQD=8
	RA_RTTS="0.5 2 5 20 40" RA_NCS="1 8" RA_COST="random4k interleaved4"
	RA_KBS="128 256 512 1024 2048 4096 8192 15360 32768 65536"
	RC_RTTS="0.5 2 5 20 40" RC_NCS="1 8" RC_KBS="128 256 512 1024 2048 4096 8192 15360"
fi
# rawcap's path: RC_CAP in all, stated as read_ahead_bandwidth; with nconnect N each of the N
# flows capped at RC_CAP / N (fq paces each flow)
RC_CAP=160mbit
RA_KBS=${LAB_THROUGHPUT_WINDOWS:-$RA_KBS}
# the O_DIRECT jobs: two requests (of 256 KiB, the lab's rsize) in flight for each connection
# of the largest nconnect, a 1 MiB block making 4; a write target of its own, laid out by
# the server (fio would write it first)
QD=$(( ${NCONNS##* } / 2 ))
W=$((BIG / 2))
# the neighbour saturates its connections (8 MiB in flight); the light job needs 1 MiB/s in
# 64 KiB reads, 4 in flight
NEIGHBOUR="--rw=read --bs=1M --iodepth=$NQD"
LIGHT="--rw=randread --bs=64k --iodepth=4 --rate=1m"

# Processes are dear under TCG (tens of ms each): what runs between figures stays in bash.
# rec EXPERIMENT GROUP CASE REPEAT KEY VALUE (tabs and newlines in VALUE become spaces)
rec() {
	local v=${6//$'\t'/ }
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "${v//$'\n'/ }" >>"$RAW"
}
figure() {
	local up
	read -r up _ </proc/uptime
	echo "# throughput: [$up s] $*"
	log "  figure: $*"
}

# ---------------------------------------------------------------------------------------
experiment_setup() {
	set -x
	srv rpc.nfsd "$THREADS" || return
	srv mount -o remount,size=$((BIG + W + 16))m /export/a || return
	srv mount -o remount,size=$((SMALL + 16))m /export/b || return
	srv sh -c "head -c ${BIG}M /dev/zero >/export/a/big &&
		head -c ${W}M /dev/zero >/export/a/w &&
		head -c ${SMALL}M /dev/zero >/export/b/small" || return
	set +x
	rec lab - - 0 kernel "$(uname -r)"
	rec lab - - 0 vcpus "$(grep -c ^processor /proc/cpuinfo)"
	rec lab - - 0 mem_mib "$(awk '/^MemTotal/ { print int($2 / 1024) }' /proc/meminfo)"
	rec lab - - 0 fio "$(fio --version)"
	rec lab - - 0 nfsd_threads "$(srv cat /proc/fs/nfsd/threads)"
	rec lab - - 0 cap "$CAP"
	rec lab - - 0 vers "$VERS"
	rec lab - - 0 repeats "$REPEATS"
	rec lab - - 0 smoke "$SMOKE"
	rec lab - - 0 runtime_s "$RT"
	rec lab - - 0 experiments "$EXPERIMENTS"
}

# net CAP RTT: the per-flow cap (fq maxrate) on both ends, or, with a round trip (netem on the
# client's end, requests and ACKs delayed by the whole of it), the cap on the server's end
# only: the experiments with a round trip read and do not write. "" for none.
net() {
	tc qdisc del dev c0 root 2>/dev/null
	srv tc qdisc del dev s0 root 2>/dev/null
	if [ -n "$1" ]; then srv tc qdisc add dev s0 root fq maxrate "$1" || return; fi
	if [ -n "$2" ]; then
		tc qdisc add dev c0 root netem delay "${2}ms" limit 100000 || return
	elif [ -n "$1" ]; then
		tc qdisc add dev c0 root fq maxrate "$1" || return
	fi
	log "  net: client $(tc qdisc show dev c0 root | head -n1);" \
		"server $(srv tc qdisc show dev s0 root | head -n1)"
}

# hmount EXPORT DIR OPTIONS: through the helper, which must succeed
hmount() {
	hrun "$SRV:/export/$1" "$2" -o "$3"
	status_is 0 "$SRV:/export/$1 through the helper" || return
	mounted "$2"
}

# the sends of each transport of the mount on DIR, on one line
xprt_sends() {
	awk -v d="$1" '$1 == "device" { on = ($5 == d) } on && $1 == "xprt:" { printf "%s ", $8 }' \
		/proc/self/mountstats
}
# busy_of SENDS-BEFORE SENDS-AFTER: USED/ALL, the transports that carried a tenth of the
# busiest one's requests at least
busy_of() {
	local -a a=($1) b=($2) d=()
	local k m=0 u=0
	for k in "${!b[@]}"; do
		d[k]=$((b[k] - ${a[k]:-0}))
		[ "${d[k]}" -le "$m" ] || m=${d[k]}
	done
	for k in "${!d[@]}"; do [ "$m" = 0 ] || [ $((d[k] * 10)) -lt "$m" ] || u=$((u + 1)); done
	echo "$u/${#b[@]}"
}
# cpu_ticks: BUSY and IDLE, the guest's CPU time so far (all CPUs, in ticks)
cpu_ticks() {
	local u n s i w q sq st
	read -r _ u n s i w q sq st _ </proc/stat
	BUSY=$((u + n + s + q + sq + st)) IDLE=$((i + w))
}

# fio_run ARGS...: one fio job; KIB its bandwidth (KiB/s, reads or writes), LAT its mean
# latency (ms). No --ramp_time: the requests in flight when it ends count whole, which put a
# deep queue 7% over the cap (nconnect=1, 1.7 s of queue)
fio_run() {
	local out r
	out=$(fio --name=throughput --group_reporting --output-format=terse --terse-version=3 "$@" \
		2>>"$LAB_DETAILS")
	log "  \$ fio $*"
	r=$(awk -F';' 'NF > 80 { r = $5 " " $7 " " $40 / 1000 " " $48 " " $81 / 1000 }
		END { print r }' <<<"$out")
	[ -n "$r" ] || { fail "fio gave no result: $(echo "$out" | head -c 300)"; return 1; }
	set -- $r
	[ "$1" = 0 ] || { fail "fio: error $1"; return 1; }
	if [ "$2" -gt 0 ]; then KIB=$2 LAT=$3; else KIB=$4 LAT=$5; fi
}

# measure EXP GROUP CASE REP DIR FIO-ARGS...: one figure, with the guest's CPU use and how
# many of the mount's transports carried the traffic (a tenth of the busiest one's at least)
measure() {
	local exp=$1 group=$2 case=$3 rep=$4 dir=$5 b0 i0 s0 busy cpu mib
	shift 5
	s0=$(xprt_sends "$dir")
	cpu_ticks
	b0=$BUSY i0=$IDLE
	fio_run "$@" || return
	cpu_ticks
	cpu=$((100 * (BUSY - b0) / (BUSY - b0 + IDLE - i0 + 1)))
	busy=$(busy_of "$s0" "$(xprt_sends "$dir")")
	rec "$exp" "$group" "$case" "$rep" kib_s "$KIB"
	rec "$exp" "$group" "$case" "$rep" lat_ms "$LAT"
	rec "$exp" "$group" "$case" "$rep" cpu_pct "$cpu"
	rec "$exp" "$group" "$case" "$rep" xprts_busy "$busy"
	printf -v mib '%d.%02d' $((KIB / 1024)) $((KIB * 100 / 1024 % 100))
	figure "$exp $group '$case' #$rep: $mib MiB/s, latency $LAT ms, connections busy $busy," \
		"cpu $cpu%"
}

# what the kernel shows for the mount on DIR, once a case
state() { # EXP GROUP CASE REP DIR
	local dev nc rs ra=
	[ "$4" = 1 ] || return 0
	read -r dev nc rs <<<"$(awk -v d="$5" '$5 == d { dev = $3; nc = "-"; rs = "-"
		n = split($NF, o, ",")
		for (k = 1; k <= n; k++) {
			if (o[k] ~ /^nconnect=/) nc = substr(o[k], 10)
			if (o[k] ~ /^rsize=/) rs = substr(o[k], 7)
		} } END { print dev, nc, rs }' /proc/self/mountinfo)"
	read -r ra <"/sys/class/bdi/$dev/read_ahead_kb"
	rec "$1" "$2" "$3" 0 nconnect "${nc#-}"
	rec "$1" "$2" "$3" 0 xprts "$(xprts "$5")"
	rec "$1" "$2" "$3" 0 rsize "${rs#-}"
	rec "$1" "$2" "$3" 0 read_ahead_kb "$ra"
}

# each case a function; its failure is counted and the next case goes on
CASES_FAILED=0
run_case() {
	REASON=
	"$@"
	local rc=$?
	if [ "$rc" != 0 ]; then
		CASES_FAILED=$((CASES_FAILED + 1))
		figure "FAILED: $*: ${REASON:-status $rc}"
	fi
	lab_cleanup >>"$LAB_DETAILS" 2>&1
	return 0
}
end_experiment() {
	net "" ""
	[ "$CASES_FAILED" = 0 ] || fail "$CASES_FAILED case(s) failed ('# throughput: FAILED' above)"
}

# ---------------------------------------------------------------------------------------
# 1. scaling: O_DIRECT sequential read and write, nconnect on the command line
scaling_case() { # REP NET N
	local a opts=vers=$VERS f rw
	a=$(mp a)
	[ "$3" = 1 ] || opts=$opts,nconnect=$3
	hmount a "$a" "$opts" || return
	for rw in read write; do
		state scaling "$rw-$2" "nconnect=$3" "$1" "$a"
		f=big
		[ "$rw" = write ] && f=w
		measure scaling "$rw-$2" "nconnect=$3" "$1" "$a" --filename="$a/$f" \
			--rw=$rw --direct=1 --ioengine=libaio --bs=1M --iodepth=$QD --time_based \
			--runtime=$RT || return
	done
}
experiment_scaling() {
	local rep n rw c what
	for rw in read write; do
		what="O_DIRECT sequential $rw"
		rec scaling "$rw-cap" - 0 label "$what, per-flow cap $CAP"
		rec scaling "$rw-nocap" - 0 label "$what, no cap (the emulator's ceiling)"
	done
	for rep in $(seq 1 "$REPEATS"); do
		for c in cap nocap; do
			if [ $c = cap ]; then net "$CAP" "" || return; else net "" "" || return; fi
			for n in $NCONNS; do run_case scaling_case "$rep" $c "$n"; done
		done
	done
	end_experiment
}

# ---------------------------------------------------------------------------------------
# 2. noisy neighbour: the light job on export b, alone or beside the neighbour on export a
light() { # GROUP CASE REP BESIDE(0|1)
	local a b nb
	a=$MNT/a b=$MNT/b
	state neighbour "$1" "$2" "$3" "$b"
	if [ "$4" = 1 ]; then
		# the neighbour runs until the light job is done (SIGINT: fio stops and reports)
		fio --name=neighbour $NEIGHBOUR --direct=1 --ioengine=libaio --filename="$a/big" \
			--time_based --runtime=600 --output-format=terse --terse-version=3 \
			>/tmp/lab/neighbour 2>>"$LAB_DETAILS" &
		nb=$!
		wait_sends "$a" || { kill "$nb"; wait "$nb"; return 1; }
	fi
	measure neighbour "$1" "$2" "$3" "$b" --filename="$b/small" $LIGHT --direct=1 \
		--ioengine=libaio --time_based --runtime=$RT
	local rc=$?
	if [ "$4" = 1 ]; then
		kill -INT "$nb"
		wait "$nb"
		nb=$(awk -F';' 'NF > 80 { print $7 }' /tmp/lab/neighbour)
		rec neighbour "$1" "$2" "$3" nb_kib_s "$nb"
	fi
	return $rc
}
# wait_sends DIR: until the transports of the mount on DIR have sent 16 more requests (the
# neighbour's queue is building; 10 s at most)
wait_sends() {
	local s0 s i
	s0=$(xprt_sends "$1")
	s0=$((${s0// /+}0))
	for i in $(seq 1 100); do
		s=$(xprt_sends "$1")
		[ $((${s// /+}0)) -lt $((s0 + 16)) ] || return 0
		sleep 0.1
	done
	fail "the neighbour sent nothing in 10 s"
}
nn_plain() { # REP GROUP CASE BESIDE OPTIONS [CONFIG...]
	local rep=$1 group=$2 case=$3 beside=$4 opts=$5
	shift 5
	[ $# = 0 ] || conf "$@"
	if [ "$beside" = 1 ]; then hmount a "$(mp a)" "$opts" || return; fi
	hmount b "$(mp b)" "$opts" || return
	light "$group" "$case" "$rep" "$beside"
}
# the trap: the neighbour mounted first without nconnect, then the light job asks for 8
nn_trap() { # REP POLICY
	local rep=$1 pol=$2 case=$2
	conf "[global]" "nconnect_policy = $pol"
	hmount a "$(mp a)" "vers=$VERS" || return
	hrun "$SRV:/export/b" "$(mp b)" -o "vers=$VERS,nconnect=8"
	if [ "$rep" = 1 ]; then
		rec neighbour trap "$case" 0 helper_exit "$RC"
		rec neighbour trap "$case" 0 helper_said "$OUT"
	fi
	if [ "$pol" = refuse ]; then
		status_is 32 "refused" || return
		not_mounted "$MNT/b" || return
		figure "neighbour trap 'refuse' #$rep: refused, exit $RC"
		# as the refusal says: every mount of that client unmounted first (and the client
		# gone), then the light job's mount with its nconnect=8 sets the client, the
		# neighbour's shares it
		case="refuse, then as it says"
		lab_cleanup >>"$LAB_DETAILS" 2>&1 ||
			{ fail "the neighbour's client stayed"; return 1; }
		conf "[global]" "nconnect_policy = $pol"
		hmount b "$MNT/b" "vers=$VERS,nconnect=8" || return
		hmount a "$MNT/a" "vers=$VERS" || return
		nconn_is "$MNT/b" 8 "the light job's mount set the client" || return
	else
		status_is 0 "$pol lets the mount go ahead" || return
		mounted "$MNT/b" || return
	fi
	light trap "$case" "$rep" 1
}
experiment_neighbour() {
	local rep p c8=("[server \"$SRV\"]" "nconnect = 8")
	net "$CAP" "" || return
	rec neighbour none - 0 label "no nconnect"
	rec neighbour config8 - 0 label "nconnect = 8 in the helper's config"
	p="the trap: the neighbour mounted first without nconnect,"
	rec neighbour trap - 0 label "$p then the light job asks for nconnect=8"
	rec neighbour - - 0 light "$LIGHT (O_DIRECT), export b"
	rec neighbour - - 0 neighbour "$NEIGHBOUR (O_DIRECT), export a"
	for rep in $(seq 1 "$REPEATS"); do
		run_case nn_plain "$rep" none alone 0 "vers=$VERS"
		run_case nn_plain "$rep" none beside 1 "vers=$VERS"
		run_case nn_plain "$rep" config8 alone 0 "vers=$VERS" "${c8[@]}"
		run_case nn_plain "$rep" config8 beside 1 "vers=$VERS" "${c8[@]}"
		run_case nn_plain "$rep" trap "alone, nconnect=8 asked" 0 "vers=$VERS,nconnect=8"
		for p in warn follow refuse; do run_case nn_trap "$rep" $p; done
	done
	end_experiment
}

# ---------------------------------------------------------------------------------------
# 3. and 4.: buffered sequential read from a cold page cache, 128 KiB at a time (cp's and
# cat's buffer): a read larger than the read-ahead makes the kernel read up to rsize ahead
# (the bdi's io_pages), which would hide the 128 KiB default behind the application's size
buffered() { # EXP GROUP CASE REP
	local a
	a=$MNT/a
	state "$@" "$a"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	measure "$@" "$a" --filename="$a/big" --rw=read --bs=128k --direct=0 --ioengine=psync \
		--size=${BIG}M --runtime=$RT
}
ra_case() { # REP RTT SETTING
	[ "$3" = kernel ] || conf "[global]" "read_ahead_kb = $3"
	hmount a "$(mp a)" "vers=$VERS" || return
	buffered readahead "rtt$2" "$3" "$1"
}
experiment_readahead() {
	local rep rtt s
	for rtt in $RTTS; do
		rec readahead "rtt$rtt" - 0 label "buffered sequential read, $rtt ms round trip"
	done
	for rep in $(seq 1 "$REPEATS"); do
		for rtt in $RTTS; do
			net "" "$rtt" || return
			for s in kernel 15x 15360; do run_case ra_case "$rep" "$rtt" $s; done
		done
	done
	end_experiment
}

profile_case() { # REP PROFILE ("bare" for none)
	[ "$2" = bare ] || conf "[server \"$SRV\"]" "profile = $2"
	hmount a "$(mp a)" "vers=$VERS" || return
	buffered profiles cap-rtt5 "$2" "$1"
}
experiment_profiles() {
	local rep p list
	list=$(sed -n 's/^\[profile "\(.*\)"\]/\1/p' /lab/profiles/*.conf | head -n "$PROFILES")
	p="buffered sequential read, per-flow cap $CAP, 5 ms round trip"
	rec profiles cap-rtt5 - 0 label "$p"
	net "$CAP" 5 || return
	# as the package ships them: in the vendor directory, named by no [server] of the lab's
	mkdir -p /usr/lib/nfs-tuned.conf.d
	cp /lab/profiles/*.conf /usr/lib/nfs-tuned.conf.d/
	for rep in $(seq 1 "$REPEATS"); do
		for p in bare $list; do run_case profile_case "$rep" "$p"; done
	done
	rm -rf /usr/lib/nfs-tuned.conf.d
	end_experiment
}

# ---------------------------------------------------------------------------------------
# 5. rawindow: what window a single sequential reader needs at each round trip, and what a
# window costs other readers. read_ahead_kb from 128 KiB to 64 MiB, and `auto` (the helper
# sizes it from the mount's measured round trip and the path's bandwidth, stated in the config
# as an admin would: the emulator's buffered-read ceiling, measured first), against:
#   rtt<R>-nc<N>  a buffered sequential read (buffered(), above), R ms round trip, nconnect N
#   random4k      4 KiB random reads (cold cache), 5 ms
#   interleaved4  four sequential readers of 16 MiB each, 64 MiB apart in one file, 5 ms
#                 (the smoke: 2 MiB, 8 MiB apart)
# The cost: `amp`, the bytes the client read from the server per byte the readers asked for
# (mountstats' bytes: serverreadbytes over normalreadbytes).
read_bytes() { # DIR: normalreadbytes serverreadbytes of the mount on DIR
	awk -v d="$1" '$1 == "device" { on = ($5 == d) } on && $1 == "bytes:" { print $2, $6; exit }' \
		/proc/self/mountstats
}
rw_mount() { # SETTING [OPTIONS]: export a on $MNT/a, read_ahead_kb as SETTING says; auto
	# with -v: AUTO_SAID, what the helper measured and chose
	if [ "$1" = auto ]; then
		conf "[global]" "read_ahead_kb = auto" "read_ahead_bandwidth = $RA_BW"
		hrun "$SRV:/export/a" "$(mp a)" -v -o "vers=$VERS${2:+,$2}"
		status_is 0 "$SRV:/export/a through the helper" || return
		AUTO_SAID=$(grep -o 'read-ahead: auto: .*' <<<"$OUT" | tr '\n' ' ')
		mounted "$MNT/a"
	else
		conf "[global]" "read_ahead_kb = $1"
		hmount a "$(mp a)" "vers=$VERS${2:+,$2}"
	fi
}
rw_seq() { # REP RTT NC SETTING
	local opts=
	[ "$3" = 1 ] || opts=nconnect=$3
	rw_mount "$4" "$opts" || return
	[ "$4" != auto ] || rec rawindow "rtt$2-nc$3" auto "$1" helper_said "$AUTO_SAID"
	buffered rawindow "rtt$2-nc$3" "$4" "$1"
}
rw_cost() { # REP KIND SETTING
	local a n0 s0 n1 s1
	rw_mount "$3" || return
	a=$MNT/a
	state rawindow "$2" "$3" "$1" "$a"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	read -r n0 s0 <<<"$(read_bytes "$a")"
	case $2 in
	random4k) measure rawindow "$2" "$3" "$1" "$a" --filename="$a/big" --rw=randread \
		--bs=4k --direct=0 --ioengine=psync --number_ios=400 --runtime=$RT ;;
	interleaved4) measure rawindow "$2" "$3" "$1" "$a" --filename="$a/big" --rw=read \
		--bs=128k --direct=0 --ioengine=psync --numjobs=4 --size=$((BIG / 16))M \
		--offset_increment=$((BIG / 4))M --runtime=$((RT * 4)) ;;
	esac || return
	read -r n1 s1 <<<"$(read_bytes "$a")"
	[ $((n1 - n0)) -gt 0 ] || { fail "$2: the readers read nothing ($n0 -> $n1)"; return 1; }
	rec rawindow "$2" "$3" "$1" amp "$(awk -v n=$((n1 - n0)) -v s=$((s1 - s0)) \
		'BEGIN { printf "%.3f", s / n }')"
	figure "rawindow $2 '$3' #$1: $((n1 - n0)) bytes read, $((s1 - s0)) from the server"
}
rw_ceiling() {
	rw_mount 65536 || return
	sync
	echo 3 >/proc/sys/vm/drop_caches
	fio_run --filename="$MNT/a/big" --rw=read --bs=128k --direct=0 --ioengine=psync \
		--size=${BIG}M --runtime=$RT || return
	RA_BW=$((KIB / 1024))
}
experiment_rawindow() {
	local rep rtt nc kb k
	# the path's bandwidth, as an admin states it: the emulator's buffered-read ceiling
	# (64 MiB of read-ahead, no delay)
	net "" "" || return
	RA_BW=
	run_case rw_ceiling
	[ -n "$RA_BW" ] && [ "$RA_BW" -gt 0 ] || { fail "the ceiling was not measured"; return 1; }
	rec rawindow - - 0 bandwidth_mib_s "$RA_BW"
	figure "rawindow: read_ahead_bandwidth = $RA_BW (MiB/s, the ceiling measured)"
	for rtt in $RA_RTTS; do
		for nc in $RA_NCS; do
			k=nconnect=$nc
			rec rawindow "rtt$rtt-nc$nc" - 0 label "buffered sequential read, $rtt ms round trip, $k"
		done
	done
	for k in $RA_COST; do
		rec rawindow "$k" - 0 label "$k: $( [ $k = random4k ] && echo "4 KiB random reads" ||
			echo "4 sequential readers of $((BIG / 16)) MiB, $((BIG / 4)) MiB apart"), 5 ms round trip"
	done
	for rep in $(seq 1 "$REPEATS"); do
		for rtt in $RA_RTTS; do
			net "" "$rtt" || return
			for nc in $RA_NCS; do
				for kb in $RA_KBS auto; do run_case rw_seq "$rep" "$rtt" "$nc" "$kb"; done
			done
		done
		[ -z "$RA_COST" ] || net "" 5 || return
		for k in $RA_COST; do
			for kb in $RA_KBS auto; do run_case rw_cost "$rep" "$k" "$kb"; done
		done
	done
	end_experiment
}

# ---------------------------------------------------------------------------------------
# 6. rawcap: as rawindow's single reader, but where the path and not the emulator's CPU is the
# limit: RC_CAP in all (fq maxrate on the server's end, per flow: with nconnect N each of the N
# connections at RC_CAP / N), that rate stated as read_ahead_bandwidth, as an admin states a
# provisioned throughput
rc_seq() { # REP RTT NC SETTING
	local g=cap-rtt$2-nc$3 opts=
	[ "$3" = 1 ] || opts=nconnect=$3
	rw_mount "$4" "$opts" || return
	[ "$4" != auto ] || rec rawcap "$g" auto "$1" helper_said "$AUTO_SAID"
	buffered rawcap "$g" "$4" "$1"
}
experiment_rawcap() {
	local rep rtt nc kb cap
	# 160mbit: 160 x 10^6 / 8 bytes a second, in whole MiB/s
	RA_BW=$(awk -v r="$RC_CAP" 'BEGIN { sub(/mbit$/, "", r); print int(r * 1e6 / 8 / 1048576) }')
	rec rawcap - - 0 bandwidth_mib_s "$RA_BW"
	for rtt in $RC_RTTS; do
		for nc in $RC_NCS; do
			cap="$RC_CAP ($RA_BW MiB/s) over nconnect=$nc, $((${RC_CAP%mbit} / nc))mbit each"
			rec rawcap "cap-rtt$rtt-nc$nc" - 0 label "buffered sequential read, $cap, $rtt ms round trip"
		done
	done
	for rep in $(seq 1 "$REPEATS"); do
		for rtt in $RC_RTTS; do
			for nc in $RC_NCS; do
				cap=$((${RC_CAP%mbit} / nc))mbit
				net "$cap" "$rtt" || return
				for kb in $RC_KBS auto; do run_case rc_seq "$rep" "$rtt" "$nc" "$kb"; done
			done
		done
	done
	end_experiment
}

# ---------------------------------------------------------------------------------------
EXPERIMENTS=${LAB_SCENARIOS:-$ALL}
: >"$RAW"
: >"$LAB_LINES"
if ! [ -x "$H" ]; then
	report "FAIL throughput: no helper (build/src/mount.nfs-tuned): every case is set up through it"
elif ! experiment_setup >>"$LAB_DETAILS" 2>&1; then
	report "FAIL throughput/setup: the server's files or threads (see details.log)"
else
	for e in $EXPERIMENTS; do
		case " $ALL " in
		*" $e "*) CASES_FAILED=0; t "$e" "experiment_$e" ;;
		*) report "FAIL throughput/$e: no such experiment (one of: $ALL)" ;;
		esac
	done
fi
