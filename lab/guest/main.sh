#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# Second stage of the lab guest (run by /init from the 9p share /lab as root):
# sets up the NFS server and client network namespaces, then runs what LAB_MODE's row of
# the table at the end says (the scenarios, the boot, the demo, the throughput experiments)
# and leaves the results in /lab/results.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
. /lab/guest/params
. /lab/guest/lib.sh

results=/lab/results
: >"$LAB_LINES"
echo "lab: second stage at $(cut -d' ' -f1 /proc/uptime) s"

if ! lab_setup >"$results/setup.log" 2>&1; then
	cat "$results/setup.log"
	echo "FAIL lab: server setup failed (see setup.log)"
	echo "FAIL lab: server setup failed" >>"$LAB_LINES"
	echo "0 passed, 1 failed" | tee "$results/summary"
	cp "$LAB_LINES" "$results/lines"
	exit 0
fi
echo "lab: server ready at $(cut -d' ' -f1 /proc/uptime) s (helper: $([ -x "$H" ] && echo "$H" || echo none))"

# the boot: the package installed, then systemd takes over as PID 1 when this returns
# (/init); lab-check.service ends the run (lab/guest/boot.sh)
mode_boot() {
	if bash /lab/guest/boot.sh prepare >>"$results/setup.log" 2>&1; then
		echo "lab: package installed, systemd takes over at $(cut -d' ' -f1 /proc/uptime) s"
	else
		tail -n 20 "$results/setup.log"
		echo "FAIL boot: preparing the boot failed (see setup.log)" | tee -a "$LAB_LINES"
		cp "$LAB_LINES" "$results/lines"
		echo "0 passed, 1 failed" | tee "$results/summary"
	fi
}

# a script of the mode's own, /lab/guest/MODE.sh, its lines the results
mode_script() {
	bash "/lab/guest/$1.sh"
	echo "lab: $1 done at $(cut -d' ' -f1 /proc/uptime) s"
	cp "$LAB_LINES" "$results/lines"
	cp "$LAB_DETAILS" "$results/details.log" 2>/dev/null
	echo "$(grep -c '^ok ' "$LAB_LINES") passed, $(grep -c '^FAIL ' "$LAB_LINES") failed" >"$results/summary"
}

# the scenarios named (LAB_SCENARIOS), else the mode's: all (every one of /lab/scenarios
# but upgrade.sh, which needs the upgraded image, and churn.sh, a boot of its own) or the one
# NAME given
mode_scenarios() {
	if [ -n "$LAB_SCENARIOS" ]; then
		list=
		for s in $LAB_SCENARIOS; do
			s=${s%.sh}; s=${s##*/}
			if [ -f "/lab/scenarios/$s.sh" ]; then list="$list /lab/scenarios/$s.sh"
			else echo "FAIL $s: no such scenario (lab/scenarios/$s.sh)" | tee -a "$LAB_LINES"; fi
		done
	elif [ "$1" = all ]; then
		list=$(ls /lab/scenarios/*.sh | grep -vE '/(upgrade|churn)\.sh$' | sort)
	else
		list=/lab/scenarios/$1.sh
	fi

	# each scenario's own limit (the mode's LAB_SCENARIO_LIMIT: the churn's long form); its
	# time against it is printed (the runner's result line has the boot's), so a scenario
	# that drifts towards it is seen before it fails
	SCENARIO_LIMIT=${LAB_SCENARIO_LIMIT:-600}
	for f in $list; do
		name=$(basename "$f" .sh)
		echo "# $name ($(cut -d' ' -f1 /proc/uptime) s)"
		echo "=== scenario $name" >>"$LAB_DETAILS"
		before=$(wc -l <"$LAB_LINES")
		t0=$(cut -d' ' -f1 /proc/uptime)
		LAB_SCENARIO=$name timeout -k 5 $SCENARIO_LIMIT bash -c '. /lab/guest/lib.sh; . "$1"' scenario "$f" </dev/null
		rc=$?
		took=$(awk -v a="$t0" '{ printf "%.0f", $1 - a }' /proc/uptime)
		echo "lab: $name took $took s of its $SCENARIO_LIMIT s limit ($((took * 100 / SCENARIO_LIMIT))%)$([ $((took * 2)) -le $SCENARIO_LIMIT ] || echo ', more than half of it')"
		after=$(wc -l <"$LAB_LINES")
		if [ "$rc" != 0 ]; then
			echo "FAIL $name: scenario script exited with status $rc" | tee -a "$LAB_LINES"
		elif [ "$before" = "$after" ]; then
			echo "FAIL $name: scenario reported nothing" | tee -a "$LAB_LINES"
		fi
		lab_cleanup >>"$LAB_DETAILS" 2>&1
	done

	passed=$(grep -c '^ok ' "$LAB_LINES")
	failed=$(grep -c '^FAIL ' "$LAB_LINES")
	skipped=$(grep -c '^skip ' "$LAB_LINES")
	cp "$LAB_LINES" "$results/lines"
	cp "$LAB_DETAILS" "$results/details.log" 2>/dev/null
	dmesg >"$results/dmesg.log" 2>/dev/null
	echo "lab: scenarios done at $(cut -d' ' -f1 /proc/uptime) s ($skipped skipped)"
	echo "$passed passed, $failed failed" | tee "$results/summary"
}

# --- the modes, one row each: what the guest runs in each (lab/run's table of the same
# modes says what each is on the host)
case $LAB_MODE in
run)        mode_scenarios all ;;       # lab/run [scenario...]
boot)       mode_boot ;;                # lab/run --boot [group...]
demo)       mode_script demo ;;         # lab/demo
throughput) mode_script throughput ;;   # lab/throughput: figures to $results/throughput.tsv
upgrade)    mode_scenarios upgrade ;;   # lab/run --platform trixie --upgrade [scenario...]
churn)      mode_scenarios churn ;;     # lab/run --churn
*)
	echo "FAIL lab: unknown mode '$LAB_MODE' (lab/guest/main.sh's table)" | tee -a "$LAB_LINES"
	cp "$LAB_LINES" "$results/lines"
	echo "0 passed, 1 failed" | tee "$results/summary" ;;
esac
