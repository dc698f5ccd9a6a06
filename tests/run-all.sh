#!/bin/bash
# Installs what the tests need (Debian 12, as root, through the machine's own apt sources) and
# runs every suite: unit, integration, fuzz corpora, man pages, then the same under
# ASan+UBSan, then the NFS lab in qemu on its platforms (Debian 12, 13 and 14, see
# tests/meson.build).  Ends with one "N passed, N failed" line.
#   tests/run-all.sh [--no-install] [--no-lab]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

install=1 lab=1
for a in "$@"; do
	case $a in
	--no-install) install=0 ;;
	--no-lab) lab=0 ;;
	*) echo "usage: tests/run-all.sh [--no-install] [--no-lab]" >&2; exit 1 ;;
	esac
done

if [ "$install" = 1 ]; then
	missing=()
	for p in $(cat tests/deps.txt; [ "$lab" = 1 ] && cat lab/deps.txt); do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "missing packages; as root: apt-get install ${missing[*]}" >&2
			exit 2
		fi
		echo "== installing: ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } >/dev/null ||
			{ echo "apt-get install failed" >&2; exit 2; }
	fi
fi

passed=0 failed=0 skipped=0
count() { # count BUILDDIR [LOGBASE]: adds the results of a meson test run (its log's name)
	local log=$1/meson-logs/${2:-testlog}.json
	[ -f "$log" ] || return 0
	read -r p f s < <(python3 - "$log" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r == "SKIP": s += 1
    else: f += 1
print(p, f, s)
PY
)
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# margins BUILDDIR: each test's time against its own meson timeout, for the lab's tests and
# the three slowest others; a test past half of its limit is named (a machine twice as busy
# fails it), never failed: the limit does that
margins() { # margins BUILDDIR [LOGBASE]
	meson introspect "$1" --tests >"$1/meson-logs/tests.json" 2>/dev/null || return 0
	python3 - "$1/meson-logs/${2:-testlog}.json" "$1/meson-logs/tests.json" <<'PY'
import json, sys
limits = {t["name"]: (t["timeout"], t["suite"]) for t in json.load(open(sys.argv[2]))}
runs = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    name = r["name"].split(" / ", 1)[-1]
    limit, suites = limits.get(name, (0, []))
    runs.append((r["duration"], name, limit, any(s.endswith("lab") for s in suites)))
lab = [r for r in runs if r[3]]
others = sorted((r for r in runs if not r[3]), reverse=True)
for d, name, limit, _ in lab + others[:3] + [r for r in others[3:] if limit and r[0] * 2 > limit]:
    share = f"{100 * d / limit:.0f}%" if limit else "no limit"
    over = ", more than half of its limit" if limit and d * 2 > limit else ""
    print(f"== time: {name} {d:.1f} s of its {limit} s ({share}){over}")
PY
}

setup() { # setup BUILDDIR SETUP-ARGS...: configured and compiled, warnings a failure
	local dir=$1; shift
	echo "== $dir: meson setup $*"
	if [ -d "$dir" ]; then meson setup --reconfigure "$dir" "$@" >/dev/null
	else meson setup "$dir" "$@" >/dev/null; fi || { failed=$((failed + 1)); return 1; }
	meson compile -C "$dir" 2>&1 | grep -E '(warning|error):' && { echo "build warnings in $dir"; failed=$((failed + 1)); }
	return 0
}
tests() { # tests BUILDDIR TEST-ARGS...: a meson test run of a compiled tree, counted
	local dir=$1; shift
	meson test -C "$dir" --no-rebuild --print-errorlogs "$@" | grep -vE '^ *[0-9]+/[0-9]+ .* OK '
	count "$dir"
	margins "$dir"
}

# The lab boots two VMs at a time (meson's suite lab, longest first, tests/meson.build): a TCG
# guest keeps one of the two cores busy. It starts as soon as the tree is compiled, the suites
# outside the VM beside it (its log of its own: build/meson-logs/lab.json)
lab_pid=
if setup build; then
	if [ "$lab" = 1 ]; then
		mkdir -p build/lab
		# verbose: one line per lab check (ok NAME / FAIL NAME: why / skip NAME: why)
		meson test -C build --no-rebuild --logbase lab --print-errorlogs --suite lab \
			--num-processes 2 --verbose &
		lab_pid=$!
	fi
	tests build --suite unit --suite integration --suite fuzz --suite man --suite package --suite style
fi
setup build-asan -Db_sanitize=address,undefined -Db_lundef=false &&
	tests build-asan --suite unit --suite integration --suite fuzz
lab_summary=
if [ -n "$lab_pid" ]; then
	wait "$lab_pid"
	count build lab
	margins build lab
	# each platform's figures (lab/run --platform: bookworm in build/lab, trixie and forky in
	# build/lab/trixie and build/lab/forky)
	res() { cat "build/lab/$1/results/summary" 2>/dev/null || echo none; }
	lab_summary="bookworm: mount: $(res run-mount), system: $(res run-system), demo: $(res run-demo),"
	lab_summary="$lab_summary boot: $(res run-boot), throughput smoke: $(res run-throughput)"
	for p in trixie forky; do
		lab_summary="$lab_summary; $p: mount: $(res $p/run-mount), system: $(res $p/run-system),"
		lab_summary="$lab_summary demo: $(res $p/run-demo),"
		[ $p = forky ] || lab_summary="$lab_summary boot: $(res $p/run-boot),"
		lab_summary="$lab_summary upgrade: $(res $p/run-upgrade)"
	done
fi

echo "== meson tests: $passed passed, $failed failed, $skipped skipped${lab_summary:+; lab checks inside: $lab_summary}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
