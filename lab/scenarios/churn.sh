# Scenario: churn with faults (lab/run --churn; not part of the run mode's "all").  Cycle
# after cycle, three mounts of one NFS client through the helper (the first alone, the other
# two at once, each with an nconnect drawn at random) over NFSv3, 4.1, 4.2 and TLS where the
# platform has it; a cycle of every LAB_CHURN_EVERY injects one fault at a random point while
# the two run (the first mount of the next cycle, made before its fault, is the mount after
# the fault). After each cycle the state is checked against the kernel, then everything is
# unmounted.
#   LAB_CHURN_CYCLES  cycles (lab/run's churn row: the suite's short form, 48: each fault 5
#                     times, and 3 cycles for kills that found their helper ended)
#   LAB_CHURN_EVERY   a fault every N cycles (the row's: 1)
#   LAB_CHURN_SEED    the random numbers' seed (1): a failing run is run again as it was
#   LAB_CHURN_SECONDS no cycle begun after this many seconds (the row's: none): a long form
#                     bounded by time, its figures those of the cycles it ran
# The faults, one after the other (each the same number of times, give or take one):
FAULTS="kill-helper kill-helper-and-mount nfsd-restart address-removed rundir-full rundir-readonly umount-lazy udev-program-killed udevd-restarted"
# What counts as an anomaly (each one a line in churn-anomalies.txt, with its cycle and fault):
#   a helper that exited 0 with nothing mounted, or non-zero with its mount there (half-way);
#   a failure in a cycle whose fault does not explain one (only nfsd-restart and
#   address-removed may fail a mount: the server is away);
#   a mount with an nconnect other than it asked and no word of it (warn's "cannot take
#   effect", or the verification's "the kernel gave");
#   a helper of a cycle without a network fault that took 20 s or more (a lock or claim that
#   blocks: the key's lock is waited for 30 s), or any "waited 30 s";
#   a helper or mount.nfs still running 60 s after the cycle's helpers ended;
#   read_ahead_kb other than the config's where no udev fault explains it, and a status that
#   does not name it where one does;
#   `nfs-tuned status` exiting 0 while a mount whose record is this cycle's has an nconnect
#   other than it asked (a false all-clear), or not naming that mount, or naming a finding
#   the cycle's fault does not explain;
#   a claim file (*.claim) left when no helper runs, that the next cycle's mount does not
#   replace (a stale claim is none: the next mount of the key takes the key over);
#   the run directory with files of other names than the three mount points' records and the
#   keys' locks and claims, and udevd with more file descriptors than at its start plus 8.

# the mode's settings (lab/run's row), which the scenario's shell does not inherit
. /lab/guest/params
CYCLES=${LAB_CHURN_CYCLES:-48}
UNTIL=${LAB_CHURN_SECONDS:-}
EVERY=${LAB_CHURN_EVERY:-1}
RANDOM=${LAB_CHURN_SEED:-1}
RUN=/run/nfs-tuned
RA=1024       # the config's read_ahead_kb
RAHEAD=640    # nfsrahead's (nfs-utils' udev rule, before ours)
OURS=/usr/lib/udev/rules.d/99-zz-nfs-tuned.rules
C=/tmp/lab/churn
ANOM=$C/anomalies
FIG=$C/figures

declare -A injected=() hits=() anomalies_of=()
UDEVD_FDS= UDEVD_MAX= UDEVD_FILES= MISSED= RUNDIR_FILES=0 RUNDIR_BYTES=0
OLDREC_a= OLDREC_b= OLDREC_c=
cycle=0 fault= anomalies=0 mounts_made=0 helpers_run=0 failures=0 slowest=0 slowest_what=
vers_list="3 4.1 4.2"

# nap SECONDS: sleep without a process (each costs 50-100 ms under the emulator): a read
# that times out on a FIFO nobody writes
NAP=
nap() {
	[ -n "$NAP" ] || { mkdir -p $C; rm -f $C/nap; mkfifo $C/nap; exec {NAP}<>$C/nap; }
	read -r -t "$1" -u "$NAP" _
	return 0
}

anomaly() {
	anomalies=$((anomalies + 1))
	anomalies_of[${fault:-none}]=$(( ${anomalies_of[${fault:-none}]:-0} + 1 ))
	echo "cycle $cycle (${fault:-no fault}, $VERS): $*" >>"$ANOM"
	echo "lab: churn anomaly: cycle $cycle (${fault:-no fault}, $VERS): $*"
	log "  ANOMALY cycle $cycle (${fault:-no fault}): $*"
}

opts_of() { # VERS NCONNECT
	case $1 in
	tls) echo "vers=4.2,xprtsec=tls,nconnect=$2" ;;
	*) echo "vers=$1,nconnect=$2" ;;
	esac
}

# start NAME NCONNECT: the helper for export NAME in the background; its pid in PID[NAME],
# its exit status and time (ms) in $C/NAME.rc when it ends
declare -A PID=() SUB=() ASKED=()
start() {
	local e=$1 d=$MNT/$1 i
	[ -d "$d" ] || mkdir -p "$d"
	ASKED[$e]=$2
	rm -f "$C/$e.rc" "$C/$e.pid"
	(
		t0=${EPOCHREALTIME/./}
		"$H" "$SRV:/export/$e" "$d" -o "$(opts_of "$VERS" "$2")" >"$C/$e.out" 2>&1 &
		echo $! >"$C/$e.pid"
		wait $!
		echo "$? $(( (${EPOCHREALTIME/./} - t0) / 1000 ))" >"$C/$e.rc"
	) &
	SUB[$e]=$!
	for ((i = 0; i < 400; i++)); do [ -s "$C/$e.pid" ] && break; nap 0.005; done
	read -r "PID[$e]" <"$C/$e.pid"
}
# finish NAME...: waits for their helpers (120 s at most, then SIGKILL: an anomaly)
finish() {
	local e i
	for e in "$@"; do
		for ((i = 0; i < 2400; i++)); do [ -s "$C/$e.rc" ] && break; nap 0.05; done
		if [ ! -s "$C/$e.rc" ]; then
			anomaly "the helper of $e ran 120 s: killed"
			kill -9 "${PID[$e]}" 2>/dev/null
			nap 1
			echo "137 120000" >"$C/$e.rc"
		fi
		# only these: the shell has other children (tlshd)
		wait "${SUB[$e]}" 2>/dev/null
	done
}

# The state of the mounts, read without a process (each costs 50-100 ms under the emulator):
# scan fills NC[DIR] (mountinfo's nconnect, 1 when absent) and DEV[DIR] for /mnt/lab's mounts
declare -A NC=() DEV=()
scan() {
	local l r t o opts
	NC=() DEV=()
	while IFS= read -r l; do
		r=${l#* * * * }; t=${r%% *}
		case $t in "$MNT"/*) ;; *) continue ;; esac
		case ${l##* - } in nfs\ * | nfs4\ *) ;; *) continue ;; esac
		r=${l#* * }; DEV[$t]=${r%% *}
		NC[$t]=1
		IFS=, read -r -a opts <<<"${l##* }"
		for o in "${opts[@]}"; do case $o in nconnect=*) NC[$t]=${o#nconnect=} ;; esac; done
	done </proc/self/mountinfo
}
up() { [ -n "${DEV[$1]:-}" ]; }

# the phase a helper is in: before (no mount.nfs yet), exec (its mount.nfs runs; the claim,
# when it made one, is held) or after (mounted: the verification and the read-ahead)
PHASE=
phase_of() { # PID DIR
	local ch=
	read -r ch </proc/"$1"/task/"$1"/children 2>/dev/null
	scan
	if [ -n "$ch" ]; then PHASE=exec
	elif up "$2"; then PHASE=after
	else PHASE=before; fi
}
# procs COMM...: PIDS, the processes running now whose name (/proc/PID/comm) is one of them,
# and COMMS their names
procs() {
	local d c n
	PIDS=() COMMS=()
	for d in /proc/[0-9]*; do
		read -r c <"$d/comm" 2>/dev/null || continue
		for n in "$@"; do [ "$c" = "$n" ] && PIDS+=("${d#/proc/}") COMMS+=("$c"); done
	done
}
# kills the udev rule's programs (mount.nfs-tuned --udev-bdi) running now; N: how many
rule_kills() {
	local p a
	N=0
	procs mount.nfs-tuned
	for p in "${PIDS[@]}"; do
		mapfile -d '' -t a <"/proc/$p/cmdline" 2>/dev/null
		[ "${a[1]:-}" = --udev-bdi ] || continue
		kill -9 "$p" 2>/dev/null && N=$((N + 1))
	done
}

# the fault, while the helpers of b and c run
inject() {
	local pid=${PID[b]} ms ch n
	ms=$((RANDOM % 400))
	case $fault in
	kill-helper | kill-helper-and-mount)
		# at a random point of the helper's first 0.4 s (it takes 0.3-2 s here): before its
		# mount.nfs, while it runs (the claim held), or after (verifying, read-ahead)
		nap "$(printf '0.%03d' $ms)"
		phase_of "$pid" "$MNT/b"
		n=
		if [ "$fault" = kill-helper-and-mount ] && [ "$PHASE" = exec ]; then
			read -r ch </proc/"$pid"/task/"$pid"/children 2>/dev/null
			[ -n "$ch" ] && kill -9 $ch 2>/dev/null && n=1
		fi
		# with its mount.nfs killed the helper may end first ("mount.nfs was killed by
		# signal 9", exit 2): a hit all the same
		kill -9 "$pid" 2>/dev/null && n=1
		if [ -n "$n" ]; then
			hits[${fault}_$PHASE]=$(( ${hits[${fault}_$PHASE]:-0} + 1 ))
			KILLED=b
		else
			hits[${fault}_missed]=$(( ${hits[${fault}_missed]:-0} + 1 ))
			MISSED=$fault
		fi ;;
	nfsd-restart)
		srv rpc.nfsd 0
		nap "$((1 + RANDOM % 2)).$((RANDOM % 10))"
		srv rpc.nfsd -V 4.0 --lease-time 10 --grace-time 10 8
		srv sh -c 'echo "tcp 2050" >/proc/fs/nfsd/portlist; echo Y >/proc/fs/nfsd/v4_end_grace' 2>/dev/null ;;
	address-removed)
		nap "$(printf '0.%03d' $ms)"
		ip -n srv addr del $SRV/24 dev s0
		nap "$((1 + RANDOM % 3))"
		ip -n srv addr add $SRV/24 dev s0 ;;
	umount-lazy)
		nap "$(printf '0.%03d' $((ms / 3)))"
		umount -l "$MNT/a" && hits[$fault]=$(( ${hits[$fault]:-0} + 1 ))
		LAZY=a ;;
	udev-program-killed)
		# the rule's program (mount.nfs-tuned --udev-bdi) waits for its mount's line while
		# mount.nfs runs: killed then, udev writes nothing for that bdi
		n=0
		while [ ! -s "$C/b.rc" ] || [ ! -s "$C/c.rc" ]; do
			rule_kills; n=$((n + N))
			nap 0.01
		done
		for _ in 1 2 3 4 5 6 7 8 9 10; do rule_kills; n=$((n + N)); nap 0.05; done
		hits[$fault]=$(( ${hits[$fault]:-0} + n )) ;;
	udevd-restarted)
		nap "$(printf '0.%03d' $((ms / 3)))"
		udevd_grew
		udev_stop
		nap 0.3
		udev_start >/dev/null 2>&1 || anomaly "udevd does not start again"
		UDEVD_FDS= ;;
	esac
}

# before the cycle's first mount (the run directory faults hold for the whole cycle)
inject_before() {
	# the records as the cycles before left them (under a run directory fault the helpers
	# cannot replace them): record_asked tells an earlier mount's by them
	OLDREC_a= OLDREC_b= OLDREC_c=
	[ ! -f $RUN/mounts/mnt-lab-a ] || OLDREC_a=$(<$RUN/mounts/mnt-lab-a)
	[ ! -f $RUN/mounts/mnt-lab-b ] || OLDREC_b=$(<$RUN/mounts/mnt-lab-b)
	[ ! -f $RUN/mounts/mnt-lab-c ] || OLDREC_c=$(<$RUN/mounts/mnt-lab-c)
	case $fault in
	rundir-full)
		mount -t tmpfs -o size=64k,mode=0755 tmpfs $RUN || { anomaly "cannot mount a tmpfs on $RUN"; return; }
		dd if=/dev/zero of=$RUN/fill bs=4k 2>/dev/null
		hits[$fault]=$(( ${hits[$fault]:-0} + 1 )) ;;
	rundir-readonly)
		mount --bind $RUN $RUN && mount -o remount,bind,ro $RUN ||
			{ anomaly "cannot make $RUN read-only"; return; }
		hits[$fault]=$(( ${hits[$fault]:-0} + 1 )) ;;
	esac
}
inject_after() {
	local i
	case $fault in
	rundir-full | rundir-readonly)
		# the rule's programs of the cycle's bdis may still read the records there (busy):
		# once udev is done with them it goes
		for ((i = 0; i < 100; i++)); do
			umount $RUN 2>/dev/null && return
			[ "$i" = 0 ] && udevadm settle -t "$SETTLE"
			nap 0.1
		done
		procs mount.nfs-tuned mount.nfs
		anomaly "cannot unmount $RUN's fault in 10 s (running: ${PIDS[*]} ${COMMS[*]}): detached"
		umount -l $RUN ;;
	esac
}

# record_asked NAME: RQ, the record of export NAME's mount point when it is this mount's, as
# status takes it (spec, and dev when written; a record seen mounted, verified_ms, before this
# cycle is an earlier mount's even with the same dev: the kernel gives the number again):
# its nconnect_requested, else empty
record_asked() {
	local f=$RUN/mounts/mnt-lab-$1 dev=${DEV[$MNT/$1]:-} l spec= rdev= req= seen= text old
	RQ=
	[ -f "$f" ] || return 0
	text=$(<"$f")
	while IFS= read -r l; do
		case $l in
		spec=*) spec=${l#spec=} ;;
		dev=*) rdev=${l#dev=} ;;
		verified_ms=*) seen=1 ;;
		nconnect_requested=*) req=${l#nconnect_requested=} ;;
		esac
	done <<<"$text"
	old=OLDREC_$1
	[ -n "$seen" ] && [ "$text" = "${!old}" ] && return 0
	[ "$spec" = "$SRV:/export/$1" ] && { [ -z "$rdev" ] || [ "$rdev" = "$dev" ]; } && RQ=$req
	return 0
}

check_cycle() {
	local e rc ms out eff ra want=() st kinds k x i
	# stray processes: a helper's mount.nfs goes on after its helper was killed
	for ((i = 0; i < 600; i++)); do
		strays
		[ -n "$STRAYS" ] || break
		nap 0.1
	done
	[ -z "$STRAYS" ] || anomaly "processes left 60 s after the helpers: $STRAYS"
	scan
	for e in a b c; do
		[ -s "$C/$e.rc" ] || continue
		read -r rc ms <"$C/$e.rc"
		out=$(<"$C/$e.out")
		helpers_run=$((helpers_run + 1))
		log "  $e: nconnect=${ASKED[$e]} -> exit $rc in $ms ms${out:+: ${out//$'\n'/ | }}"
		[ "$ms" -gt "$slowest" ] && slowest=$ms slowest_what="cycle $cycle, ${fault:-no fault}, $VERS, export $e: exit $rc"
		case $out in *"waited 30 s"*) anomaly "$e: $out" ;; esac
		case $fault in
		nfsd-restart | address-removed) ;;
		*) [ "$ms" -lt 20000 ] || anomaly "$e took $ms ms: $out" ;;
		esac
		[ "$e" = "$KILLED" ] && continue
		[ "$e" = "$LAZY" ] && continue
		if [ "$rc" = 0 ]; then
			up "$MNT/$e" || { anomaly "$e: exit 0, not mounted: $out"; continue; }
			mounts_made=$((mounts_made + 1))
			eff=${NC[$MNT/$e]}
			if [ "$eff" != "${ASKED[$e]}" ]; then
				case $out in
				*"cannot take effect"* | *"the kernel gave"*) ;;
				*) anomaly "$e asked nconnect=${ASKED[$e]}, has $eff, said nothing: '$out'" ;;
				esac
			fi
		else
			failures=$((failures + 1))
			up "$MNT/$e" && anomaly "$e: exit $rc, but mounted: $out"
			case $fault in
			nfsd-restart | address-removed) log "  $e failed ($fault): $rc $out" ;;
			*) anomaly "$e: exit $rc: $out" ;;
			esac
		fi
	done
	# read-ahead and status, against the mounts that are there now (a killed helper's
	# mount.nfs may have made its mount), once udev has handled their bdis' events: until
	# then a bdi may show nfsrahead's value, which the rule's replaces (DESIGN.md, "After
	# mount.nfs succeeds")
	udevadm settle -t "$SETTLE" || anomaly "udev's queue not empty after $SETTLE s"
	scan
	kinds=
	for e in a b c; do
		up "$MNT/$e" || continue
		ra=; read -r ra <"/sys/class/bdi/${DEV[$MNT/$e]}/read_ahead_kb"
		eff=${NC[$MNT/$e]}
		record_asked "$e"
		[ -n "$RQ" ] && [ "$RQ" != 0 ] && [ "$RQ" != "$eff" ] && want+=("$MNT/$e")
		if [ "$ra" != "$RA" ]; then
			case $fault in
			udev-program-killed | udevd-restarted | kill-helper*) kinds="$kinds read-ahead-overwritten" ;;
			*) anomaly "$e: read_ahead_kb $ra, not $RA (udev mode: $(grep -F "bdi ${DEV[$MNT/$e]} " $C/syslog | tail -n 3 | tr '\n' '|'))" ;;
			esac
		fi
	done
	st=$(timeout -k 5 60 "$NT" status 2>&1); rc=$?
	log "  status -> $rc${st:+: ${st//$'\n'/ | }}"
	if [ ${#want[@]} -gt 0 ] && [ "$rc" = 0 ]; then
		anomaly "status exit 0 (all clear) with ${want[*]} not on the nconnect asked"
	fi
	# a mount on another nconnect than it asked: inherited (the mount that set up its client
	# is there) or differs (that mount was unmounted: the lazy umount)
	for x in "${want[@]}"; do
		case $st in
		*"[nconnect-inherited] $x asked"* | *"[nconnect-differs] $x asked"*) ;;
		*) anomaly "status does not name $x (has nconnect=${NC[$x]})" ;;
		esac
	done
	for k in $kinds; do
		case $st in *"[$k]"*) ;; *) anomaly "status does not say $k" ;; esac
	done
	local -A said=()
	while IFS= read -r x; do
		case $x in *": warning: ["*"]"*) x=${x#*: warning: [}; said[${x%%]*}]=1 ;; esac
	done <<<"$st"
	for k in "${!said[@]}"; do
		case " nconnect-inherited nconnect-differs $kinds " in
		*" $k "*) continue ;;
		esac
		anomaly "status says $k, which $fault does not explain: $(printf '%s\n' "$st" | grep -F "[$k]" | head -n 2)"
	done
	[ "$rc" -le 1 ] || anomaly "status exit $rc: $st"
}

# the cycle's mounts (none is mounted over another here); -i: without umount.nfs, a process
# less each
unmount_all() {
	local d
	scan
	for d in "${!DEV[@]}"; do umount -i "$d" 2>/dev/null || umount -i -l "$d"; done
}

# udevd's files against their number one cycle after its start: checked before it is
# stopped (the udevd-restarted fault) and at the end; UDEVD_MAX the most seen
udevd_grew() {
	local f
	udevd_fds; f=$FDS
	[ -n "$f" ] || return 0
	[ "$f" -le "${UDEVD_MAX:-0}" ] || UDEVD_MAX=$f
	[ "$f" -le "${UDEVD_FDS:-$f}" ] || anomaly "udevd has $f files open, $UDEVD_FDS one cycle after its start: $(printf '%s' "$UDEVD_FILES" | uniq -c | tr '\n' ' ')"
}

# the run directory: only the mount points' records and the keys' locks and claims
check_rundir() {
	local f n=0 bytes=0 c LC_ALL=C
	for f in $RUN/* $RUN/*/*; do
		[ -e "$f" ] || continue
		[ -d "$f" ] && continue
		# its size without stat(1): small text files, read whole
		c=; IFS= read -r -d '' c <"$f"
		n=$((n + 1)) bytes=$((bytes + ${#c}))
		case ${f#$RUN/} in
		mounts/mnt-lab-[abc] | clients/*.lock | clients/*.claim) ;;
		*) anomaly "the run directory holds ${f#$RUN/}" ;;
		esac
	done
	RUNDIR_FILES=$n RUNDIR_BYTES=$bytes
}
# FDS: udevd's open files, directories and devices: not its sockets, pipes and pidfds
# (its workers', which come and go with them); one stat(1) for all
UDEVD_PID=
udevd_fds() {
	local p l
	FDS=
	if [ -z "$UDEVD_PID" ] || [ ! -d /proc/$UDEVD_PID ]; then
		# the daemon: the systemd-udevd whose parent is PID 1 (its workers' is the daemon)
		UDEVD_PID=
		procs systemd-udevd
		for p in "${PIDS[@]}"; do
			read -r l <"/proc/$p/stat" 2>/dev/null || continue
			l=${l#*) }; l=${l#* }
			[ "${l%% *}" = 1 ] && { UDEVD_PID=$p; break; }
		done
	fi
	[ -n "$UDEVD_PID" ] || return 0
	UDEVD_FILES=$(stat -c %N /proc/$UDEVD_PID/fd/* 2>/dev/null | sed -n "s/^.* -> '//; s/'\$//; /^\(socket\|pipe\|anon_inode\):/d; p" | sort)
	FDS=$(printf '%s' "$UDEVD_FILES" | grep -c .)
}
# the helpers and mount.nfs processes running now, as "PID COMM; " in STRAYS
strays() {
	local i
	STRAYS=
	procs mount.nfs mount.nfs-tuned
	for i in "${!PIDS[@]}"; do STRAYS="$STRAYS${PIDS[$i]} ${COMMS[$i]}; "; done
}

churn() {
	need_status || return
	local f k i SYSLOGD up
	mkdir -p $C; : >"$ANOM"
	conf "[global]" "nconnect_policy = warn" "read_ahead_kb = $RA"
	mkdir -p /etc/nfs.conf.d /usr/lib/udev/rules.d
	printf '[nfsrahead]\nnfs=%s\nnfs4=%s\ndefault=%s\n' $RAHEAD $RAHEAD $RAHEAD >/etc/nfs.conf.d/lab-rahead.conf
	sed "s|@HELPER@|$H|" /lab/99-zz-nfs-tuned.rules.in >$OURS
	# the udev mode's lines (syslog): what it decided for each bdi
	: >$C/syslog
	busybox syslogd -n -O $C/syslog &
	SYSLOGD=$!
	for ((i = 0; i < 50; i++)); do [ -S /dev/log ] && break; nap 0.1; done
	udev_start || { fail "udevd does not start"; return; }
	[ -z "$(tls_missing)" ] && tls_setup && vers_list="$vers_list tls"
	log "  versions: $vers_list; $CYCLES cycles"
	local -a vl=($vers_list) fl=($FAULTS)
	local t0=${EPOCHREALTIME/./} nf=0 start_files= start_bytes= start_fds=
	for cycle in $(seq 1 "$CYCLES"); do
		if [ -n "$UNTIL" ] && [ $(( (${EPOCHREALTIME/./} - t0) / 1000000 )) -ge "$UNTIL" ]; then
			log "  $LAB_CHURN_SECONDS s: no cycle after cycle $((cycle - 1))"
			CYCLES=$((cycle - 1))
			break
		fi
		VERS=${vl[$((cycle % ${#vl[@]}))]} KILLED= LAZY= fault=
		if [ $((cycle % EVERY)) = 0 ]; then
			# a kill that found its helper ended is made again in the next fault's cycle
			if [ -n "$MISSED" ]; then fault=$MISSED MISSED=
			else fault=${fl[$((nf % ${#fl[@]}))]}; nf=$((nf + 1)); fi
			injected[$fault]=$(( ${injected[$fault]:-0} + 1 ))
		fi
		local p0=${EPOCHREALTIME/./} p1 p2 p3 p4
		# a run directory fault holds from before the first mount, which creates the client
		# (its claim), to after the two that join it (their records)
		inject_before
		start a $((1 << (RANDOM % 4))); finish a
		p1=${EPOCHREALTIME/./}
		start b $((1 << (RANDOM % 4))); start c $((1 << (RANDOM % 4)))
		inject
		finish b c
		inject_after
		p2=${EPOCHREALTIME/./}
		check_cycle
		p3=${EPOCHREALTIME/./}
		unmount_all
		for ((i = 0; i < 50; i++)); do [ "$(nfs_servers)" = 0 ] && break; nap 0.1; done
		check_rundir
		p4=${EPOCHREALTIME/./}
		log "  cycle $cycle: first mount $(tenths $((p1 - p0))) s, two with the fault $(tenths $((p2 - p1))) s, checks $(tenths $((p3 - p2))) s, unmounts $(tenths $((p4 - p3))) s"
		# udevd's files one cycle after its start (the rules read, its first events done)
		[ -n "$UDEVD_FDS" ] || { udevd_fds; UDEVD_FDS=$FDS; UDEVD_MAX=$FDS; }
		if [ "$cycle" = 2 ]; then start_files=$RUNDIR_FILES start_bytes=$RUNDIR_BYTES start_fds=$UDEVD_FDS; fi
		read -r up _ </proc/uptime
		echo "lab: churn cycle $cycle ($VERS, ${fault:-no fault}), $anomalies anomalies ($up s; $(tenths $((p1 - p0))) $(tenths $((p2 - p1))) $(tenths $((p3 - p2))) $(tenths $((p4 - p3))))"
	done
	udevd_grew
	local secs=$(( (${EPOCHREALTIME/./} - t0) / 1000000 ))
	{
		echo "cycles $CYCLES"
		echo "seconds $secs"
		echo "versions $vers_list"
		echo "helpers $helpers_run"
		echo "mounts $mounts_made"
		echo "failures $failures"
		echo "anomalies $anomalies"
		for k in $FAULTS; do echo "fault $k ${injected[$k]:-0} anomalies ${anomalies_of[$k]:-0}"; done
		# hit KIND [PHASE] N: the kills by the helper's phase, the other faults that found
		# their target (a lazy umount of a mount, a rule's program killed)
		for k in "${!hits[@]}"; do echo "hit ${k/_/ } ${hits[$k]}"; done | sort
		echo "anomalies-without-fault ${anomalies_of[none]:-0}"
		echo "rundir-start $start_files files $start_bytes bytes"
		echo "rundir-end $RUNDIR_FILES files $RUNDIR_BYTES bytes"
		echo "udevd-fds $start_fds $FDS $UDEVD_MAX"
		echo "slowest $slowest ms: $slowest_what"
	} >"$FIG"
	cp "$FIG" /lab/results/churn-figures.txt
	cp "$ANOM" /lab/results/churn-anomalies.txt
	cp $C/syslog /lab/results/churn-syslog.txt
	kill "$SYSLOGD" 2>/dev/null; rm -f /dev/log
	udev_stop
	rm -f $OURS /etc/nfs.conf.d/lab-rahead.conf
	tls_stop
	NOTE="$CYCLES cycles in $secs s, $mounts_made mounts, $helpers_run helpers, $anomalies anomalies"
	[ "$anomalies" = 0 ] || fail "$anomalies anomalies: $(head -n 3 "$ANOM" | tr '\n' ' ')"
}
t cycles churn

# one line per fault kind: injected how often, what it hit (a kill by the helper's phase, or
# missed when the helper had ended; the rule's programs killed; a lazy umount that found its
# mount), and the anomalies of its cycles; at least 5 real injections each
per_fault() {
	local l n a h real
	l=$(grep "^fault $1 " $FIG) || { fail "no figures (the cycles did not end)"; return; }
	read -r _ _ n _ a <<<"$l"
	h=$(grep "^hit $1 " $FIG | sed "s/^hit $1 //" | tr '\n' ',' | sed 's/,$//')
	NOTE="injected $n times${h:+ (hits: $h)}"
	case $1 in
	nfsd-restart | address-removed | udevd-restarted) real=$n ;;
	*) real=$(grep "^hit $1 " $FIG | grep -v ' missed ' | awk '{ s += $NF } END { print s + 0 }') ;;
	esac
	[ "$real" -ge 5 ] || { fail "$real real injections (of $n), fewer than 5${h:+: $h}"; return; }
	[ "$a" = 0 ] || { fail "$a anomalies: $(grep -F "($1," "$ANOM" | head -n 2 | tr '\n' ' ')"; return; }
}
for k in $FAULTS; do t "fault-$k" per_fault "$k"; done

# the run directory at the end holds at most the three records and each key's lock and a
# stale claim (one key a version): it does not grow with the cycles
end_state() {
	local s sb e eb f0 f1 fm nv
	[ -f $FIG ] || { fail "no figures"; return; }
	read -r _ s _ sb _ <<<"$(grep '^rundir-start' $FIG)"
	read -r _ e _ eb _ <<<"$(grep '^rundir-end' $FIG)"
	read -r _ f0 f1 fm <<<"$(grep '^udevd-fds' $FIG)"
	nv=$(grep '^versions ' $FIG | wc -w); nv=$((nv - 1))
	NOTE="run directory $s files ($sb bytes) after cycle 2, $e ($eb bytes) at the end; udevd's open files $f0 -> $f1 (at most $fm); $(grep '^slowest' $FIG)"
	[ "$e" -le $((3 + 2 * nv)) ] || { fail "the run directory grew: $s -> $e files, more than $((3 + 2 * nv))"; return; }
}
t end-state end_state
